/**
 * What the browser sees of a background job (a CSV import, an image migration): its progress and
 * result, read from /admin/products/jobs/:id and its event stream. Plain types, safe to import
 * anywhere; app/server/platform/jobs/jobs.server.ts builds the value (toJobView) and is annotated with it.
 */

export type JobKind = "import" | "image-migration";
export type JobStatus = "pending" | "running" | "done" | "failed";

/** A job as the browser sees it: progress as the rounded percent of rows (or images) processed. */
export type JobView = {
  id: string;
  kind: JobKind;
  status: JobStatus;
  percent: number;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  errors: string[];
  /** What the job's domain keeps while it works (an import's dry run: app/lib/import-view.ts); never the upload's path. */
  detail: Record<string, unknown>;
  /** The finished job's outcome, or `{ message }` when it failed; null while it runs. */
  result: Record<string, unknown> | null;
  createdAt: string;
  finishedAt: string | null;
};
