import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import { Logger, run, runOnce, type Runner, type Task } from "graphile-worker";
import pg from "pg";
import type { Database, Db } from "../db/client.server";
import { getRootLogger } from "../logger.server";

/**
 * The shop's job queue: graphile-worker on the shop's own PostgreSQL (docs/decisions/0028). A job
 * is added with `enqueue` in the caller's transaction, so it exists exactly when the decision
 * that needs it commits; every app server runs a worker that takes jobs as they commit (LISTEN),
 * retries a failed one with backoff and keeps it, with its last error, once its tries are spent.
 * Cron lines run once per cluster. Areas hand their tasks and cron lines to the boot code, which
 * starts one runner per server.
 */

/** A task's handler: the payload it was enqueued with. Throwing fails this try (it is retried). */
export type JobHandler = (payload: unknown, job: { id: string; attempts: number; maxAttempts: number }) => Promise<void>;

/** What an area gives the runner: its handlers by task name, and cron lines naming them. */
export type JobTasks = { handlers: Record<string, JobHandler>; crontab?: string[] };

export type EnqueueOptions = {
  /** While a job with this key waits, adding it again replaces it (one run, the last payload). */
  jobKey?: string;
  runAt?: Date;
  maxAttempts?: number;
};

/** Adds a job in the caller's transaction (or at once on the pool). Returns its id. */
export async function enqueue(db: Db, task: string, payload: unknown, opts: EnqueueOptions = {}): Promise<string> {
  const result = await db.execute<{ id: string }>(sql`
    select id::text from graphile_worker.add_job(
      identifier => ${task}::text,
      payload => ${JSON.stringify(payload ?? {})}::json,
      run_at => ${opts.runAt?.toISOString() ?? null}::timestamptz,
      max_attempts => ${opts.maxAttempts ?? null}::int,
      job_key => ${opts.jobKey ?? null}::text
    )`);
  return result.rows[0]!.id;
}

export type FailedJob = { id: string; task: string; payload: unknown; attempts: number; lastError: string | null; failedAt: string };

/**
 * Jobs whose tries are spent, newest first. The public view has no payload, so this reads the
 * library's own table: graphile-worker is pinned exactly, and the queue's test covers this query.
 */
export async function listFailedJobs(db: Db, limit = 50): Promise<FailedJob[]> {
  const result = await db.execute<{ id: string; task: string; payload: unknown; attempts: number; last_error: string | null; updated_at: string }>(sql`
    select j.id::text, t.identifier as task, j.payload, j.attempts, j.last_error, j.updated_at::text
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where j.attempts >= j.max_attempts and j.locked_at is null
     order by j.updated_at desc
     limit ${limit}`);
  return result.rows.map((r) => ({ id: r.id, task: r.task, payload: r.payload, attempts: r.attempts, lastError: r.last_error, failedAt: r.updated_at }));
}

/**
 * Gives a failed job its tries back and runs it now. Through the SQL function: the library's
 * rescheduleJobs() drops `attempts: 0` (0 is falsy there). False when the job runs or is gone.
 */
export async function retryFailedJob(db: Db, id: string): Promise<boolean> {
  const result = await db.execute(sql`select id from graphile_worker.reschedule_jobs(array[${id}]::bigint[], run_at := now(), attempts := 0)`);
  return result.rows.length === 1;
}

function toTaskList(handlers: Record<string, JobHandler>): Record<string, Task> {
  const taskList: Record<string, Task> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    taskList[name] = (payload, helpers) =>
      handler(payload, { id: helpers.job.id, attempts: helpers.job.attempts, maxAttempts: helpers.job.max_attempts });
  }
  return taskList;
}

/** The library's own lines, in the shop's log (debug: job failures are logged by the caller, at warn). */
function libraryLogger(log: ReturnType<typeof getRootLogger>) {
  return new Logger(() => (level, message) => {
    if (level === "error") log.error(message);
    else if (level === "warning") log.warn(message);
    else log.debug(message);
  });
}

/**
 * Runs every job that is due now, and any job those add that is due now, then returns: what a
 * worker would do after a commit, for tests and one-off scripts that run no worker. Cron lines
 * are not run. A job that fails is left for its next try, as a worker leaves it.
 */
export async function runDueJobs(db: Database, tasks: JobTasks[]): Promise<void> {
  const handlers: Record<string, JobHandler> = {};
  for (const t of tasks) Object.assign(handlers, t.handlers);
  const pgPool = new pg.Pool({ ...db.$client.options, max: 2, application_name: "linen-loft jobs once" });
  pgPool.on("error", (err) => getRootLogger().warn({ err: err.message }, "jobs: an idle connection was lost"));
  try {
    await runOnce({ pgPool, taskList: toTaskList(handlers), noHandleSignals: true, logger: libraryLogger(getRootLogger().child({ part: "jobs" })) });
  } finally {
    await pgPool.end();
  }
}

/** The class of the advisory locks that say "this worker pool's process is alive" (two-number keys never meet the one-number migration and seed locks). */
export const WORKER_LOCK_CLASS = 7_242_101;

/** How long a job must have been locked before the sweep may free it from a worker whose process is gone. */
export const DEAD_WORKER_GRACE_SECONDS = 60;

export type JobRunner = {
  /** This runner's worker pool id (what graphile writes in `locked_by`). */
  poolId: () => string | null;
  /** Frees jobs held by worker pools whose process is gone; returns their ids. */
  sweepDeadWorkers: (graceSeconds?: number) => Promise<string[]>;
  /** Stops taking jobs, waits for the running ones and writes their completion, then closes. */
  stop: () => Promise<void>;
};

/**
 * Starts this server's worker. It has a small pool of its own (its LISTEN session and job fetches
 * never wait behind requests) and one more session that holds an advisory lock named after its
 * worker pool for as long as the process lives: the library frees a crashed worker's jobs only
 * after four hours, so the `jobs:sweep-dead-workers` cron line (added here) frees the jobs of
 * any pool whose lock is free, within about a minute of a kill -9.
 */
export async function startJobRunner(
  db: Database,
  tasks: JobTasks[],
  opts: { concurrency?: number; pollIntervalMs?: number; directUrl?: string } = {},
): Promise<JobRunner> {
  const log = getRootLogger().child({ part: "jobs" });
  // LISTEN and the alive lock are a session's: past a transaction pooler, the direct URL.
  const connection: pg.PoolConfig = opts.directUrl ? { connectionString: opts.directUrl } : db.$client.options;
  const concurrency = opts.concurrency ?? 1;
  const pgPool = new pg.Pool({ ...connection, max: concurrency + 2, application_name: "linen-loft jobs" });
  pgPool.on("error", (err) => log.warn({ err: err.message }, "jobs: an idle connection was lost"));
  pgPool.on("connect", (client) => client.on("error", (err) => log.warn({ err: err.message }, "jobs: a connection was lost")));

  let poolId: string | null = null;
  let stopped = false;
  let lockClient: pg.Client | null = null;
  // Holds "alive" for this pool; taken again on a new session if the database drops the old one.
  const holdAliveLock = async (): Promise<void> => {
    if (stopped || !poolId) return;
    const client = new pg.Client({ ...connection, application_name: "linen-loft jobs alive", keepAlive: true });
    client.on("error", (err) => {
      log.warn({ err: err.message }, "jobs: lost the session that says this worker is alive; taking it again");
      if (lockClient === client) lockClient = null;
      client.end().catch(() => {});
      setTimeout(() => void holdAliveLock().catch(() => {}), 1_000).unref();
    });
    try {
      await client.connect();
      await client.query("select pg_advisory_lock($1, hashtext($2))", [WORKER_LOCK_CLASS, poolId]);
      lockClient = client;
    } catch (err) {
      client.end().catch(() => {});
      if (!stopped) setTimeout(() => void holdAliveLock().catch(() => {}), 1_000).unref();
      throw err;
    }
  };

  const sweepDeadWorkers = async (graceSeconds = DEAD_WORKER_GRACE_SECONDS): Promise<string[]> => {
    const client = await pgPool.connect();
    try {
      const { rows } = await client.query<{ locked_by: string }>(
        "select distinct locked_by from graphile_worker._private_jobs where locked_by is not null and locked_at < now() - make_interval(secs => $1)",
        [graceSeconds],
      );
      const dead: string[] = [];
      for (const { locked_by } of rows) {
        if (locked_by === poolId) continue;
        const { rows: got } = await client.query<{ free: boolean }>("select pg_try_advisory_lock($1, hashtext($2)) as free", [WORKER_LOCK_CLASS, locked_by]);
        if (!got[0]?.free) continue; // its process is alive
        await client.query("select pg_advisory_unlock($1, hashtext($2))", [WORKER_LOCK_CLASS, locked_by]);
        dead.push(locked_by);
      }
      if (dead.length) {
        await client.query("select graphile_worker.force_unlock_workers($1::text[])", [dead]);
        log.warn({ workers: dead }, "jobs: freed the jobs of workers whose process is gone");
      }
      return dead;
    } finally {
      client.release();
    }
  };

  const handlers: Record<string, JobHandler> = { "jobs:sweep-dead-workers": async () => void (await sweepDeadWorkers()) };
  const crontab = ["* * * * * jobs:sweep-dead-workers ?max=1"];
  for (const t of tasks) {
    for (const [name, handler] of Object.entries(t.handlers)) {
      if (handlers[name]) throw new Error(`Two job handlers are named "${name}".`);
      handlers[name] = handler;
    }
    crontab.push(...(t.crontab ?? []));
  }
  const taskList = toTaskList(handlers);

  const events = new EventEmitter() as NonNullable<Parameters<typeof run>[0]["events"]>;
  events.on("pool:create", ({ workerPool }) => {
    poolId = workerPool.id;
    void holdAliveLock().catch((err: Error) => log.warn({ err: err.message }, "jobs: could not take the alive lock yet"));
  });
  // A periodic task that fails once (a database blip) runs again at its next tick: when that run
  // goes through, the earlier failures of the task are done with, and leave the owner's list.
  const periodic = new Set(crontab.map((line) => line.trim().split(/\s+/)[5]));
  events.on("job:success", ({ job }) => {
    log.debug({ jobId: job.id, task: job.task_identifier }, "job done");
    if (!periodic.has(job.task_identifier)) return;
    pgPool
      .query(
        `delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
          where t.id = j.task_id and t.identifier = $1 and j.attempts >= j.max_attempts and j.locked_at is null`,
        [job.task_identifier],
      )
      .catch((err: Error) => log.warn({ err: err.message, task: job.task_identifier }, "jobs: could not clear a periodic task's earlier failures"));
  });
  events.on("job:error", ({ job, error }) =>
    log.warn({ jobId: job.id, task: job.task_identifier, attempt: job.attempts, err: String((error as Error)?.message ?? error) }, "job failed; it will be tried again"),
  );
  events.on("job:failed", ({ job, error }) =>
    log.error({ jobId: job.id, task: job.task_identifier, attempts: job.attempts, err: String((error as Error)?.message ?? error) }, "job failed for good"),
  );

  const runner: Runner = await run({
    pgPool,
    concurrency,
    pollInterval: opts.pollIntervalMs ?? 2_000,
    noHandleSignals: true,
    taskList,
    crontab: crontab.join("\n"),
    events,
    logger: libraryLogger(log),
    // Without these, a job that ends during stop() is never marked done and stays locked for 4 h.
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  });

  return {
    poolId: () => poolId,
    sweepDeadWorkers,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await runner.stop();
      await lockClient?.end().catch(() => {});
      await pgPool.end().catch(() => {});
    },
  };
}
