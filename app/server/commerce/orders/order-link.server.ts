import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "../../platform/index.server";

/**
 * The signed link to a shopper's order page (docs/rules/after-sale.md, The shopper's order page):
 * `/profile/orders/<number>?t=<token>`, sent in the order confirmation so a guest can open it.
 *
 * The token is HMAC-SHA256 over the order number and the order's email with a key derived from
 * the auth secret (BETTER_AUTH_SECRET, or the one generated into DATA_DIR): every app server
 * sharing that secret accepts the same links, and the derived key is used for nothing else, so a
 * token can never pass for a session or another signature. Order numbers are guessable (a day and
 * four characters); the 256-bit token is not, and it only opens the order it was made for.
 *
 * No expiry: the link is the shopper's receipt, opened weeks later to follow a parcel or buy
 * again, and it shows no more than the confirmation mail that carries it already does. Rotating
 * the auth secret revokes every link at once (and signs everyone out).
 */

const PURPOSE = "order-page-link/v1";

let cachedKey: { secret: string; key: Buffer } | null = null;

function linkKey(): Buffer {
  const secret = getAuthSecret();
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: createHmac("sha256", secret).update(PURPOSE).digest() };
  return cachedKey.key;
}

export type LinkedOrder = { orderNumber: string; email: string };

/** The token for one order: base64url, 43 characters. */
export function orderLinkToken(order: LinkedOrder): string {
  return createHmac("sha256", linkKey())
    .update(`${order.orderNumber}\n${order.email.trim().toLowerCase()}`)
    .digest("base64url");
}

/** The order page's path with its signed token; the mails put PUBLIC_URL in front. */
export function orderPageUrl(order: LinkedOrder): string {
  return `/profile/orders/${encodeURIComponent(order.orderNumber)}?t=${orderLinkToken(order)}`;
}

/** Whether `token` was made for this order; compared in constant time, any malformed token is simply false. */
export function isOrderLinkToken(order: LinkedOrder, token: string | null | undefined): boolean {
  if (typeof token !== "string" || token.length !== 43) return false;
  const expected = Buffer.from(orderLinkToken(order), "utf8");
  const given = Buffer.from(token, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
