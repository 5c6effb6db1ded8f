import { eq, inArray, sql } from "drizzle-orm";
import { formatMoney } from "~/lib/money";
import { type Db, orderItems, orderMoneyMovements, orders, paymentTasks, testPaymentSessions } from "../../platform/index.server";
import { addOrderEvent } from "../orders/events.server";
import { queueOrderMail, refundIssuedMail } from "../orders/mails.server";

type Task = typeof paymentTasks.$inferSelect;

/** The mail's kind in the send log. */
export const REFUND_ISSUED_MAIL = "refund-issued";

/**
 * In the transaction that marks a refund's ledger row succeeded (provider-calls.server.ts
 * `runProviderCall`, for a call made per ledger row): the timeline says it was refunded, the
 * order's version moves on, and the shopper's 'Refund issued' mail is recorded. The shopper hears
 * of a refund only here, once it went through, never while it may still fail.
 */
export async function recordRefundSucceeded(tx: Db, task: Task): Promise<void> {
  const [order] = await tx
    .update(orders)
    .set({ version: sql`${orders.version} + 1`, updatedAt: new Date() })
    .where(eq(orders.id, task.orderId))
    .returning();
  await addOrderEvent(tx, {
    orderId: task.orderId,
    kind: "refund",
    note: `Refunded ${formatMoney(task.amountCents ?? 0)}.`,
    actorUserId: task.actorUserId,
    actorLabel: task.actorLabel,
  });
  if (!order || !task.movementId) return;
  const [movement] = await tx.select().from(orderMoneyMovements).where(eq(orderMoneyMovements.id, task.movementId));
  if (!movement) return;
  const ids = movement.lines.map((l) => l.orderItemId);
  const names = new Map(
    (ids.length ? await tx.select({ id: orderItems.id, name: orderItems.name }).from(orderItems).where(inArray(orderItems.id, ids)) : []).map((i) => [i.id, i.name]),
  );
  const [session] = order.paymentSessionId
    ? await tx.select({ cardLast4: testPaymentSessions.cardLast4 }).from(testPaymentSessions).where(eq(testPaymentSessions.id, order.paymentSessionId))
    : [];
  const linesCents = movement.lines.reduce((s, l) => s + l.amountCents, 0);
  await queueOrderMail(
    tx,
    order,
    refundIssuedMail(order, {
      orderNumber: order.orderNumber,
      firstName: order.firstName,
      amountCents: movement.amountCents,
      lines: movement.lines.map((l) => ({ name: names.get(l.orderItemId) ?? "Item", quantity: l.quantity, amountCents: l.amountCents })),
      shippingCents: movement.shippingCents,
      // A cancel's rest of the payment that is not lines or shipping reads as an additional amount too.
      adjustmentCents: movement.adjustmentCents || Math.max(0, movement.amountCents - linesCents - movement.shippingCents),
      cardLast4: session?.cardLast4 ?? null,
    }),
    REFUND_ISSUED_MAIL,
  );
}
