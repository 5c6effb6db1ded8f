import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { pageReturnsSetting, pageSiteSettings, shopCategoryNames } from "~/routes/_edge/remembered.server";
import { saveReturnsSetting } from "~/server/commerce/index.server";
import { categories, products } from "~/server/platform/db/schema";
import { rememberedRead } from "~/server/platform/http/remembered-reads.server";
import { shareStorefrontChangeLog } from "~/server/platform/http/storefront-changes.server";
import { getRootLogger, requestScope } from "~/server/platform/logger.server";
import { saveSetting } from "~/server/platform/settings/settings.server";
import { makeCategory, makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/**
 * The settings, the returns setting and the category names that every storefront page reads are
 * kept between changes the storefront change log reports, and read again on the request after
 * an owner's change (platform/http/remembered-reads.server.ts).
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
