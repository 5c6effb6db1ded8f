import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDatabase, type Database } from "~/server/platform/db/client.server";
import {
  releaseClusterTasks,
  runOncePerCluster,
  startPeriodicTask,
  TASK_LOCK_CLASS,
  taskLockKey,
} from "~/server/platform/jobs/cluster-task.server";
import { createTestDatabase, type TestDatabase } from "../setup/database";

/**
 * Periodic tasks run once across the app servers on one database (docs/decisions/0017). Each
 * "server" here is a pool of its own on the same test database, as each shop process has.
 */
let test: TestDatabase;
const servers: Database[] = [];

beforeAll(async () => {
  test = await createTestDatabase();
});

afterAll(async () => {
  for (const db of servers) {
    await releaseClusterTasks(db);
    await db.$client.end();
  }
  await test?.drop();
});

function server(): Database {
  const db = createDatabase(test.url, 3);
  servers.push(db);
  return db;
}

/** A task body that stays running until `finish()`, counting its runs. */
function gatedTask() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const counter = { runs: 0, fn: async () => {
    counter.runs++;
    await gate;
    return "done";
  }, finish: () => open() };
  return counter;
}

/** The backend that holds a task's lock, from pg_locks. */
async function holderPid(name: string): Promise<number | null> {
  const { rows } = await test.db.$client.query<{ pid: number }>(
    "select pid from pg_locks where locktype = 'advisory' and granted and classid = $1 and objid = $2::oid and objsubid = 2",
    [TASK_LOCK_CLASS, taskLockKey(name) >>> 0],
  );
  return rows[0]?.pid ?? null;
}

describe("runOncePerCluster", () => {
  it("runs a task once when two servers start it at the same moment; the other skips", async () => {
    const [a, b] = [server(), server()];
    const task = gatedTask();
    const both = Promise.all([runOncePerCluster(a, "test:same-moment", task.fn), runOncePerCluster(b, "test:same-moment", task.fn)]);
    // One holds the lock and runs (held until finish()); the other finds it taken.
    await expect.poll(() => holderPid("test:same-moment"), { timeout: 10_000 }).not.toBeNull();
    task.finish();
    const results = await both;
    expect(task.runs).toBe(1);
    expect(results.filter((r) => r.ran)).toHaveLength(1);
    expect(results.filter((r) => !r.ran)).toEqual([{ ran: false, reason: "another server" }]);
  });

  it("runs a task once when one server is asked twice at once", async () => {
    const a = server();
    const task = gatedTask();
    const first = runOncePerCluster(a, "test:twice-here", task.fn);
    const second = await runOncePerCluster(a, "test:twice-here", task.fn);
    task.finish();
    expect(await first).toEqual({ ran: true, value: "done" });
    expect(second).toEqual({ ran: false, reason: "running here" });
    expect(task.runs).toBe(1);
  });

  it("keeps a task on the server that ran it, so turns at different moments do not run it twice; tasks are independent", async () => {
    const [a, b] = [server(), server()];
    let runsOnA = 0;
    let runsOnB = 0;
    const onA = async () => ++runsOnA;
    const onB = async () => ++runsOnB;
    for (let turn = 0; turn < 3; turn++) {
      expect((await runOncePerCluster(a, "test:kept", onA)).ran).toBe(true);
      expect(await runOncePerCluster(b, "test:kept", onB)).toEqual({ ran: false, reason: "another server" });
    }
    expect([runsOnA, runsOnB]).toEqual([3, 0]);
    // Another task's lock is its own: B may hold it while A holds the first.
    expect(await runOncePerCluster(b, "test:kept-other", onB)).toEqual({ ran: true, value: 1 });
    expect(await runOncePerCluster(a, "test:kept-other", onA)).toEqual({ ran: false, reason: "another server" });
  });

  it("starts many tasks at once on one server, asking its lock session one query at a time", async () => {
    const a = server();
    // pg queues a query sent while another is in flight, but that use is deprecated (gone in pg 9).
    const query = pg.Client.prototype.query;
    let overlapping = 0;
    const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const client = this as unknown as { _queryQueue: unknown[]; _activeQuery: unknown };
      if (client._activeQuery || client._queryQueue.length > 0) overlapping++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query);
    try {
      const names = Array.from({ length: 6 }, (_, i) => `test:together-${i}`);
      const firstTurns = await Promise.all(names.map((name, i) => runOncePerCluster(a, name, async () => i)));
      expect(firstTurns).toEqual(names.map((_, i) => ({ ran: true, value: i })));
      // The later turns, with the locks kept, check the session at once too.
      const laterTurns = await Promise.all(names.map((name) => runOncePerCluster(a, name, async () => 1)));
      expect(laterTurns.every((r) => r.ran)).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect(overlapping).toBe(0);
  });

  it("hands a stopped server's tasks to the next server whose turn comes", async () => {
    const [a, b] = [server(), server()];
    const count = { a: 0, b: 0 };
    expect((await runOncePerCluster(a, "test:handover", async () => ++count.a)).ran).toBe(true);
    expect((await runOncePerCluster(b, "test:handover", async () => ++count.b)).ran).toBe(false);
    await releaseClusterTasks(a);
    expect(await runOncePerCluster(a, "test:handover", async () => ++count.a)).toEqual({ ran: false, reason: "stopped" });
    expect((await runOncePerCluster(b, "test:handover", async () => ++count.b)).ran).toBe(true);
    expect(count).toEqual({ a: 1, b: 1 });
  });

  it("frees the lock when the server's connection dies mid-run, and the server that lost it then skips", async () => {
    const [a, b] = [server(), server()];
    const task = gatedTask();
    const runOnA = runOncePerCluster(a, "test:dies", task.fn);
    await expect.poll(() => holderPid("test:dies"), { timeout: 10_000 }).not.toBeNull();
    const pid = await holderPid("test:dies");
    expect(await runOncePerCluster(b, "test:dies", async () => "b")).toEqual({ ran: false, reason: "another server" });
    // What a crashed server's connection does: it ends, and PostgreSQL drops its locks.
    await test.db.$client.query("select pg_terminate_backend($1)", [pid]);
    await expect.poll(() => holderPid("test:dies"), { timeout: 10_000 }).toBeNull();
    expect(await runOncePerCluster(b, "test:dies", async () => "b")).toEqual({ ran: true, value: "b" });
    task.finish();
    expect(await runOnA).toEqual({ ran: true, value: "done" });
    // A notices its session is gone, opens a new one, and finds the task taken.
    expect(await runOncePerCluster(a, "test:dies", async () => "a")).toEqual({ ran: false, reason: "another server" });
    expect(task.runs).toBe(1);
  });
});

describe("startPeriodicTask", () => {
  it("runs every turn of a task on one of two servers only", async () => {
    const [a, b] = [server(), server()];
    const runs = { a: 0, b: 0 };
    const stopA = startPeriodicTask(a, { name: "test:periodic", everyMs: 20, atStart: true }, async () => ++runs.a);
    await expect.poll(() => runs.a, { timeout: 10_000 }).toBeGreaterThan(0);
    const stopB = startPeriodicTask(b, { name: "test:periodic", everyMs: 20, atStart: true }, async () => ++runs.b);
    await expect.poll(() => runs.a, { timeout: 10_000 }).toBeGreaterThanOrEqual(10);
    stopA();
    stopB();
    expect(runs.b).toBe(0);
  });
});
