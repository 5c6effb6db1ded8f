import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { STALE_MESSAGE } from "~/server/platform/jobs/jobs.server";
import { writeSampleCsv } from "~/server/catalog/import/sample-csv.server";
import { createSession, makeAdmin, SESSION_COOKIE } from "../factories/users";
import { E2E_AUTH_SECRET } from "./harness";
import { useFaultBed, waitFor } from "./faults-harness";

/**
 * A fault the shop survives: kill -9 of the server in the middle of a CSV import. Batches are
 * transactions, so what remains is a whole number of batches, every row complete; after the restart
 * the job is reported as stopped and the same file imports to the end without duplicating anything.
 */
const ROWS = 60_000;
const BATCH = 1000;
const bed = useFaultBed();
let csv: string;
let cookie = "";

beforeAll(async () => {
  csv = path.join(bed.dataDir, "products.csv");
  await writeSampleCsv(csv, ROWS);
  const admin = await makeAdmin(bed.test.db);
  cookie = `${SESSION_COOKIE}=${(await createSession(bed.test.db, admin.id, E2E_AUTH_SECRET)).cookieValue}`;
}, 60_000);

const one = async <T>(text: string) => (await bed.rows<T>(text))[0]!;

/** Upload (the raw file as the body, as the Import tab sends it), then confirm the dry run. */
async function startImport(base: string) {
  const upload = await fetch(`${base}/admin/products/import`, {
    method: "POST",
    headers: { cookie, origin: base, "content-type": "text/csv", "x-file-name": "products.csv" },
    body: fs.readFileSync(csv),
  });
  expect(upload.status).toBe(200);
  const { job } = (await upload.json()) as { job: { id: string } };
  const confirm = await fetch(`${base}/admin/products/import/${job.id}`, {
    method: "POST",
    headers: { cookie, origin: base, "content-type": "application/x-www-form-urlencoded" },
    body: "intent=confirm",
  });
  expect(confirm.status).toBe(200);
  return job.id;
}

async function jobView(base: string) {
  const res = await fetch(`${base}/admin/products/import`, { headers: { cookie } });
  return ((await res.json()) as { job: { id: string; status: string; result: { message?: string } | null } | null }).job;
}

describe("kill -9 in the middle of a CSV import", () => {
  it("keeps whole batches only, reports the stopped job after a restart, and imports the file again cleanly", async () => {
    let shop = await bed.start({ LOG_LEVEL: "error" });
    const jobId = await startImport(shop.baseUrl);

    // Kill once a few batches are in, well before the end.
    const progress = await waitFor(
      "the import to write a few batches",
      async () => {
        const j = await one<{ processed: number; status: string }>(`select processed, status from jobs where id = '${jobId}'`);
        if (j.status !== "running") throw new Error(`the job ended (${j.status}) before the kill: make the file larger`);
        return j.processed >= 3 * BATCH ? j : null;
      },
      60_000,
    );
    await shop.kill9();
    expect(progress.processed).toBeLessThan(ROWS);

    const after = await one<{ n: string; incomplete: string; skus: string }>(
      "select count(*) n, count(distinct sku) skus, count(*) filter (where description = '' or price_cents = 0 or sku = '') incomplete from products",
    );
    const landed = Number(after.n);
    expect(landed, "rows written before the kill").toBeGreaterThanOrEqual(3 * BATCH);
    expect(landed).toBeLessThan(ROWS);
    expect(landed % BATCH, `${landed} rows: not a whole number of ${BATCH}-row batches`).toBe(0);
    expect(Number(after.incomplete), "rows written only in part").toBe(0);
    expect(Number(after.skus)).toBe(landed);

    shop = await bed.start({ LOG_LEVEL: "error" });
    // Nothing reports for the dead job any more; once its heartbeat is older than the stale
    // limit (moved back here instead of waiting two minutes) the tab shows why it stopped.
    await bed.test.db.$client.query(`update jobs set updated_at = now() - interval '3 minutes' where id = '${jobId}'`);
    const stopped = await jobView(shop.baseUrl);
    expect(stopped).toMatchObject({ id: jobId, status: "failed", result: { message: STALE_MESSAGE } });

    const again = await startImport(shop.baseUrl);
    await waitFor("the second import to finish", async () => {
      const j = await jobView(shop.baseUrl);
      if (j?.id === again && j.status === "failed") throw new Error(`the second import failed: ${JSON.stringify(j.result)}`);
      return j?.id === again && j.status === "done";
    }, 120_000);
    const final = await one<{ n: string; skus: string }>("select count(*) n, count(distinct sku) skus from products");
    expect(Number(final.n)).toBe(ROWS);
    expect(Number(final.skus)).toBe(ROWS);
  }, 240_000);
});
