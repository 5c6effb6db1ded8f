import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { siteSettings } from "~/server/platform/db/schema";
import { makeProducts } from "../factories/products";
import { useShop } from "./harness";
import { hydrated, slow } from "./page-helpers";

/**
 * The hero, the benefits strip and the product cards are kept as the server drew them
 * (app/components/kept.tsx): a first visit loads none of their code, yet everything in them works,
 * and the browser draws them itself once it has to.
 */
const shop = useShop();

beforeAll(async () => {
  await makeProducts(shop.db, 30, (i) => ({ name: `Kept Card ${i + 1}`, featured: i < 20 }));
  await fetch(`${shop.baseUrl}/`);
});

const KEPT_CODE = /\/assets\/(hero|benefits|product-card|shop-filters)-[\w-]+\.js$/;
const cards = (page: Page) => page.getByRole("list", { name: "Products" }).getByRole("article");

/** Every request the page makes from now on: documents (a full page load) and the kept parts' code. */
function watch(page: Page) {
  const seen = { documents: [] as string[], keptCode: [] as string[] };
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (r.resourceType() === "document") seen.documents.push(path);
    if (KEPT_CODE.test(path)) seen.keptCode.push(path);
  });
  return seen;
}

describe("markup kept as the server drew it", () => {
  it("a first visit to / and /shop loads no hero, benefits, card or filter form code, and the page still works", async () => {
    for (const path of ["/", "/shop"]) {
      const page = slow(await shop.newPage());
      const seen = watch(page);
      await page.goto(path, { waitUntil: "networkidle" });
      await hydrated(page);
      expect(await cards(page).count()).toBeGreaterThan(0);
      expect(seen.keptCode, path).toEqual([]);
    }
  });

  it("the kept hero's button and a kept card's name go to their pages without reloading", async () => {
    const page = slow(await shop.newPage());
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("heading", { level: 1 }).waitFor();
    const seen = watch(page);
    await page.getByRole("link", { name: "Shop Now" }).click();
    await page.getByRole("heading", { level: 1, name: "Shop All Products" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/shop");
    await cards(page).first().waitFor();
    expect(seen.documents).toEqual([]);

    await page.goto("/shop");
    await hydrated(page);
    const name = (await cards(page).nth(2).getByRole("heading", { level: 3 }).textContent())!;
    seen.documents.length = 0;
    await cards(page).nth(2).getByRole("link", { name }).click();
    await page.getByRole("heading", { level: 1, name }).waitFor();
    expect(seen.documents).toEqual([]);
  });

  it("Add to Cart on a kept card adds that product, with its toast and the header's count", async () => {
    const page = slow(await shop.newPage());
    await page.goto("/shop");
    await hydrated(page);
    const card = cards(page).nth(1);
    const name = (await card.getByRole("heading", { level: 3 }).textContent())!;
    await card.getByRole("button", { name: "Add to Cart" }).click();
    await page.locator("[data-sonner-toast]").filter({ hasText: `${name} has been added to your cart.` }).waitFor();
    await expect(page.getByTestId("cart-count").textContent()).resolves.toBe("1");
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("shopping-cart") ?? "[]") as { name: string }[]);
    expect(stored.map((l) => l.name)).toEqual([name]);
  });

  it("draws the hero, the benefits and the cards itself on a page reached by a link, and cards added by Load More", async () => {
    const page = slow(await shop.newPage());
    await page.goto("/shop");
    await hydrated(page);
    const seen = watch(page);
    const first = await cards(page).count();
    await page.getByRole("button", { name: "Load More" }).click();
    await expect.poll(() => cards(page).count(), { timeout: 30_000 }).toBeGreaterThan(first);
    // The new cards are the browser's own: their Add to Cart works as drawn.
    const added = cards(page).nth(first);
    const name = (await added.getByRole("heading", { level: 3 }).textContent())!;
    await added.getByRole("button", { name: "Add to Cart" }).click();
    await page.locator("[data-sonner-toast]").filter({ hasText: `${name} has been added to your cart.` }).waitFor();

    await page.getByRole("banner").getByRole("link", { name: "Home", exact: true }).first().click();
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Why shop with us" }).waitFor({ state: "attached" });
    await expect.poll(() => cards(page).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await page.getByText("100 Night Trial").waitFor();
    expect(seen.documents).toEqual([]);
    expect(seen.keptCode.length).toBeGreaterThan(0);
  });

  it("the kept filter form applies a category at once and a search on Enter, without reloading", async () => {
    const page = slow(await shop.newPage());
    await page.goto("/shop");
    await hydrated(page);
    const seen = watch(page);
    await page.getByRole("search", { name: "Filter products" }).getByLabel("Category").selectOption("Bedding");
    await page.waitForURL((u) => u.search === "?category=Bedding");
    // The new filters are drawn by the browser (their code loads first): type into that form.
    await page.waitForFunction(() => {
      const form = document.querySelector('form[aria-label="Filter products"]');
      return form !== null && Object.keys(form).some((k) => k.startsWith("__reactProps"));
    });
    await page.getByRole("search", { name: "Filter products" }).getByLabel("Search products").fill("  Kept Card 1  ");
    await page.getByRole("search", { name: "Filter products" }).getByLabel("Search products").press("Enter");
    await page.waitForURL((u) => new URL(u).searchParams.get("search") === "Kept Card 1");
    expect(seen.documents).toEqual([]);
  });

  it("keeps the hero and the benefits when the page's data is revalidated (a newsletter sign-up)", async () => {
    const page = slow(await shop.newPage());
    await page.goto("/");
    await hydrated(page);
    const hero = (await page.getByRole("heading", { level: 1 }).textContent())!;
    await page.locator("#newsletter-email").fill("kept-markup@example.test");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Thanks for subscribing!").waitFor();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(hero);
    await page.getByText("100 Night Trial").waitFor();
  });

  it("draws the hero afresh when a revalidation brings new settings: kept markup never hides a saved change", async () => {
    const page = slow(await shop.newPage());
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await shop.db
      .insert(siteSettings)
      .values({ settingKey: "hero_section", settingValue: { title: "Rested And Ready" } })
      .onConflictDoUpdate({ target: siteSettings.settingKey, set: { settingValue: { title: "Rested And Ready" } } });
    await page.locator("#newsletter-email").fill("kept-settings@example.test");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByRole("heading", { level: 1, name: "Rested And Ready" }).waitFor();
    await page.getByText("100 Night Trial").waitFor();
  });
});
