/** The admin's Background jobs page (failed jobs of the queue) as it shows them: browser-safe shapes and words. */

/** A job whose tries are spent, as the page lists it. `failedAt` is ISO 8601. */
export type FailedJobRow = {
  id: string;
  /** The queue's task identifier (`mail:deliver`), for whoever looks into it. */
  task: string;
  /** What the task does, in plain words; the identifier itself when the shop does not know it. */
  name: string;
  attempts: number;
  failedAt: string;
  /** The first line of the last error, shortened; never a stack trace. */
  error: string | null;
};

/**
 * What each task of the shop does, in the owner's words. The identifiers are the handlers' names
 * the areas give the job runner (shopJobs in app/server/boot.server.ts) and the runner's own sweep.
 */
export const JOB_TASK_NAMES: Readonly<Record<string, string>> = {
  "mail:deliver": "Send a mail",
  "commerce:order-paid": "Finish a paid order (save the address, clear the saved cart)",
  "settlement:provider-call": "Refund or close a payment at the payment provider",
  "settlement:provider-calls": "Retry payment-provider calls that are due",
  "settlement:lost-payments": "Look for payments that were never confirmed",
  "commerce:close-abandoned-checkouts": "Close abandoned checkouts",
  "commerce:send-checkout-reminders": "Send abandoned-checkout reminders",
  "storefront:prune-change-log": "Clean up the page cache's change log",
  "jobs:sweep-dead-workers": "Free the jobs of stopped servers",
  "cdn:purge": "Purge changed pages from the CDN",
};

/** A task's plain-language name, or its identifier as it is when the shop does not know it. */
export function jobTaskName(task: string): string {
  return Object.hasOwn(JOB_TASK_NAMES, task) ? JOB_TASK_NAMES[task]! : task;
}

/** Longest error text shown in the list. */
export const JOB_ERROR_MAX = 200;

/** The first non-empty line of an error, shortened to `max` characters: no stack trace reaches the page. */
export function firstErrorLine(error: string | null | undefined, max = JOB_ERROR_MAX): string | null {
  const line = (error ?? "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find(Boolean);
  if (!line) return null;
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** What 'Try again' answers: shown as a toast and as text. */
export type TryAgainAnswer = { ok: boolean; message: string };
