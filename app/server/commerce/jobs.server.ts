import type { Database, JobTasks } from "../platform/index.server";
import { sendCheckoutReminders } from "./reminders/checkout-reminders.server";
import { closeAbandonedCheckouts, sweepHere } from "./settlement/sweeper.server";

/**
 * Commerce's work on the job queue (docs/decisions/0028): cron lines run once per cluster, on
 * whichever app server's worker takes them.
 * - Every 10 minutes, checkouts whose payment page was left are closed (their stock and codes
 *   given back), and a run that stops at its time budget goes on at the next.
 * - Every 10 minutes, the abandoned-checkout reminders that are due are mailed (off by default,
 *   when a run only reads the setting): a reminder goes out at most this late.
 */
export function commerceJobs(db: Database): JobTasks {
  return {
    handlers: {
      "commerce:close-abandoned-checkouts": async () => void (await closeAbandonedCheckouts(db, new Date(), sweepHere)),
      "commerce:send-checkout-reminders": async () => void (await sendCheckoutReminders(db)),
    },
    // ?max=1: a failed run is not retried; the next tick runs it anyway.
    crontab: ["*/10 * * * * commerce:close-abandoned-checkouts ?max=1", "*/10 * * * * commerce:send-checkout-reminders ?max=1"],
  };
}
