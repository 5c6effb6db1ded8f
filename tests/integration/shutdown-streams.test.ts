import { describe, expect, it } from "vitest";
import { loader as jobEvents } from "~/routes/admin/products/job-events";
import { jobs } from "~/server/db/schema";
import { beginShutdown } from "~/server/shutdown.server";
import { makeAdmin, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";

// In a file of its own: beginShutdown() is process-wide.
const t = useTestDatabase();

describe("a stopping shop", () => {
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

    const started = Date.now();
    beginShutdown();
    // The job is still running, but the stream ends: the browser reconnects elsewhere or polls.
    expect((await reader.read()).done).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
