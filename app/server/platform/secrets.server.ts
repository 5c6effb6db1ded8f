import { randomBytes } from "node:crypto";
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
