import { sql } from "drizzle-orm";
import { firstErrorLine, jobTaskName, type FailedJobRow } from "~/lib/failed-jobs-view";
import type { Db } from "../db/client.server";
import { DomainError } from "../refusal.server";
import { listFailedJobs } from "./queue.server";

/**
 * The owner's view of the job queue's failures (the admin's Background jobs page, its sidebar
 * badge and the dashboard's 'Needs attention'): jobs whose tries are spent, as `listFailedJobs`
 * defines them (tries used up, not running), and 'Try again' for one of them.
 */

/** Why 'Try again' could not be done, in the owner's words (not found, or a conflict). */
export class FailedJobError extends DomainError<"not_found" | "conflict"> {}

/** How many jobs have failed for good, as the list counts them. */
export async function countFailedJobs(db: Db): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from graphile_worker._private_jobs where attempts >= max_attempts and locked_at is null`);
  return result.rows[0]?.n ?? 0;
}

/** The newest failed jobs as the page shows them: a plain name, when, tries used and the error's first line. */
export async function listFailedJobRows(db: Db, limit = 50): Promise<FailedJobRow[]> {
  const jobs = await listFailedJobs(db, limit);
  return jobs.map((j) => ({
    id: j.id,
    task: j.task,
    name: jobTaskName(j.task),
    attempts: j.attempts,
    failedAt: new Date(j.failedAt).toISOString(),
    error: firstErrorLine(j.lastError),
  }));
}

const GONE = "This job is no longer in the list: it has run since, or it was removed.";

/**
 * Gives one failed job its tries back and runs it now; answers its task. Only a job whose tries
 * are spent and that is not running is touched (through the library's SQL function, as
 * `retryFailedJob` does); anything else is refused with the reason: gone (or never a job), running
 * now, or already waiting for its next try (retried meanwhile, from another tab).
 */
export async function tryFailedJobAgain(db: Db, id: string): Promise<{ id: string; task: string }> {
  if (!/^[1-9][0-9]{0,17}$/.test(id)) throw new FailedJobError(GONE, "not_found");
  const retried = await db.execute<{ id: string; task: string }>(sql`
    select r.id::text, t.identifier as task
      from graphile_worker.reschedule_jobs(
             array(select id from graphile_worker._private_jobs where id = ${id}::bigint and attempts >= max_attempts and locked_at is null),
             run_at := now(), attempts := 0) r
      join graphile_worker._private_tasks t on t.id = r.task_id`);
  if (retried.rows[0]) return retried.rows[0];
  const now = await db.execute<{ running: boolean; failed: boolean }>(sql`
    select locked_at is not null as running, attempts >= max_attempts as failed from graphile_worker._private_jobs where id = ${id}::bigint`);
  const job = now.rows[0];
  if (!job) throw new FailedJobError(GONE, "not_found");
  if (job.running) throw new FailedJobError("This job is running now: wait for it to finish, then reload the page.", "conflict");
  if (!job.failed) throw new FailedJobError("This job is already waiting to run again.", "conflict");
  throw new FailedJobError("This job could not be tried again just now. Reload the page and try once more.", "conflict");
}
