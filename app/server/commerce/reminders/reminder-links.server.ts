import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "../../platform/index.server";

/**
 * The reminder mail's two links (docs/rules/after-sale.md, The abandoned-checkout reminder), each
 * signed so nobody can make one for an order or an address that is not theirs:
 * - `/cart/restore?o=<order number>&t=<token>`: HMAC-SHA256 over the order number and the order's
 *   email (lower case), as the order page's link is made (orders/order-link.server.ts), with a key
 *   of its own, so one link never passes for the other.
 * - `/unsubscribe?e=<email>&t=<token>`: HMAC-SHA256 over the address in lower case.
 * Keys are derived from the auth secret (every app server sharing it accepts the links; changing
 * it voids them). Tokens are 43 base64url characters, compared in constant time.
 */

const RESTORE_PURPOSE = "cart-restore-link/v1";
const OPT_OUT_PURPOSE = "mail-opt-out-link/v1";

const keys = new Map<string, { secret: string; key: Buffer }>();

function keyFor(purpose: string): Buffer {
  const secret = getAuthSecret();
  const cached = keys.get(purpose);
  if (cached?.secret === secret) return cached.key;
  const key = createHmac("sha256", secret).update(purpose).digest();
  keys.set(purpose, { secret, key });
  return key;
}

const sign = (purpose: string, message: string) => createHmac("sha256", keyFor(purpose)).update(message).digest("base64url");

function sameToken(expected: string, given: unknown): boolean {
  if (typeof given !== "string" || given.length !== expected.length) return false;
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(given, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The address as the opt-out list keys it (mail_opt_outs.email_key). */
export const emailKey = (email: string) => email.trim().toLowerCase();

export type RestorableOrder = { orderNumber: string; email: string };

export function cartRestoreToken(order: RestorableOrder): string {
  return sign(RESTORE_PURPOSE, `${order.orderNumber}\n${emailKey(order.email)}`);
}

/** The path of the link back to a cart holding the order's lines; the mail puts PUBLIC_URL in front. */
export function cartRestorePath(order: RestorableOrder): string {
  return `/cart/restore?o=${encodeURIComponent(order.orderNumber)}&t=${cartRestoreToken(order)}`;
}

export function isCartRestoreToken(order: RestorableOrder, token: unknown): boolean {
  return sameToken(cartRestoreToken(order), token);
}

export function optOutToken(email: string): string {
  return sign(OPT_OUT_PURPOSE, emailKey(email));
}

/** The path of the unsubscribe link for this address. */
export function unsubscribePath(email: string): string {
  return `/unsubscribe?e=${encodeURIComponent(email.trim())}&t=${optOutToken(email)}`;
}

export function isOptOutToken(email: string, token: unknown): boolean {
  return sameToken(optOutToken(email), token);
}
