import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { jobs, products } from "~/server/platform/db/schema";
import { resetEnvCache } from "~/server/platform/env.server";
import type { JobView } from "~/lib/jobs-view";
import { createJob, getJob } from "~/server/platform/jobs/jobs.server";
import { action as importJobAction } from "~/routes/admin/products/import-job";
import { loader as jobEvents } from "~/routes/admin/products/job-events";
import { loader as jobLoader } from "~/routes/admin/products/job";
import { action as uploadAction, loader as importLoader } from "~/routes/admin/products/import";
import { makeAdmin, makeCustomer, requestAs, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();
let admin: TestUser;

type Answer = { job: JobView } | { error: string };
/** What a route answered: its JSON and status, whether it returned data() or a plain object. */
function unwrap(result: unknown): { status: number; body: Answer } {
  const r = result as { type?: string; data?: Answer; init?: { status?: number } };
  if (r && r.type === "DataWithResponseInit") return { status: r.init?.status ?? 200, body: r.data! };
  return { status: 200, body: result as Answer };
}

async function upload(csv: string | Buffer, opts: { name?: string; type?: string; as?: TestUser } = {}) {
  const request = await requestAs(t.db, opts.as ?? admin, "/admin/products/import", {
    method: "POST",
    headers: { "content-type": opts.type ?? "text/csv", "x-file-name": opts.name ?? "products.csv" },
    body: typeof csv === "string" ? csv : new Uint8Array(csv),
  });
  return unwrap(await uploadAction({ request, params: {}, context: {} } as never));
}

async function intent(jobId: string, name: "confirm" | "discard") {
  const body = new URLSearchParams({ intent: name });
  const request = await requestAs(t.db, admin, `/admin/products/import/${jobId}`, { method: "POST", body });
  return unwrap(await importJobAction({ request, params: { jobId }, context: {} } as never));
}

async function waitForJob(id: string) {
  for (let i = 0; i < 200; i++) {
    const job = await getJob(t.db, id);
    if (job && (job.status === "done" || job.status === "failed")) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the import did not finish");
}

const CSV = "title,price,sku\nLinen Sheet,49.00,LS-1\n,5,NO-TITLE\nCotton Sheet,\"12,50\",CS-1\nWool Throw,89,WT-1\n";

beforeEach(async () => {
  await t.db.execute(sql`truncate products, categories, jobs cascade`);
  admin = await makeAdmin(t.db);
});

describe("uploading a CSV", () => {
  it("dry-runs the file and waits for the admin's confirmation, writing nothing", async () => {
    const { status, body } = await upload(CSV);
    expect(status).toBe(200);
    const job = (body as { job: JobView }).job;
    expect(job).toMatchObject({ kind: "import", status: "pending", total: 4 });
    expect(job.detail).toMatchObject({
      stage: "confirm",
      fileName: "products.csv",
      dryRun: {
        format: "generic",
        formatLabel: "Generic CSV",
        create: 2,
        update: 0,
        skip: 2,
        errors: ["Row 3: Missing product title", "Row 4: Invalid price '12,50': use a dot for decimals (for example 12.50)"],
      },
    });
    expect(job.detail).not.toHaveProperty("file");
    expect(await t.db.select().from(products)).toHaveLength(0);
  });

  it("runs the import on the server after confirmation, with its result kept for a later visit", async () => {
    const job = ((await upload(CSV)).body as { job: JobView }).job;
    const confirmed = await intent(job.id, "confirm");
    expect((confirmed.body as { job: JobView }).job.status).toBe("running");
    expect((await intent(job.id, "confirm")).status).toBe(409);
    const done = await waitForJob(job.id);
    expect(done).toMatchObject({ status: "done", processed: 4, succeeded: 2, failed: 2 });
    expect(done.errors).toEqual(["Row 3: Missing product title", "Row 4: Invalid price '12,50': use a dot for decimals (for example 12.50)"]);
    expect(await t.db.select({ name: products.name }).from(products).orderBy(products.name)).toEqual([{ name: "Linen Sheet" }, { name: "Wool Throw" }]);
    // The uploaded file is gone once the import is over.
    expect(fs.readdirSync(`${process.env.DATA_DIR}/imports`).filter((f) => f.startsWith(job.id))).toEqual([]);

    const later = await importLoader({ request: await requestAs(t.db, admin, "/admin/products/import"), params: {}, context: {} } as never);
    expect(later.job).toMatchObject({ id: job.id, status: "done", percent: 100, result: { imported: 2, created: 2 } });
    const polled = await jobLoader({ request: await requestAs(t.db, admin, `/admin/products/jobs/${job.id}`), params: { jobId: job.id }, context: {} } as never);
    expect(polled).toMatchObject({ job: { status: "done", percent: 100 } });
  });

  it("streams progress as server-sent events until the job ends", async () => {
    const job = ((await upload(CSV)).body as { job: JobView }).job;
    await intent(job.id, "confirm");
    await waitForJob(job.id);
    const res = (await jobEvents({ request: await requestAs(t.db, admin, `/admin/products/jobs/${job.id}/events`), params: { jobId: job.id }, context: {} } as never)) as Response;
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("cache-control")).toContain("no-transform");
    const text = await res.text();
    const events = text.split("\n\n").filter((e) => e.startsWith("data: ")).map((e) => JSON.parse(e.slice(6)) as JobView);
    expect(events.at(-1)).toMatchObject({ id: job.id, status: "done", percent: 100 });
  });

  it("also takes the file as a multipart form field, streamed", async () => {
    const post = async (form: FormData) => {
      const request = await requestAs(t.db, admin, "/admin/products/import", { method: "POST", body: form });
      return unwrap(await uploadAction({ request, params: {}, context: {} } as never));
    };
    const form = new FormData();
    form.append("file", new File([CSV], "from-form.csv", { type: "text/csv" }));
    const ok = await post(form);
    expect(ok.status).toBe(200);
    expect((ok.body as { job: JobView }).job.detail).toMatchObject({ fileName: "from-form.csv", dryRun: { create: 2, skip: 2 } });

    const image = new FormData();
    image.append("file", new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "photo.png", { type: "image/png" }));
    expect(await post(image)).toEqual({ status: 415, body: { error: "Invalid file type: Please select a CSV file" } });
    const empty = new FormData();
    empty.append("note", "no file here");
    expect(await post(empty)).toEqual({ status: 400, body: { error: "No file was sent: choose a CSV file" } });
  });

  it("refuses files that are not CSV with the specified message", async () => {
    expect(await upload(Buffer.from([0x89, 0x50, 0x4e, 0x47]), { name: "photo.png", type: "image/png" })).toEqual({
      status: 415,
      body: { error: "Invalid file type: Please select a CSV file" },
    });
    // Named .csv, but a spreadsheet inside.
    expect(await upload(Buffer.from("PK\u0003\u0004 workbook bytes"), { name: "products.csv", type: "application/vnd.ms-excel" })).toEqual({
      status: 415,
      body: { error: "Invalid file type: Please select a CSV file" },
    });
    expect(await t.db.select().from(jobs)).toHaveLength(0);
  });

  it("refuses an empty file, a header-only file and a file over the size limit", async () => {
    expect(await upload("")).toMatchObject({ status: 400, body: { error: "The file is empty" } });
    expect(await upload("title,price\n")).toMatchObject({ status: 400, body: { error: "The file has a header row but no product rows" } });
    process.env.IMPORT_MAX_BYTES = "2048";
    resetEnvCache();
    try {
      expect(await upload(`title\n${"Long Name\n".repeat(300)}`)).toMatchObject({ status: 413, body: { error: "The file is larger than 2 KB" } });
    } finally {
      delete process.env.IMPORT_MAX_BYTES;
      resetEnvCache();
    }
    expect(await t.db.select().from(jobs)).toHaveLength(0);
  });

  it("allows one import at a time; an unconfirmed upload is replaced; a dead one is cleared", async () => {
    const first = ((await upload(CSV)).body as { job: JobView }).job;
    const second = ((await upload(CSV)).body as { job: JobView }).job;
    expect(await getJob(t.db, first.id)).toBeUndefined();
    await intent(second.id, "discard");
    expect(await getJob(t.db, second.id)).toBeUndefined();

    const running = await createJob(t.db, "import", { status: "running" }, "busy");
    expect(await upload(CSV)).toMatchObject({ status: 409, body: { error: "An import is already running. Wait for it to finish, then try again." } });
    // A job that stopped reporting three minutes ago died with its server.
    await t.db.update(jobs).set({ updatedAt: new Date(Date.now() - 3 * 60_000) }).where(eq(jobs.id, running.id));
    expect((await upload(CSV)).status).toBe(200);
    expect(await getJob(t.db, running.id)).toMatchObject({ status: "failed" });
  });

  it("is for admins only", async () => {
    const customer = await makeCustomer(t.db);
    await expect(upload(CSV, { as: customer })).rejects.toMatchObject({ init: { status: 403 } });
  });

  it("finds no job for an id that is not a UUID, without asking the database", async () => {
    for (const id of ["-".repeat(36), "abcdefab-abcd-abcd-abcd-abcdefabcdeg", "../../etc"]) expect(await getJob(t.db, id)).toBeUndefined();
  });
});
