import type { JobKind, JobView } from "~/lib/jobs-view";
import { type Db, getJob, latestJob, toJobView } from "../../platform/index.server";

/**
 * The progress of the catalogue's long work (a CSV import, an image migration) as the admin's
 * Products pages show it. The rows live in platform's job table; what the browser may see of one
 * (never the upload's path) is toJobView's.
 */

/** One job's progress, or null when there is no such job (an unknown or malformed id). */
export async function jobProgress(db: Db, id: string): Promise<JobView | null> {
  const job = await getJob(db, id);
  return job ? toJobView(job) : null;
}

/**
 * The newest job of a kind, running or finished: what the Import and Migrate Images tabs show on
 * returning to the page. A running job that stopped reporting is marked failed first.
 */
export async function latestJobProgress(db: Db, kind: JobKind): Promise<JobView | null> {
  const job = await latestJob(db, kind);
  return job ? toJobView(job) : null;
}
