import { eq } from "drizzle-orm";
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { loader as jobEvents } from "~/routes/admin/products/job-events";
import { jobs } from "~/server/platform/db/schema";
import { beginShutdown, shutdownSignal } from "~/server/platform/shutdown.server";
import { makeAdmin, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";

// In a file of its own: beginShutdown() is process-wide.
const t = useTestDatabase();

describe("a stopping shop", () => {
  // Runs first: the next test stops the (process-wide) shop.
  it("forgets a job's event stream once it ends, so streams opened over days pile up nothing", async () => {
    const admin = await makeAdmin(t.db);
    const before = getEventListeners(shutdownSignal, "abort").length;
    const open = async (status: "running" | "done") => {
      // An import: the next test needs the one running image migration there may be.
      const [job] = await t.db.insert(jobs).values({ kind: "import", status, total: 10 }).returning();
      const res = (await jobEvents({
        request: await requestAs(t.db, admin, `/admin/products/jobs/${job!.id}/events`),
        params: { jobId: job!.id },
        context: {},
      } as never)) as Response;
      return res.body!.getReader();
    };
    // One the admin leaves while the job runs, one that ends with its job.
    const left = await open("running");
    await left.read();
    expect(getEventListeners(shutdownSignal, "abort").length).toBe(before + 1);
    await left.cancel();
    const finished = await open("done");
    while (!(await finished.read()).done);
    expect(getEventListeners(shutdownSignal, "abort").length).toBe(before);
  });

  it("ends a job's event stream at once instead of keeping the shutdown waiting", async () => {
    const admin = await makeAdmin(t.db);
    const [job] = await t.db.insert(jobs).values({ kind: "image-migration", status: "running", total: 10 }).returning();
    const res = (await jobEvents({
      request: await requestAs(t.db, admin, `/admin/products/jobs/${job!.id}/events`),
      params: { jobId: job!.id },
      context: {},
    } as never)) as Response;
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"status":"running"');

    beginShutdown();
    // The job is still running, but the stream ends: the browser reconnects elsewhere or polls.
    expect((await reader.read()).done).toBe(true);
    const [after] = await t.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, job!.id));
    expect(after?.status).toBe("running");
  });
});
