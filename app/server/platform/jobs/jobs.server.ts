import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { jobs } from "../db/schema";
import { DomainError } from "../refusal.server";
import type { JobKind, JobView } from "~/lib/jobs-view";
import { isUuid } from "~/lib/uuid";

/**
 * Long work (CSV imports, image migrations) runs on the server as a job row: progress and the
 * result live in the database, so a closed page, a reload or another app server sees them.
 * The unique index jobs_one_running_per_kind allows one unfinished job of each kind.
 */
export type JobRow = typeof jobs.$inferSelect;

/** A running job that has not reported for this long died with its server. */
export const STALE_AFTER_MS = 2 * 60 * 1000;
export const STALE_MESSAGE = "The job stopped unexpectedly (the server restarted); start it again";

/** Another job of the same kind is still unfinished (a conflict); the message says which. */
export class JobConflictError extends DomainError<"conflict"> {
  override name = "JobConflictError";

  constructor(message: string) {
    super(message, "conflict");
  }
}

/** The browser's view of a job (app/lib/jobs-view.ts). */
export function toJobView(row: JobRow): JobView {
  const percent =
    row.status === "done" ? 100 : row.total > 0 ? Math.min(100, Math.round((row.processed / row.total) * 100)) : 0;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    percent,
    total: row.total,
    processed: row.processed,
    succeeded: row.succeeded,
    failed: row.failed,
    errors: (row.errors as string[]) ?? [],
    // The upload's path on the server is nobody's business in the browser.
    detail: Object.fromEntries(Object.entries((row.detail as Record<string, unknown>) ?? {}).filter(([k]) => k !== "file")),
    result: (row.result as Record<string, unknown> | null) ?? null,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === "23505" || e.cause?.code === "23505";
};

/** Marks running jobs of this kind that stopped reporting as failed, so a new one can start. */
export async function reapStaleJobs(db: Db, kind: JobKind, now = new Date()) {
  await db
    .update(jobs)
    .set({ status: "failed", result: { message: STALE_MESSAGE }, finishedAt: now, updatedAt: now })
    .where(and(eq(jobs.kind, kind), eq(jobs.status, "running"), lt(jobs.updatedAt, new Date(now.getTime() - STALE_AFTER_MS))));
}

export async function createJob(
  db: Db,
  kind: JobKind,
  values: { status?: "pending" | "running"; detail?: Record<string, unknown>; total?: number; createdBy?: string | null },
  conflictMessage: string,
): Promise<JobRow> {
  try {
    const [row] = await db
      .insert(jobs)
      .values({ kind, status: values.status ?? "pending", detail: values.detail ?? {}, total: values.total ?? 0, createdBy: values.createdBy ?? null })
      .returning();
    return row!;
  } catch (err) {
    if (isUniqueViolation(err)) throw new JobConflictError(conflictMessage);
    throw err;
  }
}

export async function getJob(db: Db, id: string): Promise<JobRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

/** The newest job of a kind: what the admin sees on returning to the page. */
export async function latestJob(db: Db, kind: JobKind): Promise<JobRow | undefined> {
  await reapStaleJobs(db, kind);
  const [row] = await db.select().from(jobs).where(eq(jobs.kind, kind)).orderBy(desc(jobs.createdAt)).limit(1);
  return row;
}

export async function unfinishedJob(db: Db, kind: JobKind): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(and(eq(jobs.kind, kind), inArray(jobs.status, ["pending", "running"])));
  return row;
}

export async function updateJob(db: Db, id: string, values: Partial<Pick<JobRow, "status" | "detail" | "total" | "processed" | "succeeded" | "failed" | "errors" | "result" | "finishedAt">>) {
  await db.update(jobs).set({ ...values, updatedAt: new Date() }).where(eq(jobs.id, id));
}

/** Moves a job from one status to another only if it is still in the first: false when it was not. */
export async function transitionJob(db: Db, id: string, from: JobRow["status"], values: Parameters<typeof updateJob>[2]) {
  const rows = await db
    .update(jobs)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(jobs.id, id), eq(jobs.status, from)))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

export async function deleteJob(db: Db, id: string) {
  await db.delete(jobs).where(eq(jobs.id, id));
}

/** Keeps updated_at fresh while a job works on something slow, so it is not taken for dead. */
export function heartbeat(db: Db, id: string, everyMs = 15_000) {
  const timer = setInterval(() => {
    db.update(jobs)
      .set({ updatedAt: sql`now()` })
      .where(and(eq(jobs.id, id), eq(jobs.status, "running")))
      .catch(() => {});
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
