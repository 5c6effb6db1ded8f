import { eq } from "drizzle-orm";
import { composeMail, type Db, loadTemplates, logger, type MailDraft, orderItems, type orders, type RefundOutcome, reviseUntriedMail } from "../../platform/index.server";
import { orderLink, queueOrderMail, type MailLine, type MailOrder } from "./mails.server";

type OrderRow = typeof orders.$inferSelect;

/**
 * Sent when an admin marks the order shipped: the carrier, the tracking number and the carrier's
 * tracking page, as stored on the order; `trackingNumber` stands in when the row has none.
 */
export function orderShippedMail(order: MailOrder, lines: MailLine[], trackingNumber: string): MailDraft {
  const shipment = {
    carrier: order.carrier ?? null,
    trackingNumber: order.trackingNumber || trackingNumber || null,
    trackingUrl: order.trackingUrl ?? null,
  };
  return async (ctx) => (await loadTemplates()).orderShippedMail(ctx, { order, shipment, lines, orderUrl: orderLink(order) });
}

/** Sent when an admin cancels the order; says what happens to the money. */
export function orderCancelledMail(order: MailOrder, refund: RefundOutcome): MailDraft {
  return async (ctx) => (await loadTemplates()).orderCancelledMail(ctx, { order, refund, orderUrl: orderLink(order) });
}

/** A cancelled mail recorded with its change: what it says of the money until the refund answers. */
export type QueuedCancelMail = { id: string; order: OrderRow; refund: RefundOutcome };

/**
 * Inside the status change's transaction: records the mail the move sends (shipped, cancelled),
 * so the commit that changes the order holds its mail, as the payment's does with its
 * confirmation; each mail's job sends it after the commit. A cancelled mail is
 * written as things stand at the commit: a refund recorded is one that "will be refunded".
 */
export async function queueStatusMail(
  tx: Db,
  move: { to: string; before: OrderRow; after: OrderRow; refundRecorded: boolean },
): Promise<QueuedCancelMail | null> {
  if (move.to === "shipped") {
    const lines = await tx.select().from(orderItems).where(eq(orderItems.orderId, move.after.id));
    await queueOrderMail(tx, move.after, orderShippedMail(move.after, lines, move.after.trackingNumber ?? ""), "order-shipped");
    return null;
  }
  if (move.to !== "cancelled") return null;
  // The template's 'failed' reads "will be refunded": true from the commit until the call succeeds.
  const refund: RefundOutcome = move.refundRecorded ? "failed" : "none";
  const queued = await queueOrderMail(tx, move.before, orderCancelledMail(move.before, refund), "order-cancelled");
  return queued ? { id: queued.id, order: move.before, refund } : null;
}

/**
 * After the commit, once the refund call has answered: the cancelled mail says what happened
 * ("has been refunded", or a late payment found and refunded), if no one has tried to send it
 * yet. One already tried said "will be refunded", which stays true: the refund is retried.
 */
export async function settleCancelMail(db: Db, mail: QueuedCancelMail | null, refund: RefundOutcome) {
  if (!mail || mail.refund === refund) return;
  try {
    await reviseUntriedMail(db, mail.id, await composeMail(db, orderCancelledMail(mail.order, refund)));
  } catch (err) {
    logger.warn({ err: (err as Error).message, mailId: mail.id, orderId: mail.order.id }, "cancelled mail kept its first words");
  }
}
