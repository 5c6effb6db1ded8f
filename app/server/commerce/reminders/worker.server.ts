import { type Database, startPeriodicTask } from "../../platform/index.server";
import { sendCheckoutReminders } from "./checkout-reminders.server";

/** How often the reminder task looks for checkouts due: a reminder goes out at most this late. */
export const REMINDER_EVERY_MS = 10 * 60_000;

/**
 * The abandoned-checkout reminder's periodic task: every 10 minutes, on one app server of the
 * cluster at a time (docs/decisions/0017). Off by default, when a run only reads the setting.
 * Returns a function that stops it.
 */
export function startCheckoutReminders(db: Database, { everyMs = REMINDER_EVERY_MS } = {}) {
  return startPeriodicTask(db, { name: "mail:checkout-reminders", everyMs }, async () => {
    const run = await sendCheckoutReminders(db);
    return run.reminded;
  });
}
