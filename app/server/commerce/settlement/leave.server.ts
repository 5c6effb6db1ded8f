import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { type Db, getAuthSecret, logger, orders } from "../../platform/index.server";
import { confirmPayment } from "./confirm.server";
import { type Providers, shopProviders } from "./providers.server";

/**
 * Leaving the payment page ('back to the shop', the provider's cancel link) closes the checkout
 * at once, so its discount code's use and its claim are given back now rather than when the page
 * lapses (docs/money-path.md, "Discount codes"). The link carries the order's id and a token
 * (HMAC over the id with a key derived from the auth secret for this purpose alone), so nobody
 * can close another shopper's checkout by guessing a link.
 */

const PURPOSE = "leave-payment-page/v1";

function leaveToken(orderId: string): string {
  const key = createHmac("sha256", getAuthSecret()).update(PURPOSE).digest();
  return createHmac("sha256", key).update(orderId).digest("base64url");
}

/** Where the payment page's cancel link goes: this order's leave link, then back to the cart. */
export function leavePaymentPageUrl(baseUrl: string, orderId: string): string {
  return `${baseUrl}/api/checkout/leave?order=${encodeURIComponent(orderId)}&t=${leaveToken(orderId)}`;
}

function isLeaveToken(orderId: string, token: string | null): boolean {
  if (!token || token.length !== 43) return false;
  const expected = Buffer.from(leaveToken(orderId), "utf8");
  const given = Buffer.from(token, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The shopper left the payment page of `orderId`: its page is closed at the provider, then the
 * provider's answer is applied as any other (closed unpaid, or paid if the money got in first).
 * A wrong token, an unknown order or one no longer waiting for its payment: nothing happens.
 */
export async function leavePaymentPage(db: Db, orderId: string | null, token: string | null, opts: { providers?: Providers } = {}): Promise<void> {
  if (!orderId || orderId.length > 100 || !isLeaveToken(orderId, token)) return;
  const [order] = await db
    .select({ id: orders.id, status: orders.status, paymentStatus: orders.paymentStatus, paymentSessionId: orders.paymentSessionId, paymentProvider: orders.paymentProvider })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order?.paymentSessionId || order.status !== "pending" || order.paymentStatus !== "unpaid") return;
  const providers = opts.providers ?? shopProviders(db);
  try {
    await providers.forOrder(order).expireSession(order.paymentSessionId);
    await confirmPayment(db, order.paymentSessionId, { providers });
  } catch (err) {
    // The page then lapses on its own within the hour, and the sweep closes the order.
    logger.warn({ err: (err as Error).message, orderId }, "could not close a payment page the shopper left");
  }
}
