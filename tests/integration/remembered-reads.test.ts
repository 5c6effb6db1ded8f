import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_SORT } from "~/lib/product";
import { pageReturnsSetting, pageSiteSettings, shopCategoryNames, shopListingReads } from "~/routes/_edge/remembered.server";
import { listShopProducts } from "~/server/catalog/index.server";
import { saveReturnsSetting } from "~/server/commerce/index.server";
import { createDatabase, useDatabase } from "~/server/platform/db/client.server";
import { categories, products } from "~/server/platform/db/schema";
import { rememberedRead, rememberedReadEach } from "~/server/platform/http/remembered-reads.server";
import { shareStorefrontChangeLog } from "~/server/platform/http/storefront-changes.server";
import { getRootLogger, requestScope } from "~/server/platform/logger.server";
import { saveSetting } from "~/server/platform/settings/settings.server";
import { makeCategory, makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/**
 * The settings, the returns setting and the category names that every storefront page reads, and
 * a listing's product count and lowest prices, are kept between changes the storefront change log
 * reports, and read again on the request after an owner's change (platform/http/remembered-reads.server.ts).
 */
const t = useTestDatabase();

/** One request: its loaders' reads, under one request scope as the server runs them. */
let requests = 0;
const request = <T>(read: () => Promise<T>) =>
  requestScope.run({ requestId: `r${++requests}`, log: getRootLogger() }, read);
const page = () => request(() => Promise.all([pageSiteSettings(), pageReturnsSetting(), shopCategoryNames()]));

describe("remembered storefront reads", () => {
  let queries: ReturnType<typeof vi.spyOn>;
  beforeAll(() => {
    shareStorefrontChangeLog(() => t.db.$client);
    queries = vi.spyOn(t.db.$client, "query");
  });
  /** Statements sent since the last call, by their text. */
  const sent = () => {
    const texts = queries.mock.calls.map(([q]: unknown[]) => String(typeof q === "string" ? q : (q as { text: string }).text));
    queries.mockClear();
    return texts;
  };
  const checks = (texts: string[]) => texts.filter((q) => q.includes("pg_current_snapshot")).length;

  it("reads each once between changes, with one check of the log per request", async () => {
    const category = await makeCategory(t.db, { name: "Remembered Quilts" });
    sent();
    const [, , names] = await page();
    expect(names).toContain("Remembered Quilts");
    const first = sent();
    expect(checks(first)).toBe(1);
    expect(first.length).toBe(4);

    for (let i = 0; i < 3; i++) {
      const [settings, returns, again] = await page();
      expect(again).toContain("Remembered Quilts");
      expect(returns.withdrawalEnabled).toBe(false);
      expect(settings.site_branding.logo_text).toBeTruthy();
      expect(sent()).toHaveLength(1);
    }
    await t.db.update(categories).set({ active: false }).where(eq(categories.id, category.id));
  });

  it("shows an owner's change on the very next request", async () => {
    await saveSetting(t.db, "site_branding", { logo_text: "Remembered Linens", logo_url: "" });
    expect((await page())[0].site_branding.logo_text).toBe("Remembered Linens");

    await saveReturnsSetting(t.db, { returnWindowDays: 30, withdrawalEnabled: true, withdrawalDays: 14 });
    expect((await page())[1].withdrawalEnabled).toBe(true);

    const category = await makeCategory(t.db, { name: "Remembered Throws" });
    expect((await page())[2]).toContain("Remembered Throws");
    await t.db.update(categories).set({ name: "Remembered Blankets" }).where(eq(categories.id, category.id));
    const names = (await page())[2];
    expect(names).toContain("Remembered Blankets");
    expect(names).not.toContain("Remembered Throws");
  });

  it("a product's stock changing (a checkout) reads none of them again", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 10 });
    await page();
    sent();
    await t.db.update(products).set({ stockQuantity: sql`${products.stockQuantity} - 1` }).where(eq(products.id, product.id));
    sent();
    const [, , names] = await page();
    expect(names.length).toBeGreaterThan(0);
    const texts = sent();
    expect(texts).toHaveLength(1);
    expect(checks(texts)).toBe(1);
  });

  describe("a listing's count and lowest prices", () => {
    const listing = () =>
      request(() => listShopProducts(t.db, { search: "", category: null, sort: DEFAULT_SORT }, { offset: 0, limit: 500 }, shopListingReads));
    const kinds = (texts: string[]) => ({
      counts: texts.filter((q) => q.includes("product_counts")).length,
      lowest: texts.filter((q) => q.includes("price_history")).length,
    });

    it("are read once between changes, and again once a price or the catalogue changes", async () => {
      const reduced = await makeProduct(t.db, { priceCents: 6000, originalPriceCents: 9000 });
      await t.db.execute(sql`insert into price_history (product_id, price_cents, original_price_cents, from_at) values
        (${reduced.id}, 7000, null, now() - interval '20 days'), (${reduced.id}, 6000, 9000, now() - interval '2 days')`);
      const other = await makeProduct(t.db, {});
      sent();
      const first = await listing();
      expect(first.items.find((c) => c.id === reduced.id)?.lowestPriceCents).toBe(7000);
      expect(kinds(sent())).toEqual({ counts: 1, lowest: 1 });

      const again = await listing();
      expect(again.total).toBe(first.total);
      expect(again.items.find((c) => c.id === reduced.id)?.lowestPriceCents).toBe(7000);
      expect(kinds(sent())).toEqual({ counts: 0, lowest: 0 });

      // A checkout takes stock: neither is read again.
      await t.db.update(products).set({ stockQuantity: sql`${products.stockQuantity} - 1` }).where(eq(products.id, other.id));
      await listing();
      expect(kinds(sent())).toEqual({ counts: 0, lowest: 0 });

      // A deeper reduction today: the 6,000 of the last two days is now the lowest before it.
      await t.db.transaction(async (tx) => {
        await tx.update(products).set({ priceCents: 5000 }).where(eq(products.id, reduced.id));
        await tx.execute(sql`insert into price_history (product_id, price_cents, original_price_cents) values (${reduced.id}, 5000, 9000)`);
      });
      const repriced = await listing();
      expect(repriced.items.find((c) => c.id === reduced.id)?.lowestPriceCents).toBe(6000);

      // A product switched off leaves the count on the very next request.
      await t.db.update(products).set({ active: false }).where(eq(products.id, other.id));
      expect((await listing()).total).toBe(first.total - 1);
    });

    it("a search's lowest prices wait for its transaction to end: it completes on a pool of one connection", async () => {
      const reduced = await makeProduct(t.db, { name: "Solitary Pool Throw", priceCents: 4000, originalPriceCents: 5000 });
      await t.db.execute(sql`insert into price_history (product_id, price_cents, original_price_cents, from_at) values
        (${reduced.id}, 4500, null, now() - interval '10 days'), (${reduced.id}, 4000, 5000, now() - interval '1 day')`);
      // The storefront's reads on a pool of one: a second connection taken while the search's
      // transaction holds the first would wait until the pool gives up.
      const one = createDatabase(t.url, 1, 2000);
      useDatabase(one, t.url);
      try {
        const found = await request(() =>
          listShopProducts(one, { search: "solitary pool", category: null, sort: DEFAULT_SORT }, { offset: 0, limit: 24 }, shopListingReads),
        );
        expect(found.items.map((c) => [c.name, c.lowestPriceCents])).toEqual([["Solitary Pool Throw", 4500]]);
      } finally {
        useDatabase(t.db, t.url);
        await one.$client.end();
      }
    });

    it("a per-item read that failed is not kept", async () => {
      let calls = 0;
      const read = () =>
        request(() =>
          rememberedReadEach("flaky-each", ["a", "b"], async (ids) => {
            calls++;
            if (calls === 1) throw new Error("connection lost");
            return new Map(ids.map((id) => [id, `${id}${calls}`]));
          }),
        );
      await expect(read()).rejects.toThrow("connection lost");
      expect(Object.fromEntries(await read())).toEqual({ a: "a2", b: "b2" });
      expect(Object.fromEntries(await read())).toEqual({ a: "a2", b: "b2" });
    });
  });

  it("a read that failed is not kept: the next request reads again", async () => {
    let calls = 0;
    const flaky = () =>
      request(() =>
        rememberedRead("flaky", async () => {
          calls++;
          if (calls === 1) throw new Error("connection lost");
          return calls;
        }),
      );
    await expect(flaky()).rejects.toThrow("connection lost");
    expect(await flaky()).toBe(2);
    expect(await flaky()).toBe(2);
  });
});
