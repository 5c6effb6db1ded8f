import { and, asc, eq, lte, sql } from "drizzle-orm";
import { type Db, logger, orders, paymentTasks } from "../../platform/index.server";
import { confirmPayment } from "./confirm.server";
import { runProviderCall, scheduleCallJob } from "./provider-calls.server";
import type { Providers } from "./providers.server";

/**
 * One recorded call's job: makes the call unless it is done. A call that failed is tried again
 * when its row says (30 s doubling, at most an hour: what 'Needs attention' shows); one another
 * server is making right now is looked at again shortly. A call that throws here (the database
 * went away) is retried by the queue.
 */
export async function runCallJob(db: Db, taskId: string, opts: { providers?: Providers } = {}): Promise<void> {
  const outcome = await runProviderCall(db, taskId, { providers: opts.providers, flagOnce: true, skipBusy: true });
  if (outcome === "missing" || outcome === "awaiting_owner") return;
  const [task] = await db
    .select({ kind: paymentTasks.kind, state: paymentTasks.state, nextAttemptAt: paymentTasks.nextAttemptAt, sessionId: orders.paymentSessionId })
    .from(paymentTasks)
    .innerJoin(orders, eq(orders.id, paymentTasks.orderId))
    .where(eq(paymentTasks.id, taskId));
  if (!task) return;
  if (outcome === "done") {
    // A payment page closed at the provider may have been paid just before: settle that payment.
    if (task.kind === "expire_session" && task.sessionId) await confirmPayment(db, task.sessionId, { providers: opts.providers });
    return;
  }
  if (task.state === "done") return;
  await scheduleCallJob(db, taskId, outcome === "busy" ? new Date(Date.now() + 30_000) : task.nextAttemptAt);
}

/**
 * Every recorded provider call whose time has come, oldest first: what a job cannot have covered
 * (a call recorded before the queue, a server killed mid-call whose job is still held). Runs at
 * each start and every minute. Returns how many were done.
 */
export async function runDueProviderCalls(db: Db, opts: { providers?: Providers; limit?: number } = {}): Promise<number> {
  const due = await db
    .select({ id: paymentTasks.id, kind: paymentTasks.kind, orderId: orders.id, orderNumber: orders.orderNumber, sessionId: orders.paymentSessionId })
    .from(paymentTasks)
    .innerJoin(orders, eq(orders.id, paymentTasks.orderId))
    .where(and(eq(paymentTasks.state, "pending"), lte(paymentTasks.nextAttemptAt, sql`now()`)))
    .orderBy(asc(paymentTasks.nextAttemptAt))
    .limit(opts.limit ?? 50);
  let done = 0;
  for (const task of due) {
    try {
      if ((await runProviderCall(db, task.id, { providers: opts.providers, flagOnce: true, skipBusy: true })) !== "done") continue;
      done++;
      if (task.kind === "expire_session" && task.sessionId) await confirmPayment(db, task.sessionId, { providers: opts.providers });
    } catch (err) {
      logger.warn({ err: (err as Error).message, task: task.id, orderId: task.orderId, orderNumber: task.orderNumber }, "could not run a payment provider call");
    }
  }
  return done;
}
