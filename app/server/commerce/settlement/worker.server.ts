import { and, asc, eq, lte, sql } from "drizzle-orm";
import { type Database, type Db, logger, orders, paymentTasks, startPeriodicTask } from "../../platform/index.server";
import { confirmPayment } from "./confirm.server";
import { runProviderCall } from "./provider-calls.server";
import type { Providers } from "./providers.server";
import { settleLostPayments } from "./lost-payments.server";

/**
 * Every recorded provider call whose time has come, oldest first (a crash between a decision and
 * its call, or a provider that was down). Returns how many were done.
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
      // A payment page closed at the provider may have been paid just before: settle that payment.
      if (task.kind === "expire_session" && task.sessionId) await confirmPayment(db, task.sessionId, { providers: opts.providers });
    } catch (err) {
      logger.warn({ err: (err as Error).message, task: task.id, orderId: task.orderId, orderNumber: task.orderNumber }, "could not run a payment provider call");
    }
  }
  return done;
}

/**
 * Settlement's background work in a running shop, each run by one app server of the cluster at a
 * time (jobs/cluster-task.server.ts): recorded provider calls (at start, then every 30 s),
 * and payments whose confirmation was lost (at start, then every 5 minutes). Returns a function
 * that stops them. The abandoned-checkout sweep is a job queue cron line (jobs.server.ts).
 */
export function startSettlementWorkers(db: Database, { callsEveryMs = 30_000, lostPaymentsEveryMs = 5 * 60_000 } = {}) {
  const stops = [
    startPeriodicTask(db, { name: "settlement:provider-calls", everyMs: callsEveryMs, atStart: true }, () => runDueProviderCalls(db)),
    startPeriodicTask(db, { name: "settlement:lost-payments", everyMs: lostPaymentsEveryMs, atStart: true }, () => settleLostPayments(db)),
  ];
  return () => stops.forEach((stop) => stop());
}
