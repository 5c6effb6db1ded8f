import { eq, inArray, sql } from "drizzle-orm";
import { type Db, orderItems, orders } from "../../platform/index.server";
import { queueLowStockAlerts } from "../../catalog/index.server";
import { keepDiscountUse, releaseDiscountUse } from "../discounts/uses.server";
import { addOrderEvent } from "../orders/events.server";
import { notCompletedMail, orderConfirmationMail, queueOrderMail } from "../orders/mails.server";
import type { RemoteSession } from "../payments/provider.server";
import { recordPaidFollowUps } from "./follow-ups.server";
import { recordCharge } from "./ledger.server";
import { recordProviderCall } from "./provider-calls.server";
import { takeOrderStock } from "./stock.server";

/** The timeline's words for a refund settlement records on its own. */
export const REFUND_REASONS = {
  sold_out: "Payment refunded in full: the order sold out.",
  late_payment: "Payment refunded in full: the order was cancelled before the payment went through.",
} as const;

type SessionOrder = { id: string; totalAmountCents: number; currency: string; paymentSessionId: string | null };

/**
 * Whether a provider's session may pay this order: it must be the session opened for it
 * (`other_order` otherwise) and be for its total, in its currency (`other_amount`).
 */
export function sessionFitsOrder(remote: RemoteSession, order: SessionOrder): "fits" | "other_order" | "other_amount" {
  if ((remote.orderId && remote.orderId !== order.id) || remote.id !== order.paymentSessionId) return "other_order";
  if (remote.amountTotalCents !== order.totalAmountCents || (remote.currency ?? order.currency) !== order.currency) return "other_amount";
  return "fits";
}

/**
 * Inside one transaction: lock the order, take its stock (all lines or none), then mark it paid.
 * When a line cannot be served the order is cancelled and its refund recorded in the same
 * transaction, so a crash before the refund call cannot forget it. Everything that follows is
 * recorded in it as jobs, done after the commit: the confirmation (or sold-out) mail, the shop's
 * low-stock alert for each product the sale took to its threshold, the refund of a sold-out order,
 * and the shopper's address book and saved cart (follow-ups.server.ts).
 */
export async function takePayment(
  tx: Db,
  orderId: string,
  remote: RemoteSession,
  providerName: string,
): Promise<"already" | "paid" | "sold_out"> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!order || order.paymentStatus !== "unpaid") return "already" as const;
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  const { taken, untracked, short, lowStock } = await takeOrderStock(tx, items);
  // With the mark of each crossing (none when the stock could not all be taken).
  await queueLowStockAlerts(tx, lowStock);
  // Paid is paid: the discount code's use is kept, even if the order is refunded later; but an
  // order the shop could not serve (sold out, refunded by the shop) gives it back.
  if (short.length && order.status === "pending") await releaseDiscountUse(tx, orderId);
  else await keepDiscountUse(tx, orderId);

  // The charge goes on the ledger whatever follows: the money was taken (a sold-out order's refund follows it).
  await recordCharge(tx, order, order.totalAmountCents, remote.paymentReference ?? remote.id);

  const now = new Date();
  const paidFields = { paidAt: now, paymentReference: remote.paymentReference, updatedAt: now, version: sql`${orders.version} + 1` };
  // An admin accepted this order before it was paid (pending → processing, or further): their
  // status stands, and the goods may already be on their way, so a shortfall is not a cancel.
  const accepted = order.status !== "pending";
  if (short.length && accepted) {
    await tx.update(orders).set({ ...paidFields, paymentStatus: "paid" }).where(eq(orders.id, orderId));
    await tx.update(orderItems).set({ stockTracked: false }).where(eq(orderItems.orderId, orderId));
    await addOrderEvent(tx, {
      orderId,
      kind: "attention",
      note: `Payment received for an order accepted before payment, but ${short.map((n) => `"${n}"`).join(", ")} had too little stock to take: no stock was taken. Check the stock by hand.`,
      actorLabel: providerName,
    });
    await recordPaidFollowUps(tx, order);
    await queueOrderMail(tx, order, orderConfirmationMail(order, items), "order-confirmation");
    return "paid" as const;
  }
  if (short.length) {
    await tx.update(orders).set({ ...paidFields, paymentStatus: "paid", status: "cancelled" }).where(eq(orders.id, orderId));
    // No line holds stock, so a later release (releaseOrderStock) puts nothing back.
    await tx.update(orderItems).set({ stockTracked: false }).where(eq(orderItems.orderId, orderId));
    const names = short.map((n) => `"${n}"`).join(", ");
    await addOrderEvent(tx, {
      orderId,
      kind: "sold_out",
      fromStatus: order.status,
      toStatus: "cancelled",
      note: `${names} sold out before your payment went through.`,
      actorLabel: providerName,
    });
    await recordProviderCall(tx, { orderId, kind: "refund", note: REFUND_REASONS.sold_out });
    await queueOrderMail(tx, order, notCompletedMail(order, `${names} sold out before your payment went through.`), "order-sold-out");
    return "sold_out" as const;
  }
  // What was taken is what a cancel gives back: a product may have changed between unlimited and
  // counted stock since the order was placed.
  if (taken.length) await tx.update(orderItems).set({ stockTracked: true }).where(inArray(orderItems.id, taken));
  if (untracked.length) await tx.update(orderItems).set({ stockTracked: false }).where(inArray(orderItems.id, untracked));
  const status = accepted ? order.status : "processing";
  await tx.update(orders).set({ ...paidFields, paymentStatus: "paid", status }).where(eq(orders.id, orderId));
  await addOrderEvent(tx, {
    orderId,
    kind: "payment",
    fromStatus: order.status,
    toStatus: status,
    note: `Payment received (${providerName}${remote.paymentReference ? ` ${remote.paymentReference}` : ""})`,
    actorLabel: providerName,
  });
  await recordPaidFollowUps(tx, order);
  await queueOrderMail(tx, order, orderConfirmationMail(order, items), "order-confirmation");
  return "paid" as const;
}
