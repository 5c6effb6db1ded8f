import fs from "node:fs";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { ImportJobDetail } from "~/lib/import-view";
import type { JobView } from "~/lib/jobs-view";
import { loader as exportLoader } from "~/routes/admin/products/export";
import { action as uploadAction } from "~/routes/admin/products/import";
import { action as importJobAction } from "~/routes/admin/products/import-job";
import { takeProductUnits } from "~/server/catalog/index.server";
import { products } from "~/server/platform/db/schema";
import { releaseOrderStock } from "~/server/commerce/settlement/stock.server";
import { getJob } from "~/server/platform/jobs/jobs.server";
import { makeProduct } from "../factories/products";
import { placeOrder } from "../factories/sold-orders";
import { makeAdmin, requestAs, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";

/**
 * A re-imported export must not undo the sales made since it was exported
 * (docs/rules/catalogue-data.md, "Stock in a re-imported export"): exported at 10, 3 sold, a
 * re-import of 10 would sell 3 units that are gone.
 */
const t = useTestDatabase();
let admin: TestUser;

beforeEach(async () => {
  await t.db.execute(sql`truncate products, categories, jobs, orders cascade`);
  admin = await makeAdmin(t.db);
});

async function exportCsv(): Promise<string> {
  const request = await requestAs(t.db, admin, "/admin/products/export");
  const response = (await exportLoader({ request, params: {}, context: {} } as never)) as Response;
  expect(response.headers.get("content-type")).toContain("text/csv");
  return response.text();
}

async function upload(csv: string | Buffer): Promise<JobView> {
  const request = await requestAs(t.db, admin, "/admin/products/import", {
    method: "POST",
    headers: { "content-type": "text/csv", "x-file-name": "products.csv" },
    body: typeof csv === "string" ? csv : new Uint8Array(csv),
  });
  const answer = (await uploadAction({ request, params: {}, context: {} } as never)) as { job: JobView };
  return answer.job;
}

async function confirm(jobId: string, stock?: string) {
  const body = new URLSearchParams(stock ? { intent: "confirm", stock } : { intent: "confirm" });
  const request = await requestAs(t.db, admin, `/admin/products/import/${jobId}`, { method: "POST", body });
  await importJobAction({ request, params: { jobId }, context: {} } as never);
  for (let i = 0; i < 200; i++) {
    const job = await getJob(t.db, jobId);
    if (job?.status === "done") return job;
    if (job?.status === "failed") throw new Error(`the import failed: ${JSON.stringify(job.result)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the import did not finish");
}

/** Three of `p` sold after the export: paid, and its stock taken, as a checkout does. */
async function sell(productId: string, name: string, quantity: number) {
  await new Promise((r) => setTimeout(r, 5));
  await t.db.transaction(async (tx) => {
    await takeProductUnits(tx, productId, quantity);
  });
  const [p] = await t.db.select().from(products).where(eq(products.id, productId));
  await placeOrder(t.db, { email: "buyer@example.test", paidAt: new Date().toISOString(), lines: [[{ ...p!, name }, quantity, 1000]] });
}

const stockOf = async (skus: string[]) => {
  const rows = await t.db.select({ sku: products.sku, stock: products.stockQuantity }).from(products).where(inArray(products.sku, skus));
  return skus.map((s) => rows.find((r) => r.sku === s)!.stock);
};

describe("re-importing the shop's own export", () => {
  it("says how many sold since the file was exported and, by default, subtracts them from the file's stock", async () => {
    const sheet = await makeProduct(t.db, { sku: "SE-SHEET", name: "Linen Sheet", stockQuantity: 10, unlimitedStock: false });
    await makeProduct(t.db, { sku: "SE-THROW", name: "Wool Throw", stockQuantity: 5, unlimitedStock: false });
    const csv = await exportCsv();
    expect(csv.split("\n")[0]).toContain("stock_counted_at");

    await sell(sheet.id, "Linen Sheet", 3);
    expect(await stockOf(["SE-SHEET"])).toEqual([7]);

    const job = await upload(csv);
    const dryRun = (job.detail as ImportJobDetail).dryRun!;
    expect(dryRun.update).toBe(2);
    expect(dryRun.soldSinceExport).toEqual({
      units: 3,
      products: 1,
      lines: [{ sku: "SE-SHEET", name: "Linen Sheet", fileStock: 10, sold: 3, stockAfter: 7 }],
    });

    await confirm(job.id);
    // 10 in the file, 3 sold since: 7, not 10 (which would sell three units that are gone).
    expect(await stockOf(["SE-SHEET", "SE-THROW"])).toEqual([7, 5]);
  });

  it("applies the owner's new stock less the sales since, and uses the file's stock as it is when the owner chooses so", async () => {
    const sheet = await makeProduct(t.db, { sku: "SE-SHEET", name: "Linen Sheet", stockQuantity: 10, unlimitedStock: false });
    await makeProduct(t.db, { sku: "SE-THROW", name: "Wool Throw", stockQuantity: 5, unlimitedStock: false });
    // The owner counts the shelf and writes 15 and 20 into the exported file.
    const edited = (await exportCsv()).replace(/("SE-SHEET",(?:[^,]*,){7})10,/, "$115,").replace(/("SE-THROW",(?:[^,]*,){7})5,/, "$120,");
    expect(edited).toMatch(/"SE-SHEET",(?:[^,]*,){7}15,/);
    await sell(sheet.id, "Linen Sheet", 3);

    await confirm((await upload(edited)).id, "subtract");
    expect(await stockOf(["SE-SHEET", "SE-THROW"])).toEqual([12, 20]);

    await confirm((await upload(edited)).id, "file");
    expect(await stockOf(["SE-SHEET", "SE-THROW"])).toEqual([15, 20]);
  });

  it("adds back what a sale made before the export returned after it (the order was cancelled), and refuses a bad time", async () => {
    const sheet = await makeProduct(t.db, { sku: "SE-SHEET", name: "Linen Sheet", stockQuantity: 10, unlimitedStock: false });
    // Paid before the export: its 2 units are already out of the exported 10.
    await t.db.transaction((tx) => takeProductUnits(tx, sheet.id, 2));
    const order = await placeOrder(t.db, { email: "buyer@example.test", paidAt: new Date(Date.now() - 60_000).toISOString(), lines: [[sheet, 2, 1000]] });
    const csv = await exportCsv();
    expect(csv).toMatch(/"SE-SHEET",(?:[^,]*,){7}8,/);
    await new Promise((r) => setTimeout(r, 5));
    await releaseOrderStock(t.db, order.id);
    expect(await stockOf(["SE-SHEET"])).toEqual([10]);

    const job = await upload(csv);
    expect((job.detail as ImportJobDetail).dryRun!.soldSinceExport).toEqual({
      units: -2,
      products: 1,
      lines: [{ sku: "SE-SHEET", name: "Linen Sheet", fileStock: 8, sold: -2, stockAfter: 10 }],
    });
    await confirm(job.id);
    expect(await stockOf(["SE-SHEET"])).toEqual([10]);

    const bad = await upload("title,sku,stock_quantity,stock_counted_at\nLinen Sheet,SE-SHEET,4,yesterday\n");
    expect((bad.detail as ImportJobDetail).dryRun!.errors).toEqual([
      "Row 2: Invalid stock counted at 'yesterday': expected a time such as 2026-11-28T10:00:00Z",
    ]);
  });

  it("imports other shops' files, which say nothing of when their stock was read, as before", async () => {
    const woo = fs.readFileSync(path.resolve(__dirname, "../fixtures/real-world/woocommerce-sample-products.csv"));
    const job = await upload(woo);
    const dryRun = (job.detail as ImportJobDetail).dryRun!;
    expect(dryRun.format).toBe("woocommerce");
    expect(dryRun.soldSinceExport).toBeUndefined();
  });
});
