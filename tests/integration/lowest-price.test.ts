import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { JobView } from "~/lib/jobs-view";
import { action as pricesAction } from "~/routes/admin/site-settings-prices";
import { action as uploadAction } from "~/routes/admin/products/import";
import { action as importJobAction } from "~/routes/admin/products/import-job";
import {
  addVariationValue,
  attachVariation,
  bulkUpdateProducts,
  createProduct,
  createVariationType,
  getLowestPriceSetting,
  getStorefrontProduct,
  listShopProducts,
  lowestPricesBeforeReduction,
  saveLowestPriceSetting,
  updateProduct,
  updateProductVariation,
} from "~/server/catalog/index.server";
import { DEFAULT_SORT } from "~/lib/product";
import { getJob } from "~/server/platform/jobs/jobs.server";
import { makeCategory, makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { args, settle } from "./admin-catalog-helpers";

/**
 * The 30-day lowest price beside a reduction (docs/rules/lowest-price.md): every price write keeps
 * a row of price_history, and a reduced product shows the lowest price in force during the 30 days
 * before its reduction began.
 */
const t = useTestDatabase();

beforeEach(async () => {
  await t.db.execute(sql`truncate products, categories, jobs, site_settings cascade`);
  await makeCategory(t.db, { name: "Bedding" });
});

type HistoryRow = { price: number; original: number | null };
async function history(productId: string): Promise<HistoryRow[]> {
  const r = await t.db.execute<HistoryRow>(
    sql`select price_cents as price, original_price_cents as original from price_history
        where product_id = ${productId} and variation_id is null order by from_at, id`,
  );
  return r.rows;
}

const form = (price: string, originalPrice = "") => ({ name: "Linen Duvet", category: "Bedding", price, originalPrice, stockQuantity: "5" });

/** A product whose product row is `now` and whose history is these prices, `daysAgo` days back. */
async function productWithHistory(rows: { daysAgo: number; price: number; original?: number | null }[]) {
  const last = rows[rows.length - 1]!;
  const p = await makeProduct(t.db, { priceCents: last.price, originalPriceCents: last.original ?? null });
  for (const r of rows) {
    await t.db.execute(sql`insert into price_history (product_id, price_cents, original_price_cents, from_at)
      values (${p.id}, ${r.price}, ${r.original ?? null}, now() - make_interval(days => ${r.daysAgo}))`);
  }
  return p;
}

async function lowestOf(productId: string): Promise<number | null> {
  return (await lowestPricesBeforeReduction(t.db, [productId])).get(productId) ?? null;
}

describe("price history: every price write keeps a row", () => {
  it("records a product's prices when it is created and when an edit changes them, and nothing for an edit that changes none", async () => {
    const { id } = await createProduct(t.db, form("100.00"));
    expect(await history(id)).toEqual([{ price: 10000, original: null }]);
    await updateProduct(t.db, id, { ...form("100.00"), name: "Linen Duvet, renamed" });
    expect(await history(id)).toHaveLength(1);
    await updateProduct(t.db, id, form("80.00", "100.00"));
    expect(await history(id)).toEqual([
      { price: 10000, original: null },
      { price: 8000, original: 10000 },
    ]);
  });

  it("records a variation's own price (the product's plus its adjustment) when attached, when its adjustment changes and when the product's price does", async () => {
    const { id } = await createProduct(t.db, form("100.00"));
    const type = await createVariationType(t.db, "Size");
    const value = await addVariationValue(t.db, type.id, "King");
    const variationId = await attachVariation(t.db, id, value.id);
    await updateProductVariation(t.db, id, variationId, { field: "stockQuantity", value: "3" });
    await updateProductVariation(t.db, id, variationId, { field: "priceAdjustment", value: "15.00" });
    await updateProduct(t.db, id, form("80.00", "100.00"));
    const rows = await t.db.execute<HistoryRow>(
      sql`select price_cents as price, original_price_cents as original from price_history where variation_id = ${variationId} order by from_at, id`,
    );
    expect(rows.rows).toEqual([
      { price: 10000, original: null },
      { price: 11500, original: null },
      { price: 9500, original: 11500 },
    ]);
  });

  it("records each product a bulk edit reprices", async () => {
    const a = await createProduct(t.db, form("100.00"));
    const b = await createProduct(t.db, { ...form("50.00"), name: "Pillow" });
    await bulkUpdateProducts(t.db, { ids: [a.id, b.id], priceAdjustment: { type: "percentage", value: "-10" } });
    expect(await history(a.id)).toEqual([
      { price: 10000, original: null },
      { price: 9000, original: null },
    ]);
    expect(await history(b.id)).toEqual([
      { price: 5000, original: null },
      { price: 4500, original: null },
    ]);
  });

  it("records the prices a CSV import creates and changes", async () => {
    const admin = await makeAdmin(t.db);
    const importCsv = async (price: string, original: string) => {
      const csv = `title,price,original_price,sku,stock_quantity,category\nImported Quilt,${price},${original},QUILT-1,4,Bedding\n`;
      const upload = await requestAs(t.db, admin, "/admin/products/import", {
        method: "POST",
        headers: { "content-type": "text/csv", "x-file-name": "products.csv" },
        body: csv,
      });
      const { job } = (await uploadAction({ request: upload, params: {}, context: {} } as never)) as { job: JobView };
      const confirm = await requestAs(t.db, admin, `/admin/products/import/${job.id}`, { method: "POST", body: new URLSearchParams({ intent: "confirm" }) });
      await importJobAction({ request: confirm, params: { jobId: job.id }, context: {} } as never);
      for (let i = 0; i < 200; i++) {
        const done = await getJob(t.db, job.id);
        if (done?.status === "done") return;
        if (done?.status === "failed") throw new Error(`the import failed: ${JSON.stringify(done.result)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("the import did not finish");
    };
    await importCsv("60.00", "");
    const [row] = (await t.db.execute<{ id: string }>(sql`select id from products where sku = 'QUILT-1'`)).rows;
    expect(await history(row!.id)).toEqual([{ price: 6000, original: null }]);
    await importCsv("45.00", "60.00");
    expect(await history(row!.id)).toEqual([
      { price: 6000, original: null },
      { price: 4500, original: 6000 },
    ]);
  });
});

describe("the lowest price in the 30 days before a reduction", () => {
  it("is the true minimum when the price was raised and then lowered within the 30 days", async () => {
    const p = await productWithHistory([
      { daysAgo: 60, price: 10000 },
      { daysAgo: 25, price: 9000 },
      { daysAgo: 10, price: 12000 },
      { daysAgo: 2, price: 10000, original: 12000 },
    ]);
    expect(await lowestOf(p.id)).toBe(9000);
  });

  it("ignores a price that ended more than 30 days before the reduction began, and counts the one in force when the 30 days opened", async () => {
    const p = await productWithHistory([
      { daysAgo: 90, price: 5000 },
      { daysAgo: 40, price: 10000 },
      { daysAgo: 1, price: 8000, original: 10000 },
    ]);
    expect(await lowestOf(p.id)).toBe(10000);
  });

  it("counts from when the reduction began, not from its latest change of compare-at price; the reduced price is not its own reference", async () => {
    const p = await productWithHistory([
      { daysAgo: 50, price: 10000 },
      { daysAgo: 20, price: 8000, original: 10000 },
      { daysAgo: 5, price: 8000, original: 11000 },
    ]);
    expect(await lowestOf(p.id)).toBe(10000);
    const bornReduced = await productWithHistory([{ daysAgo: 3, price: 8000, original: 10000 }]);
    expect(await lowestOf(bornReduced.id)).toBeNull();
  });

  it("shows the price itself when a badge is put on a price that did not change", async () => {
    const p = await productWithHistory([
      { daysAgo: 40, price: 8000 },
      { daysAgo: 5, price: 8000, original: 10000 },
    ]);
    expect(await lowestOf(p.id)).toBe(8000);
  });

  it("reaches the product page and the cards, and is hidden when the owner turns the setting off", async () => {
    const p = await productWithHistory([
      { daysAgo: 20, price: 7000 },
      { daysAgo: 2, price: 6000, original: 9000 },
    ]);
    const plain = await productWithHistory([{ daysAgo: 20, price: 5000 }]);
    expect((await getStorefrontProduct(t.db, p.id))?.lowestPriceCents).toBe(7000);
    const cards = (await listShopProducts(t.db, { search: "", category: null, sort: DEFAULT_SORT }, { offset: 0, limit: 24 })).items;
    expect(cards.find((c) => c.id === p.id)?.lowestPriceCents).toBe(7000);
    expect(cards.find((c) => c.id === plain.id)?.lowestPriceCents).toBeNull();

    await saveLowestPriceSetting(t.db, { showBesideReductions: false });
    expect((await getStorefrontProduct(t.db, p.id))?.lowestPriceCents).toBeNull();
    const off = (await listShopProducts(t.db, { search: "", category: null, sort: DEFAULT_SORT }, { offset: 0, limit: 24 })).items;
    expect(off.find((c) => c.id === p.id)?.lowestPriceCents).toBeNull();
  });
});

describe("Site Settings → Prices", () => {
  it("is on by default; the owner's unticked box turns it off and a tick turns it back on; a customer cannot", async () => {
    expect(await getLowestPriceSetting(t.db)).toEqual({ showBesideReductions: true });
    const post = async (as: Awaited<ReturnType<typeof makeAdmin>>, body: Record<string, string>) => {
      const request = await requestAs(t.db, as, "/admin/site-settings/prices", { method: "POST", body: new URLSearchParams(body) });
      return settle(() => pricesAction(args(request)));
    };
    const customer = await makeCustomer(t.db);
    expect((await post(customer, { intent: "save" })).status).toBe(403);
    expect(await getLowestPriceSetting(t.db)).toEqual({ showBesideReductions: true });
    const admin = await makeAdmin(t.db);
    expect(JSON.parse((await post(admin, { intent: "save" })).body as string)).toMatchObject({ ok: true, setting: { showBesideReductions: false } });
    expect(await getLowestPriceSetting(t.db)).toEqual({ showBesideReductions: false });
    await post(admin, { intent: "save", show_lowest_price: "on" });
    expect(await getLowestPriceSetting(t.db)).toEqual({ showBesideReductions: true });
  });
});
