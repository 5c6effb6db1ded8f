import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as layoutLoader } from "~/routes/admin/layout";
import { action as jobsAction, loader as jobsLoader } from "~/routes/admin/jobs";
import { getAttentionItems } from "~/server/insight/index.server";
import { createDatabase, type Database } from "~/server/platform/db/client.server";
import { enqueue, startJobRunner, type JobRunner } from "~/server/platform/jobs/queue.server";
import { makeAdmin, makeCustomer, sessionCookie } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post, run } from "./accounts-helpers";

/**
 * /admin/jobs, the owner's view of the job queue's failures (docs/decisions/0028): a job whose
 * tries are spent is listed with a plain name and its error's first line, counted on the sidebar
 * and the dashboard, and 'Try again' runs it again on a real worker.
 */
const t = useTestDatabase();
let pool: Database;
let runner: JobRunner;

/** What the worker's handlers do: fail with a multi-line error (a message, then a stack) until told otherwise. */
const relay = { up: false, runs: [] as string[], gate: null as Promise<void> | null };

beforeAll(async () => {
  pool = createDatabase(t.url, 3);
  const handler = (name: string) => async () => {
    relay.runs.push(name);
    if (relay.gate) await relay.gate;
    if (!relay.up) throw new Error(`relay said 451: try later\n    at deliver (mail.server.ts:120:11)\n    at run (queue.server.ts:70:5)`);
  };
  // The shop's own task name, so the page can name it; and one the shop does not know.
  runner = await startJobRunner(pool, [{ handlers: { "mail:deliver": handler("mail"), "legacy:rebuild-thumbnails": handler("legacy") } }], {
    pollIntervalMs: 100,
  });
});

afterAll(async () => {
  await runner?.stop();
  await pool?.$client.end();
});

const jobRow = async (id: string) =>
  (await t.db.execute<{ attempts: number; locked: boolean }>(sql`select attempts, locked_at is not null as locked from graphile_worker._private_jobs where id = ${id}::bigint`)).rows[0];

async function failForGood(task: string, payload: unknown) {
  const id = await enqueue(t.db, task, payload, { maxAttempts: 1 });
  await expect.poll(async () => (await jobRow(id))?.attempts, { timeout: 15_000 }).toBe(1);
  return id;
}

describe("/admin/jobs", () => {
  it("lists jobs that failed for good, newest first, with a readable name and the error's first line, and tries one again", async () => {
    const admin = await makeAdmin(t.db);
    const cookie = await sessionCookie(t.db, admin.id);

    const empty = await run(jobsLoader, get("/admin/jobs", { cookie }));
    expect(empty.data).toEqual({ jobs: [], total: 0 });

    const mail = await failForGood("mail:deliver", { mailId: "m-1" });
    const legacy = await failForGood("legacy:rebuild-thumbnails", {});

    const page = await run(jobsLoader, get("/admin/jobs", { cookie }));
    expect(page.status).toBe(200);
    expect(page.data.total).toBe(2);
    expect(page.data.jobs).toEqual([
      { id: legacy, task: "legacy:rebuild-thumbnails", name: "legacy:rebuild-thumbnails", attempts: 1, failedAt: expect.any(String), error: "relay said 451: try later" },
      { id: mail, task: "mail:deliver", name: "Send a mail", attempts: 1, failedAt: expect.any(String), error: "relay said 451: try later" },
    ]);
    expect(new Date(page.data.jobs[1].failedAt).toISOString()).toBe(page.data.jobs[1].failedAt);
    expect(JSON.stringify(page.data)).not.toContain("queue.server.ts");

    // Where the owner sees what needs attention: the sidebar's badge and the dashboard.
    expect((await run(layoutLoader, get("/admin/jobs", { cookie }))).data.failedJobs).toBe(2);
    expect((await getAttentionItems(t.db)).find((i) => i.kind === "jobs")).toEqual({
      kind: "jobs",
      count: 2,
      capped: false,
      label: "background jobs that failed every try",
      action: "See jobs",
      href: "/admin/jobs",
    });

    // The cause is fixed: 'Try again' runs the mail's job again, and it leaves the list.
    relay.up = true;
    const runsBefore = relay.runs.filter((r) => r === "mail").length;
    const retried = await run(jobsAction, post("/admin/jobs", { intent: "retry", id: mail }, { cookie }));
    expect(retried).toMatchObject({ status: 200, data: { ok: true, message: "Send a mail will run again now." } });
    await expect.poll(() => jobRow(mail), { timeout: 15_000 }).toBeUndefined();
    expect(relay.runs.filter((r) => r === "mail")).toHaveLength(runsBefore + 1);
    const after = await run(jobsLoader, get("/admin/jobs", { cookie }));
    expect(after.data.jobs.map((j: { id: string }) => j.id)).toEqual([legacy]);
    expect((await run(layoutLoader, get("/admin/jobs", { cookie }))).data.failedJobs).toBe(1);

    // The same job again: it has run and is gone, a clear 404 rather than a 500.
    const gone = await run(jobsAction, post("/admin/jobs", { intent: "retry", id: mail }, { cookie }));
    expect(gone).toMatchObject({ status: 404, data: { ok: false, message: "This job is no longer in the list: it has run since, or it was removed." } });
  });

  it("answers an unknown, malformed, running or waiting job with a clear message", async () => {
    const admin = await makeAdmin(t.db);
    const cookie = await sessionCookie(t.db, admin.id);
    const tryAgain = (fields: Record<string, string>) => run(jobsAction, post("/admin/jobs", fields, { cookie }));

    expect(await tryAgain({ intent: "retry", id: "987654321" })).toMatchObject({ status: 404, data: { ok: false, message: expect.stringMatching(/no longer in the list/) } });
    expect(await tryAgain({ intent: "retry", id: "not-a-job" })).toMatchObject({ status: 400, data: { ok: false, message: "Choose a failed job to try again." } });
    expect(await tryAgain({ intent: "retry", id: "99999999999999999999999" })).toMatchObject({ status: 400, data: { ok: false } });
    expect(await tryAgain({ intent: "retry" })).toMatchObject({ status: 400, data: { ok: false, message: "Choose a failed job to try again." } });
    expect(await tryAgain({ intent: "drop", id: "1" })).toMatchObject({ status: 400, data: { ok: false, message: "This action is not supported." } });

    // Waiting for its time (never failed): not the page's to run now.
    const waiting = await enqueue(t.db, "mail:deliver", { mailId: "later" }, { runAt: new Date(Date.now() + 60 * 60_000) });
    expect(await tryAgain({ intent: "retry", id: waiting })).toMatchObject({ status: 409, data: { ok: false, message: "This job is already waiting to run again." } });
    expect(await jobRow(waiting)).toMatchObject({ attempts: 0 });

    // Tried again, then 'Try again' once more while it runs (a second tab): refused, it runs once.
    relay.up = false;
    const slow = await failForGood("mail:deliver", { mailId: "slow" });
    let release!: () => void;
    relay.gate = new Promise<void>((r) => (release = r));
    relay.up = true;
    const runs = relay.runs.length;
    expect((await tryAgain({ intent: "retry", id: slow })).status).toBe(200);
    await expect.poll(async () => (await jobRow(slow))?.locked, { timeout: 15_000 }).toBe(true);
    expect(await tryAgain({ intent: "retry", id: slow })).toMatchObject({
      status: 409,
      data: { ok: false, message: "This job is running now: wait for it to finish, then reload the page." },
    });
    release();
    relay.gate = null;
    await expect.poll(() => jobRow(slow), { timeout: 15_000 }).toBeUndefined();
    expect(relay.runs.length).toBe(runs + 1);
  });

  it("refuses customers (403) and sends anonymous people to sign in, and changes nothing", async () => {
    relay.up = false;
    const failed = await failForGood("mail:deliver", { mailId: "refused" });
    const customer = await makeCustomer(t.db);
    const theirs = await sessionCookie(t.db, customer.id);

    expect((await run(jobsLoader, get("/admin/jobs", { cookie: theirs }))).status).toBe(403);
    expect((await run(jobsAction, post("/admin/jobs", { intent: "retry", id: failed }, { cookie: theirs }))).status).toBe(403);
    const anonymous = await run(jobsAction, post("/admin/jobs", { intent: "retry", id: failed }));
    expect(anonymous).toMatchObject({ status: 302, location: "/auth?redirectTo=%2Fadmin%2Fjobs" });
    expect(await jobRow(failed)).toMatchObject({ attempts: 1, locked: false });
  });
});
