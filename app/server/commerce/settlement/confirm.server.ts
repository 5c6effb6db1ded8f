import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { type Db, logger, orderEvents, orderItems, orders } from "../../platform/index.server";
import { addOrderEvent } from "../orders/events.server";
import { notCompletedMail, queueOrderMail } from "../orders/mails.server";
import type { PaymentProvider, RemoteSession } from "../payments/provider.server";
import { closeUnpaidOrder } from "./close.server";
import { recordProviderCall, runOrderCall } from "./provider-calls.server";
import { settleDifferentAmount } from "./refund-difference.server";
import { shopProviders, type Providers } from "./providers.server";
import { REFUND_REASONS, sessionFitsOrder, takePayment } from "./take-payment.server";

type OrderRow = typeof orders.$inferSelect;

export type OrderReceipt = { orderNumber: string; totalAmountCents: number; email: string };

/**
 * Where a payment stands, as the result page and the webhook see it. `error` covers a session
 * the provider cannot confirm for this order; it never reveals anything about another order.
 */
export type PaymentOutcome =
  | { state: "paid" | "failed" | "expired" | "pending"; order: OrderReceipt }
  | { state: "sold_out" | "cancelled"; order: OrderReceipt; message: string }
  | { state: "not_found" }
  | { state: "error" };

const receipt = (o: OrderRow): OrderReceipt => ({
  orderNumber: o.orderNumber,
  totalAmountCents: o.totalAmountCents,
  email: o.email,
});

async function findBySession(db: Db, sessionId: string) {
  const [order] = await db.select().from(orders).where(eq(orders.paymentSessionId, sessionId));
  return order;
}

const LATE_PAYMENT_NOTE = "This order was cancelled before your payment went through.";


/**
 * Brings an order in line with its payment session: the webhook, the result page and any reload
 * may call it for the same session, in any order, any number of times. The provider's answer is
 * the truth; the order row, locked FOR UPDATE, decides who applies it, so exactly one caller
 * takes the stock and sends the confirmation.
 */
export async function confirmPayment(db: Db, sessionId: string, opts: { providers?: Providers } = {}): Promise<PaymentOutcome> {
  const providers = opts.providers ?? shopProviders(db);
  const order = await findBySession(db, sessionId);
  if (!order) return { state: "not_found" };
  if (order.paymentStatus === "expired" || order.paymentStatus === "failed") {
    if (await recordLatePayment(db, order, providers)) return settled(db, (await findBySession(db, sessionId))!, providers);
  }
  if (order.paymentStatus !== "unpaid") return settled(db, order, providers);

  let remote: RemoteSession | null;
  let provider: PaymentProvider;
  try {
    provider = providers.forOrder(order);
    remote = await provider.retrieveSession(sessionId);
  } catch (err) {
    logger.error({ err: (err as Error).message, orderId: order.id, orderNumber: order.orderNumber }, "payment session could not be read");
    return { state: "error" };
  }
  if (!remote) {
    logger.error({ orderId: order.id, orderNumber: order.orderNumber }, "the payment provider does not know this order's session");
    return { state: "error" };
  }
  // The session must be the one opened for this order, for its amount: anything else is refused.
  const fit = sessionFitsOrder(remote, order);
  if (fit === "other_order") {
    logger.error({ orderId: order.id, orderNumber: order.orderNumber, sessionOrder: remote.orderId }, "payment session belongs to another order");
    return { state: "error" };
  }
  if (remote.state === "open") return { state: "pending", order: receipt(order) };
  if (remote.state === "failed" || remote.state === "expired") {
    await closeUnpaidOrder(db, order.id, remote.state, provider.name);
    return settled(db, (await findBySession(db, sessionId))!, providers);
  }
  if (fit === "other_amount") {
    // Never only logged: flagged for the owner with the refund it calls for (refund-difference.server.ts).
    const taken = await settleDifferentAmount(db, order.id, remote, provider.name);
    return taken === "paid" ? settled(db, (await findBySession(db, sessionId))!, providers) : { state: "error" };
  }

  // Decided in one transaction; its mails, follow-ups and any refund are jobs added in it.
  await db.transaction((tx) => takePayment(tx, order.id, remote, provider.name));
  return settled(db, (await findBySession(db, sessionId))!, providers);
}

/**
 * A payment that went through after its order was closed: an admin cancelled the order while the
 * shopper was still on the payment page, and the session could not be closed in time. The money
 * is never kept: the payment, its refund and the shopper's mail are recorded together (no stock
 * is taken).
 * Answers true when this call recorded it.
 */
async function recordLatePayment(db: Db, order: OrderRow, providers: Providers): Promise<boolean> {
  if (!order.paymentSessionId) return false;
  let remote: RemoteSession | null;
  let provider: PaymentProvider;
  try {
    provider = providers.forOrder(order);
    remote = await provider.retrieveSession(order.paymentSessionId);
  } catch (err) {
    // The next look at the order (a webhook retry, a reload) asks again.
    logger.error({ err: (err as Error).message, orderId: order.id, orderNumber: order.orderNumber }, "payment session of a closed order could not be read");
    return false;
  }
  if (!remote || remote.state !== "paid" || remote.id !== order.paymentSessionId) return false;
  if (remote.orderId && remote.orderId !== order.id) return false;
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
    if (!row || (row.paymentStatus !== "expired" && row.paymentStatus !== "failed")) return false;
    const now = new Date();
    await tx
      .update(orders)
      .set({
        paymentStatus: "paid",
        paidAt: now,
        paymentReference: remote.paymentReference,
        updatedAt: now,
        version: sql`${orders.version} + 1`,
      })
      .where(eq(orders.id, order.id));
    // No line took stock, so a later release puts nothing back.
    await tx.update(orderItems).set({ stockTracked: false }).where(eq(orderItems.orderId, order.id));
    await addOrderEvent(tx, { orderId: order.id, kind: "late_payment", note: LATE_PAYMENT_NOTE, actorLabel: provider.name });
    await recordProviderCall(tx, { orderId: order.id, kind: "refund", note: REFUND_REASONS.late_payment });
    await queueOrderMail(tx, row, notCompletedMail(row, LATE_PAYMENT_NOTE), "order-late-payment");
    logger.warn({ orderId: order.id, orderNumber: order.orderNumber }, "payment arrived for a closed order; refunding it");
    return true;
  });
}

/** Why a paid order was closed without being fulfilled: it sold out, or it was cancelled before the payment. */
async function closingEvent(db: Db, orderId: string) {
  const [event] = await db
    .select({ kind: orderEvents.kind, note: orderEvents.note })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), inArray(orderEvents.kind, ["sold_out", "late_payment"])))
    .orderBy(desc(orderEvents.createdAt))
    .limit(1);
  return event;
}

/** The outcome of an order whose payment is already decided; makes a refund still owed. */
async function settled(db: Db, order: OrderRow, providers: Providers): Promise<PaymentOutcome> {
  const base = receipt(order);
  if (order.paymentStatus === "unpaid") return { state: "pending", order: base };
  if (order.paymentStatus === "failed" || order.paymentStatus === "expired") return { state: order.paymentStatus, order: base };
  const closing = order.status === "cancelled" ? await closingEvent(db, order.id) : undefined;
  if (closing === undefined) {
    if (order.status !== "cancelled") return { state: "paid", order: base };
    // Paid, then cancelled by the shop: no longer a confirmed order. The admin chose whether to
    // refund (orders/status.server.ts), so nothing is refunded from here.
    const money =
      order.paymentStatus === "refunded" ? "Your payment has been refunded." : "Contact us if you have questions about your payment.";
    return { state: "cancelled", order: base, message: `This order has been cancelled. ${money}` };
  }
  const kind = closing.kind === "late_payment" ? "late_payment" : "sold_out";
  let refunded = order.paymentStatus === "refunded";
  if (!refunded) {
    // Recorded with the decision; recorded here too for an order closed before calls were recorded.
    await recordProviderCall(db, { orderId: order.id, kind: "refund", note: REFUND_REASONS[kind] });
    refunded = (await runOrderCall(db, order.id, "refund", { providers, flagOnce: true, skipBusy: true })) === "done";
  }
  const money = refunded ? "Your payment has been refunded." : "Your payment will be refunded.";
  return { state: kind === "sold_out" ? "sold_out" : "cancelled", order: base, message: `${closing.note} ${money}` };
}
