import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "~/server/platform/db/client.server";
import { enqueue, listFailedJobs, retryFailedJob, startJobRunner, type JobRunner } from "~/server/platform/jobs/queue.server";
import { createTestDatabase, type TestDatabase } from "../setup/database";

/**
 * The job queue (docs/decisions/0028) keeps what the shop needs of it: jobs that exist only when
 * their transaction commits, retries and a kept failure, one waiting job per key, each job once
 * across servers, and a dead server's jobs freed. Each "server" is a pool and a runner of its own
 * on one test database, as each shop process has.
 */
let test: TestDatabase;
const runners: JobRunner[] = [];
const pools: Database[] = [];

beforeAll(async () => {
  test = await createTestDatabase();
});

afterAll(async () => {
  for (const r of runners) await r.stop();
  for (const db of pools) await db.$client.end();
  await test?.drop();
});

async function server(handlers: Record<string, (payload: unknown) => Promise<void>>) {
  const db = createDatabase(test.url, 3);
  pools.push(db);
  const runner = await startJobRunner(db, [{ handlers }], { pollIntervalMs: 100 });
  runners.push(runner);
  return { db, runner };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const waiting = async (task: string) =>
  (
    await test.db.execute<{ n: number }>(sql`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
       where t.identifier = ${task}`)
  ).rows[0]!.n;

describe("the job queue", () => {
  it("runs a job added in a transaction only when that transaction commits", async () => {
    const ran: string[] = [];
    await server({ "test:record": async (p) => void ran.push((p as { note: string }).note) });
    await test.db
      .transaction(async (tx) => {
        await enqueue(tx, "test:record", { note: "rolled back" });
        throw new Error("the decision failed");
      })
      .catch(() => {});
    await test.db.transaction(async (tx) => {
      await enqueue(tx, "test:record", { note: "committed" });
    });
    await until("the committed job", () => ran.includes("committed"));
    // The runner removes a job once its handler has returned, a moment after the handler ran.
    await until("the committed job to be done", async () => (await waiting("test:record")) === 0);
    expect(ran).toEqual(["committed"]);
  });

  it("retries a failing job, keeps it with its last error once its tries are spent, and runs it again on retry", async () => {
    let relayUp = false;
    const tries: number[] = [];
    await server({
      "test:deliver": async () => {
        tries.push(Date.now());
        if (!relayUp) throw new Error("relay said 451: try later");
      },
    });
    const id = await enqueue(test.db, "test:deliver", { mail: 1 }, { maxAttempts: 2 });
    await until("the failed job in the list", async () => (await listFailedJobs(test.db)).some((j) => j.id === id));
    expect(tries).toHaveLength(2);
    // The second try waited for the backoff, not at once.
    expect(tries[1]! - tries[0]!).toBeGreaterThan(1_000);
    const [failed] = (await listFailedJobs(test.db)).filter((j) => j.id === id);
    expect(failed).toMatchObject({ task: "test:deliver", payload: { mail: 1 }, attempts: 2, lastError: expect.stringContaining("relay said 451") });

    relayUp = true;
    expect(await retryFailedJob(test.db, id)).toBe(true);
    await until("the retried job to succeed", async () => (await waiting("test:deliver")) === 0);
    expect(tries).toHaveLength(3);
    expect((await listFailedJobs(test.db)).some((j) => j.id === id)).toBe(false);
    expect(await retryFailedJob(test.db, id)).toBe(false);
  });

  it("keeps one waiting job per key, with the latest payload", async () => {
    const later = new Date(Date.now() + 60 * 60_000);
    const first = await enqueue(test.db, "test:keyed", { v: 1 }, { jobKey: "order-1", runAt: later });
    const second = await enqueue(test.db, "test:keyed", { v: 2 }, { jobKey: "order-1", runAt: later });
    expect(second).toBe(first);
    const rows = await test.db.execute<{ payload: unknown }>(sql`select payload from graphile_worker._private_jobs where key = 'order-1'`);
    expect(rows.rows).toEqual([{ payload: { v: 2 } }]);
    await test.db.execute(sql`select graphile_worker.remove_job('order-1')`);
  });

  it("runs each job once when two servers take jobs", async () => {
    const runs: number[] = [];
    const record = async (p: unknown) => void runs.push((p as { n: number }).n);
    await server({ "test:once": record });
    await server({ "test:once": record });
    await test.db.transaction(async (tx) => {
      for (let n = 0; n < 40; n++) await enqueue(tx, "test:once", { n });
    });
    await until("40 runs", () => runs.length >= 40);
    await new Promise((r) => setTimeout(r, 300));
    expect(runs.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
  });

  it("frees the jobs of a server whose process is gone, and never a live server's", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ran: string[] = [];
    const live = await server({
      "test:slow": async () => {
        ran.push("slow started");
        await gate;
      },
    });
    const sweeper = await server({ "test:orphan": async () => void ran.push("orphan ran") });
    await until("both alive locks", () => Boolean(live.runner.poolId() && sweeper.runner.poolId()));

    await enqueue(test.db, "test:slow", {});
    await until("the live server's slow job", () => ran.includes("slow started"));
    // A job locked by a worker that died two minutes ago (kill -9: no unlock was written).
    const orphan = await enqueue(test.db, "test:orphan", {}, { runAt: new Date(Date.now() + 60 * 60_000) });
    await test.db.execute(sql`
      update graphile_worker._private_jobs set locked_by = 'worker-of-a-dead-process', locked_at = now() - interval '2 minutes', run_at = now()
       where id = ${orphan}::bigint`);
    await test.db.execute(sql`update graphile_worker._private_jobs set locked_at = now() - interval '2 minutes' where locked_by = ${live.runner.poolId()}`);

    expect(await sweeper.runner.sweepDeadWorkers(60)).toEqual(["worker-of-a-dead-process"]);
    await until("the orphaned job to run", () => ran.includes("orphan ran"));
    // The live server's job is still its own: held, not run a second time.
    expect(ran.filter((r) => r === "slow started")).toHaveLength(1);
    const held = await test.db.execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker._private_jobs where locked_by = ${live.runner.poolId()}`);
    expect(held.rows[0]!.n).toBe(1);
    release();
    await until("the slow job to end", async () => (await waiting("test:slow")) === 0);
  });

  it("clears a periodic task's failed runs once a later run goes through; a one-off job's failure stays", async () => {
    let up = false;
    const flaky = async () => {
      if (!up) throw new Error("database blip");
    };
    const db = createDatabase(test.url, 3);
    pools.push(db);
    // A cron line that never comes due in this test: it only marks the task as periodic.
    const runner = await startJobRunner(db, [{ handlers: { "test:periodic": flaky, "test:one-off": flaky }, crontab: ["0 0 1 1 * test:periodic ?max=1"] }], {
      pollIntervalMs: 100,
    });
    runners.push(runner);
    const failed = async () => (await listFailedJobs(test.db)).map((j) => j.task).filter((t) => t.startsWith("test:periodic") || t === "test:one-off");
    await enqueue(test.db, "test:periodic", {}, { maxAttempts: 1 });
    await enqueue(test.db, "test:one-off", {}, { maxAttempts: 1 });
    await until("both to fail", async () => (await failed()).length === 2);

    up = true;
    await enqueue(test.db, "test:periodic", {}, { maxAttempts: 1 });
    await enqueue(test.db, "test:one-off", {}, { maxAttempts: 1 });
    await until("the periodic task's failure to be cleared", async () => (await failed()).length === 1);
    expect(await failed()).toEqual(["test:one-off"]);
  });
});
