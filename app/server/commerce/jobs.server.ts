import { type Database, enqueue, type JobTasks } from "../platform/index.server";
import { sendCheckoutReminders } from "./reminders/checkout-reminders.server";
import { doPaidFollowUps, ORDER_PAID_TASK } from "./settlement/follow-ups.server";
import { settleLostPayments } from "./settlement/lost-payments.server";
import { PROVIDER_CALL_TASK } from "./settlement/provider-calls.server";
import type { Providers } from "./settlement/providers.server";
import { closeAbandonedCheckouts, sweepHere } from "./settlement/sweeper.server";
import { runCallJob, runDueProviderCalls } from "./settlement/worker.server";

const PROVIDER_CALLS_SWEEP = "settlement:provider-calls";
const LOST_PAYMENTS = "settlement:lost-payments";

const idOf = (payload: unknown, key: string) => {
  const value = (payload as Record<string, unknown> | null)?.[key];
  return typeof value === "string" ? value : null;
};

/**
 * Commerce's work on the job queue (docs/decisions/0028).
 * Jobs added in a deciding transaction, done after its commit:
 * - `commerce:order-paid`: a paid order's address kept and its lines out of the saved cart;
 * - `settlement:provider-call`: one recorded refund or page closing (retried as its row says).
 * Cron lines, once per cluster, on whichever app server's worker takes them:
 * - every minute, recorded provider calls that are due and have no job running (a server killed
 *   mid-call), and at each start;
 * - every 5 minutes, payments taken at a provider whose confirmation never arrived, and at each start;
 * - every 10 minutes, checkouts whose payment page was left are closed (their stock and codes
 *   given back); a run that stops at its time budget goes on at the next;
 * - every 10 minutes, the abandoned-checkout reminders that are due are mailed (off by default,
 *   when a run only reads the setting): a reminder goes out at most this late.
 * `providers` is for tests and fault drills; the shop uses the providers its environment configures.
 */
export function commerceJobs(db: Database, opts: { providers?: Providers } = {}): JobTasks {
  return {
    handlers: {
      [ORDER_PAID_TASK]: async (payload) => {
        const orderId = idOf(payload, "orderId");
        if (orderId) await doPaidFollowUps(db, orderId);
      },
      [PROVIDER_CALL_TASK]: async (payload) => {
        const taskId = idOf(payload, "taskId");
        if (taskId) await runCallJob(db, taskId, opts);
      },
      [PROVIDER_CALLS_SWEEP]: async () => void (await runDueProviderCalls(db, opts)),
      [LOST_PAYMENTS]: async () => void (await settleLostPayments(db, opts)),
      "commerce:close-abandoned-checkouts": async () => void (await closeAbandonedCheckouts(db, new Date(), sweepHere, opts)),
      "commerce:send-checkout-reminders": async () => void (await sendCheckoutReminders(db)),
    },
    // ?max=1: a failed run is not retried; the next tick runs it anyway.
    crontab: [
      `* * * * * ${PROVIDER_CALLS_SWEEP} ?max=1`,
      `*/5 * * * * ${LOST_PAYMENTS} ?max=1`,
      "*/10 * * * * commerce:close-abandoned-checkouts ?max=1",
      "*/10 * * * * commerce:send-checkout-reminders ?max=1",
    ],
  };
}

/**
 * At a server's start: the provider calls and lost payments are looked at now rather than at the
 * next tick, so a server restarted after a crash settles what the crash left within seconds. Two
 * servers starting together add one job each (the key keeps one waiting).
 */
export async function queueCommerceStartJobs(db: Database): Promise<void> {
  await enqueue(db, PROVIDER_CALLS_SWEEP, {}, { jobKey: `${PROVIDER_CALLS_SWEEP}:start`, maxAttempts: 1 });
  await enqueue(db, LOST_PAYMENTS, {}, { jobKey: `${LOST_PAYMENTS}:start`, maxAttempts: 1 });
}
