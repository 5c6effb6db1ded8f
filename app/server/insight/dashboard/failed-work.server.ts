import type { FailedJobRow } from "~/lib/failed-jobs-view";
import { countFailedJobs, countFailedMails, type Db, listFailedJobRows } from "../../platform/index.server";

/**
 * What failed behind the owner's back and waits for them: mails the relay refused (the Outbox's
 * badge) and background jobs whose tries are spent (the Background jobs page and its badge). The
 * dashboard's 'Needs attention' counts the same things (attention.server.ts); the queue and the
 * outbox themselves are platform's, never reached by routes.
 */

/** The admin sidebar's badges: failed mails not delivered yet, and failed jobs waiting for 'Try again'. */
export async function failedWorkCounts(db: Db): Promise<{ failedMails: number; failedJobs: number }> {
  const [failedMails, failedJobs] = await Promise.all([countFailedMails(db), countFailedJobs(db)]);
  return { failedMails, failedJobs };
}

/** The Background jobs page: the newest `shown` failed jobs, and how many there are in all. */
export async function failedJobsPage(db: Db, shown: number): Promise<{ jobs: FailedJobRow[]; total: number }> {
  const [jobs, total] = await Promise.all([listFailedJobRows(db, shown), countFailedJobs(db)]);
  return { jobs, total };
}

// 'Try again' on one failed job, and its refusal (not found, or a conflict), as the queue words them.
export { FailedJobError, tryFailedJobAgain } from "../../platform/index.server";
