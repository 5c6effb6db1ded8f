import { createHash } from "node:crypto";
import pg from "pg";
import type { Database } from "../db/client.server";
import { getRootLogger } from "../logger.server";

/**
 * Periodic background tasks run once across all app servers on one database, not once per
 * server (docs/decisions/0017). Each task has a PostgreSQL advisory lock, taken with
 * `pg_try_advisory_lock` on a connection of its own that this process keeps open beside the
 * pool. The server that holds a task's lock runs it on its schedule; every other server's turn
 * finds the lock taken and skips. The lock is kept between runs, so two servers whose timers
 * tick at different moments still do not both run it in one period. It goes with its
 * connection: a server that stops, crashes or loses its database connection mid-run releases
 * its tasks, and the next server whose turn comes takes them over.
 */

/** The class number of these locks (`pg_try_advisory_lock(class, task)`); the migration and seed locks use one-number keys, which never meet two-number ones. */
export const TASK_LOCK_CLASS = 7_242_100;

/** The task's number within the class: stable for a name, on every server. */
export const taskLockKey = (name: string) => createHash("sha256").update(name).digest().readInt32BE(0);

export type TaskRun<T> = { ran: true; value: T } | { ran: false; reason: "running here" | "another server" | "stopped" };

type Holder = {
  /** The session that holds this process's task locks, once opened. */
  client: pg.Client | null;
  connecting: Promise<pg.Client> | null;
  owned: Set<string>;
  running: Set<string>;
  stopped: boolean;
  /** The lock session's last query: the next waits for it (see `serially`). */
  last: Promise<unknown>;
};

// Per pool (one per process in the shop; tests make several "servers" in one process). On
// globalThis so the dev server's reloaded modules share the locks opened at boot.
const g = globalThis as unknown as { __shopClusterTasks?: WeakMap<pg.Pool, Holder> };
const holders = (g.__shopClusterTasks ??= new WeakMap<pg.Pool, Holder>());

function holderFor(db: Database): Holder {
  let h = holders.get(db.$client);
  if (!h) {
    h = { client: null, connecting: null, owned: new Set(), running: new Set(), stopped: false, last: Promise.resolve() };
    holders.set(db.$client, h);
  }
  return h;
}

/** Forgets a lost session: its locks went with it on the server's side. */
function forget(h: Holder, client: pg.Client) {
  if (h.client !== client) return;
  h.client = null;
  h.owned.clear();
  client.end().catch(() => {});
}

/**
 * The lock session: a plain connection with the pool's settings, outside the pool, so a task's
 * own queries never wait for the connection that holds its lock (a pool of 1 would deadlock).
 */
async function lockSession(h: Holder, db: Database): Promise<pg.Client> {
  if (h.client) return h.client;
  h.connecting ??= (async () => {
    const client = new pg.Client({ ...db.$client.options, application_name: "linen-loft periodic tasks", keepAlive: true });
    client.on("error", (err) => {
      getRootLogger().warn({ err: err.message }, "lost the connection that holds this server's periodic tasks; another server takes them over");
      forget(h, client);
    });
    client.on("end", () => forget(h, client));
    await client.connect();
    // A server that vanishes without closing its connection (power, network) is noticed by
    // PostgreSQL within about two minutes instead of the system's two hours, and its locks freed.
    await client
      .query(
        "select set_config('tcp_keepalives_idle', '60', false), set_config('tcp_keepalives_interval', '10', false), set_config('tcp_keepalives_count', '6', false)",
      )
      .catch(() => {});
    return client;
  })();
  try {
    const client = await h.connecting;
    if (h.stopped) {
      await client.end().catch(() => {});
      throw new Error("periodic tasks are stopped");
    }
    h.client = client;
    return client;
  } finally {
    h.connecting = null;
  }
}

/**
 * One query at a time on the lock session. Tasks that start together (every `atStart` task at
 * boot) ask at the same moment; pg queues a query sent while another runs, but warns that this
 * is deprecated and goes in pg 9.
 */
function serially<T>(h: Holder, query: () => Promise<T>): Promise<T> {
  const run = h.last.then(query, query);
  h.last = run.catch(() => {});
  return run;
}

/** Whether this process holds the task's lock now: kept from an earlier run, or taken now. */
async function own(h: Holder, db: Database, name: string): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    const client = await lockSession(h, db);
    try {
      // Still connected means still held: a session's advisory locks last as long as it does.
      if (h.owned.has(name)) {
        await serially(h, () => client.query("select 1"));
        return true;
      }
      const { rows } = await serially(h, () =>
        client.query<{ got: boolean }>("select pg_try_advisory_lock($1, $2) as got", [TASK_LOCK_CLASS, taskLockKey(name)]),
      );
      if (rows[0]?.got) h.owned.add(name);
      return rows[0]?.got === true;
    } catch (err) {
      // The session died since the last turn (a database restart): its locks are gone. Ask again
      // on a new one, once.
      forget(h, client);
      if (attempt > 0 || h.stopped) throw err;
    }
  }
}

/**
 * Runs `fn` if no other app server runs task `name`, and not while this process already runs it;
 * otherwise skips. The server that runs a task keeps its lock for later runs until it stops.
 * Throws only when the database cannot be reached (or `fn` throws).
 */
export async function runOncePerCluster<T>(db: Database, name: string, fn: () => Promise<T>): Promise<TaskRun<T>> {
  const h = holderFor(db);
  if (h.stopped) return { ran: false, reason: "stopped" };
  if (h.running.has(name)) return { ran: false, reason: "running here" };
  h.running.add(name);
  try {
    if (!(await own(h, db, name))) return { ran: false, reason: "another server" };
    return { ran: true, value: await fn() };
  } finally {
    h.running.delete(name);
  }
}

/**
 * Gives this process's tasks to the other servers (a shutdown): closing the lock session frees
 * every lock at once, and nothing runs here afterwards.
 */
export async function releaseClusterTasks(db: Database) {
  const h = holderFor(db);
  h.stopped = true;
  const client = h.client;
  h.client = null;
  h.owned.clear();
  await client?.end().catch(() => {});
}

/**
 * A periodic task of the shop: every `everyMs` (and at once when `atStart`), run `fn` on the one
 * server of the cluster that holds the task. Each run on this server is one line with the task's
 * name: `periodic task ran` (info, with what `fn` returned) or `periodic task failed` (warn). A
 * turn left to another server is a debug line `periodic task skipped`; a turn that could not
 * reach the database, a warning `periodic task not started`. Returns a function that stops the timer.
 */
export function startPeriodicTask(
  db: Database,
  task: { name: string; everyMs: number; atStart?: boolean },
  fn: () => Promise<number>,
) {
  const log = getRootLogger();
  const attempt = async (): Promise<{ done: number } | { err: string }> => {
    try {
      return { done: await fn() };
    } catch (err) {
      return { err: (err as Error).message ?? String(err) };
    }
  };
  const turn = () =>
    void runOncePerCluster(db, task.name, attempt)
      .then((r) => {
        if (!r.ran) log.debug({ task: task.name, reason: r.reason }, "periodic task skipped");
        else if ("err" in r.value) log.warn({ task: task.name, err: r.value.err }, "periodic task failed");
        else log.info({ task: task.name, done: r.value.done }, "periodic task ran");
      })
      .catch((err: Error) => log.warn({ task: task.name, err: err.message }, "periodic task not started"));
  if (task.atStart) turn();
  const timer = setInterval(turn, task.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
