import { hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "./env.server";

/**
 * Secrets the shop needs but the owner did not set: generated once into DATA_DIR (gitignored)
 * so a restart keeps sessions valid. Several app servers must share BETTER_AUTH_SECRET instead.
 */
export function getAuthSecret(): string {
  const env = getEnv();
  if (env.BETTER_AUTH_SECRET) return env.BETTER_AUTH_SECRET;
  const file = path.resolve(env.DATA_DIR, "secrets.json");
  let secrets: Record<string, string> = {};
  if (fs.existsSync(file)) secrets = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>;
  if (!secrets.authSecret) {
    secrets.authSecret = randomBytes(32).toString("base64url");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  }
  return secrets.authSecret;
}

const purposeKeys = new Map<string, Buffer>();

/**
 * A key of its own for one use of the auth secret (HKDF-SHA256 with the purpose as its label),
 * so a value signed for one purpose (a newsletter link) is worth nothing to another (a session,
 * which better-auth signs with the secret itself). Same secret and purpose, same key, on every
 * app server.
 */
export function purposeKey(purpose: string): Buffer {
  const secret = getAuthSecret();
  const id = `${purpose}\0${secret}`;
  let key = purposeKeys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "", `linen-and-loft/${purpose}`, 32));
    purposeKeys.set(id, key);
  }
  return key;
}
