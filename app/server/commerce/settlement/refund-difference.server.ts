import { and, eq, sql } from "drizzle-orm";
import { formatMoney } from "~/lib/money";
import { type Db, logger, orders, paymentTasks } from "../../platform/index.server";
import { addOrderEvent } from "../orders/events.server";
import type { RemoteSession } from "../payments/provider.server";
import { type Actor, type CallOutcome, providerCallKey, runProviderCall, scheduleCallJob } from "./provider-calls.server";
import type { Providers } from "./providers.server";
import { recordCharge, recordPendingRefund } from "./ledger.server";
import { takePayment } from "./take-payment.server";

/**
 * A payment whose session is the order's but whose amount (or currency) is not the order's total
 * (docs/money-path.md, "A paid amount that differs"). The checkout asks the provider for exactly the
 * total, so this should not happen; when it does, the money must not sit unseen. Paid more, in
 * the order's currency: the order is taken as usual and the difference is to be given back. Paid
 * less, or in another currency: the order is not taken and the whole payment is to be given
 * back. Either way the refund is recorded for the owner to confirm on the order page (a shop
 * that got too little may rather ask for the rest), and the order shows in 'Needs attention'.
 */
export async function settleDifferentAmount(db: Db, orderId: string, remote: RemoteSession, providerName: string): Promise<"paid" | "not_taken"> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order || order.paymentStatus !== "unpaid") return order?.paymentStatus === "paid" ? "paid" : "not_taken";
    const [recorded] = await tx.select({ id: paymentTasks.id }).from(paymentTasks).where(eq(paymentTasks.idempotencyKey, providerCallKey("refund_difference", order.id)));
    // A webhook, a reload and the lost-payment sweep may all come back here: the first records it.
    if (recorded) return "not_taken";

    const paid = remote.amountTotalCents;
    const sameCurrency = (remote.currency ?? order.currency) === order.currency;
    const overpaid = paid !== null && sameCurrency && paid > order.totalAmountCents;
    const paidText = paid === null ? "an unknown amount" : sameCurrency ? formatMoney(paid) : `${(paid / 100).toFixed(2)} ${remote.currency!.toUpperCase()}`;
    const dueText = formatMoney(order.totalAmountCents);
    let refundCents: number | null;
    let note: string;
    if (overpaid) {
      const taken = await takePayment(tx, order.id, remote, providerName);
      // Sold out: the whole payment is refunded already (take-payment records it), nothing more to give.
      if (taken !== "paid") return "paid";
      refundCents = paid - order.totalAmountCents;
      // takePayment charged the total; the rest came in too, and is what the refund gives back.
      await recordCharge(tx, order, refundCents, remote.paymentReference ?? remote.id, "Paid more than the order's total");
      note = `Paid ${paidText} for a total of ${dueText}: confirm the refund of the ${formatMoney(refundCents)} difference.`;
    } else {
      refundCents = paid !== null && sameCurrency ? paid : null;
      // Not taken, but the money came in: on the ledger, so its refund has something to give back.
      if (refundCents !== null) await recordCharge(tx, order, refundCents, remote.paymentReference ?? remote.id, "Payment received (did not match the order)");
      note = `Paid ${paidText} for a total of ${dueText}: the order was not taken. Confirm the refund of the whole payment, or ask the customer for the rest.`;
    }
    await tx.insert(paymentTasks).values({
      orderId: order.id,
      kind: "refund_difference",
      idempotencyKey: providerCallKey("refund_difference", order.id),
      state: "awaiting_owner",
      amountCents: refundCents,
      note: refundCents === null ? "Payment refunded in full: it did not match the order." : `Refunded ${formatMoney(refundCents)}: ${overpaid ? "paid more than the order's total" : "the payment did not match the order"}.`,
    });
    await addOrderEvent(tx, { orderId: order.id, kind: "attention", note, actorLabel: providerName });
    logger.error({ orderId: order.id, orderNumber: order.orderNumber, paid, due: order.totalAmountCents, currency: remote.currency }, "payment amount does not match the order; refund recorded for the owner");
    return overpaid ? "paid" : "not_taken";
  });
}

/** A refund waiting for the owner on this order, if any. */
export async function refundToConfirm(db: Db, orderId: string): Promise<{ amountCents: number | null } | null> {
  const [task] = await db
    .select({ amountCents: paymentTasks.amountCents })
    .from(paymentTasks)
    .where(and(eq(paymentTasks.orderId, orderId), eq(paymentTasks.state, "awaiting_owner")));
  return task ?? null;
}

/**
 * The owner confirms the refund: it becomes a recorded provider call like any other (its job on
 * the queue as the guarantee) and is made at once. `missing`: there was none waiting.
 */
export async function confirmRefundDifference(db: Db, orderId: string, actor: Actor, opts: { providers?: Providers } = {}): Promise<CallOutcome> {
  const taskId = await db.transaction(async (tx) => {
    const [task] = await tx
      .update(paymentTasks)
      .set({ state: "pending", nextAttemptAt: sql`now()`, actorUserId: actor.actorUserId ?? null, actorLabel: actor.actorLabel ?? "admin" })
      .where(and(eq(paymentTasks.orderId, orderId), eq(paymentTasks.kind, "refund_difference"), eq(paymentTasks.state, "awaiting_owner")))
      .returning({ id: paymentTasks.id, amountCents: paymentTasks.amountCents, note: paymentTasks.note });
    if (!task) return null;
    await scheduleCallJob(tx, task.id);
    // The owner's confirmation decides the refund: on the ledger from now, pending until the provider answers.
    await recordPendingRefund(tx, { orderId, paymentTaskId: task.id, amountCents: task.amountCents, reason: task.note, actor: { actorUserId: actor.actorUserId ?? null, actorLabel: actor.actorLabel ?? "admin" } });
    return task.id;
  });
  if (!taskId) return "missing";
  return runProviderCall(db, taskId, { providers: opts.providers, actor });
}
