import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { saveLowestPriceSetting } from "~/server/catalog/index.server";
import { makeProduct } from "../factories/products";
import { useShop } from "./harness";

/**
 * A reduced product says its lowest price of the 30 days before the reduction began
 * (docs/rules/lowest-price.md) on its page, on its card and in its JSON-LD; turning the setting
 * off takes it away on the next visit, cached pages included.
 */
describe("the 30-day lowest price beside a reduction", () => {
  const shop = useShop();
  const LINE = "Lowest price in the last 30 days: $75.00";

  it("shows on the product page, its card and the JSON-LD Offer, and goes when the owner turns it off", async () => {
    const p = await makeProduct(shop.db, { name: "Omnibus Wool Blanket", priceCents: 6000, originalPriceCents: 9000 });
    // Its history: $90.00 until 20 days ago, $75.00 until the reduction to $60.00 two days ago.
    await shop.db.execute(sql`insert into price_history (product_id, price_cents, original_price_cents, from_at) values
      (${p.id}, 9000, null, now() - interval '60 days'),
      (${p.id}, 7500, null, now() - interval '20 days'),
      (${p.id}, 6000, 9000, now() - interval '2 days')`);

    const page = await shop.newPage();
    await page.goto(`/product/${p.id}`);
    await page.getByRole("heading", { level: 1, name: "Omnibus Wool Blanket" }).waitFor();
    await page.getByText(LINE, { exact: true }).waitFor();
    const ld = await page.locator('script[type="application/ld+json"]').first().textContent();
    const offer = (JSON.parse(ld!) as { offers: { price: string; description?: string } }).offers;
    expect(offer).toMatchObject({ price: "60.00", description: LINE });

    await page.goto("/shop?search=omnibus");
    const card = page.locator("article", { has: page.getByRole("link", { name: "Omnibus Wool Blanket" }) });
    await card.getByText(LINE, { exact: true }).waitFor();
    expect(await card.getByText("$60.00").count()).toBeGreaterThan(0);

    await saveLowestPriceSetting(shop.db, { showBesideReductions: false });
    await page.goto(`/product/${p.id}`);
    await page.getByRole("heading", { level: 1, name: "Omnibus Wool Blanket" }).waitFor();
    expect(await page.getByText(LINE).count()).toBe(0);
    const after = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!) as { offers: { description?: string } };
    expect(after.offers.description).toBeUndefined();
    await page.goto("/shop?search=omnibus");
    await page.getByRole("link", { name: "Omnibus Wool Blanket" }).waitFor();
    expect(await page.getByText(LINE).count()).toBe(0);
  });
});
