import { eq, sql } from "drizzle-orm";
import { formatMoney } from "~/lib/money";
import { type Db, orders, paymentTasks } from "../../platform/index.server";
import { addOrderEvent } from "../orders/events.server";

type Task = typeof paymentTasks.$inferSelect;

/**
 * In the transaction that marks a refund's ledger row succeeded (provider-calls.server.ts
 * `runProviderCall`, for a call made per ledger row): the timeline says it was refunded and the
 * order's version moves on. The shopper hears of a refund only here, once it went through.
 */
export async function recordRefundSucceeded(tx: Db, task: Task): Promise<void> {
  await tx.update(orders).set({ version: sql`${orders.version} + 1`, updatedAt: new Date() }).where(eq(orders.id, task.orderId));
  await addOrderEvent(tx, {
    orderId: task.orderId,
    kind: "refund",
    note: `Refunded ${formatMoney(task.amountCents ?? 0)}.`,
    actorUserId: task.actorUserId,
    actorLabel: task.actorLabel,
  });
}
