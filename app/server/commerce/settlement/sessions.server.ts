import { eq } from "drizzle-orm";
import type { Quote } from "~/lib/pricing-view";
import { type Db, logger, orders } from "../../platform/index.server";
import { CHECKOUT_SESSION_ID_PLACEHOLDER, type RemoteSession } from "../payments/provider.server";
import { closeInterruptedCheckout, closeUnpaidOrder } from "./close.server";
import { confirmPayment } from "./confirm.server";
import { leavePaymentPageUrl } from "./leave.server";
import type { Providers } from "./providers.server";

type OrderRow = typeof orders.$inferSelect;

/** The provider a new checkout's order is opened with (stored on the order). */
export const newCheckoutProviderName = (providers: Providers) => providers.forNewCheckout().name;

export type OpenedSession =
  | { ok: true; url: string; sessionId: string }
  /** The provider could not open a page; the order is closed. */
  | { ok: false; reason: "provider_unavailable" }
  /** The order was closed (an admin cancelled it) while its page opened; that page is closed too. */
  | { ok: false; reason: "order_closed" };

/**
 * Opens the payment page of a new, unpaid order for exactly its quote. The checkout calls this
 * once per order; everything after it (confirmation, closing, refunds) is settlement's.
 */
export async function openPaymentSession(
  db: Db,
  order: Pick<OrderRow, "id" | "orderNumber" | "email" | "currency" | "paymentProvider">,
  quote: Quote,
  urls: { baseUrl: string },
  providers: Providers,
): Promise<OpenedSession> {
  const provider = providers.forOrder(order);
  let session: { id: string; url: string };
  try {
    session = await provider.createSession(
      { id: order.id, orderNumber: order.orderNumber, email: order.email, currency: order.currency, quote },
      {
        successUrl: `${urls.baseUrl}/order-success?session_id=${CHECKOUT_SESSION_ID_PLACEHOLDER}`,
        // Leaving the page closes the checkout at once and comes back to the cart (leave.server.ts).
        cancelUrl: leavePaymentPageUrl(urls.baseUrl, order.id),
      },
      { idempotencyKey: `checkout-${order.id}` },
    );
  } catch (err) {
    logger.error({ err: (err as Error).message, orderId: order.id, orderNumber: order.orderNumber }, "payment session could not be opened");
    await closeUnpaidOrder(db, order.id, "failed", provider.name);
    return { ok: false, reason: "provider_unavailable" };
  }
  const [saved] = await db
    .update(orders)
    .set({ paymentSessionId: session.id, updatedAt: new Date() })
    .where(eq(orders.id, order.id))
    .returning({ status: orders.status, paymentStatus: orders.paymentStatus });
  if (saved?.status !== "pending" || saved.paymentStatus !== "unpaid") {
    // Closed while its payment page opened: that page must not take money. Closed at the
    // provider; a payment that got in first is found and refunded.
    await provider.expireSession(session.id).catch((err: Error) => {
      logger.error({ err: err.message, orderId: order.id, orderNumber: order.orderNumber }, "payment session of a closed order could not be closed");
    });
    await confirmPayment(db, session.id, { providers });
    return { ok: false, reason: "order_closed" };
  }
  return { ok: true, url: session.url, sessionId: session.id };
}

export type OpenCheckoutState =
  /** Still payable on this page. */
  | { state: "open"; url: string; sessionId: string }
  /** Being opened by another request, or a bank payment is on its way: wait. */
  | { state: "processing" }
  /** Paid (and settled now): this cart is bought. */
  | { state: "paid" }
  /** Declined, lapsed, closed or unknown to the provider: a new order may be made. */
  | { state: "closed" }
  /** The provider could not be asked: whether that page may still be paid is unknown. */
  | { state: "unreadable" };

/**
 * Where an unpaid order made by an earlier submission of the same checkout stands, settling it
 * when the provider already decided (a resubmission must not make a second payable order).
 */
export async function reviewOpenCheckout(db: Db, order: OrderRow, providers: Providers): Promise<OpenCheckoutState> {
  if (order.paymentStatus !== "unpaid" || order.status === "cancelled") return { state: "closed" };
  if (!order.paymentSessionId) {
    // Long past any provider's time to open a session: the server that made it died on the way.
    return (await closeInterruptedCheckout(db, order)) ? { state: "closed" } : { state: "processing" };
  }
  const sessionId = order.paymentSessionId;
  let remote: RemoteSession | null;
  try {
    remote = await providers.forOrder(order).retrieveSession(sessionId);
  } catch (err) {
    logger.error({ err: (err as Error).message, orderId: order.id, orderNumber: order.orderNumber }, "payment session of a resubmitted checkout could not be read");
    return { state: "unreadable" };
  }
  if (remote?.state === "paid") {
    // Paid, and its confirmation has not arrived yet: settle it now.
    await confirmPayment(db, sessionId, { providers });
    return { state: "paid" };
  }
  if (remote?.state === "open") {
    // Open without a page: a bank payment is on its way.
    return remote.url ? { state: "open", url: remote.url, sessionId } : { state: "processing" };
  }
  if (remote) await confirmPayment(db, sessionId, { providers });
  return { state: "closed" };
}
