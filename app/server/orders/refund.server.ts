import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { orderEvents, orders } from "../db/schema";
import { logger } from "../logger.server";
import { getPaymentProvider, type PaymentProvider } from "../payments/index.server";
import { addOrderEvent, type OrderEventInput } from "./events.server";

export type RefundableOrder = Pick<typeof orders.$inferSelect, "id" | "paymentProvider" | "paymentSessionId" | "paymentReference">;

type RefundOptions = {
  /** The note of the 'refund' event, e.g. "Payment refunded in full: the order sold out." */
  reason: string;
  /** What the log says when the provider refuses or cannot be reached. */
  failureLog: string;
  /** Who asked, for the timeline (the system when absent). */
  actor?: Pick<OrderEventInput, "actorUserId" | "actorLabel">;
  /** A path that may run again for the same order flags a failed refund once, not on every retry. */
  flagOnce?: boolean;
  provider?: PaymentProvider;
};

/**
 * Gives a paid order's money back in full. The idempotency key is one per order, so whichever path
 * asks first (a sold-out confirmation, a cancellation) the payment is refunded once. On success the
 * order is marked refunded with a 'refund' event; on failure the timeline asks a person to refund
 * it by hand, and the answer is false.
 */
export async function refundOrderPayment(db: Db, order: RefundableOrder, opts: RefundOptions): Promise<boolean> {
  try {
    const provider = opts.provider ?? getPaymentProvider(db, order.paymentProvider as "test" | "stripe");
    await provider.refund(
      { id: order.paymentSessionId ?? "", paymentReference: order.paymentReference },
      { idempotencyKey: `refund-${order.id}` },
    );
  } catch (err) {
    logger.error({ err: (err as Error).message, orderId: order.id }, opts.failureLog);
    if (!opts.flagOnce || !(await hasAttentionEvent(db, order.id))) {
      await addOrderEvent(db, {
        orderId: order.id,
        kind: "attention",
        note: "Automatic refund failed: refund this payment by hand.",
        ...opts.actor,
      });
    }
    return false;
  }
  await db.transaction(async (tx) => {
    const done = await tx
      .update(orders)
      .set({ paymentStatus: "refunded", updatedAt: new Date(), version: sql`${orders.version} + 1` })
      .where(and(eq(orders.id, order.id), eq(orders.paymentStatus, "paid")))
      .returning({ id: orders.id });
    if (done.length) await addOrderEvent(tx, { orderId: order.id, kind: "refund", note: opts.reason, ...opts.actor });
  });
  return true;
}

async function hasAttentionEvent(db: Db, orderId: string): Promise<boolean> {
  const [flagged] = await db
    .select({ id: orderEvents.id })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, "attention")))
    .limit(1);
  return flagged !== undefined;
}
