import { createHmac, timingSafeEqual } from "node:crypto";
import type pg from "pg";
import { SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S } from "./session-policy";
import { statementName } from "../db/client.server";

/** What kind of visitor a session belongs to: all a storefront page may differ by. */
export type ViewerRole = "customer" | "admin";

/** res.locals key set as a response goes out (session-refresh.server.ts): who it was rendered for. */
export const RENDERED_FOR = "renderedFor";

/** A session cookie's name: better-auth adds the __Secure- prefix on https. */
export const SESSION_COOKIE_NAMES = new Set(["better-auth.session_token", "__Secure-better-auth.session_token"]);

/**
 * The token inside better-auth's signed cookie value (`token.base64(hmac-sha256(secret, token))`,
 * URI-encoded), or null when the signature does not match.
 */
export function verifiedSessionToken(cookieValue: string, secret: string): string | null {
  let value: string;
  try {
    value = decodeURIComponent(cookieValue);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf(".");
  if (dot <= 0) return null;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), "base64");
  const expected = createHmac("sha256", secret).update(token).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

const ROLE_OF_SESSION = `
  select u.role, s.expires_at from sessions s join users u on u.id = s.user_id where s.token = $1`;

/**
 * The role behind a session cookie, read in one indexed query, for the page cache to pick the
 * rendering a signed-in visitor shares with others of the same kind. Null — the request renders
 * its own page through better-auth as before — when the cookie is forged, the session is gone or
 * expired, or it is due to be extended (better-auth extends it, and sends the renewed cookie,
 * only on a rendering).
 */
export function sessionRoleReader(pool: () => pg.Pool, secret: () => string, now: () => number = Date.now) {
  return async (cookieValue: string): Promise<ViewerRole | null> => {
    const token = verifiedSessionToken(cookieValue, secret());
    if (!token) return null;
    const { rows } = await pool().query<{ role: string; expires_at: Date }>({ name: statementName("session-role"), text: ROLE_OF_SESSION, values: [token] });
    const row = rows[0];
    if (!row) return null;
    const expiresAt = row.expires_at.getTime();
    const dueForUpdate = expiresAt - SESSION_EXPIRES_IN_S * 1000 + SESSION_UPDATE_AGE_S * 1000;
    if (expiresAt <= now() || dueForUpdate <= now()) return null;
    return row.role === "admin" ? "admin" : "customer";
  };
}
