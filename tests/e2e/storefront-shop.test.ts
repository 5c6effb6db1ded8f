import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { makeCategory, makeProduct, makeProducts } from "../factories/products";
import { useShop } from "./harness";
import { hydrated, toast } from "./page-helpers";

const shop = useShop();

// A fresh server's first render is slow on a busy machine; take it here, not inside a test's timeout.
beforeAll(async () => {
  await fetch(`${shop.baseUrl}/shop`);
});

const cards = (page: Page) => page.getByRole("list", { name: "Products" }).getByRole("article");
const cardNames = (page: Page) => cards(page).getByRole("heading").allTextContents();
const filters = (page: Page) => page.getByRole("search", { name: "Filter products" });
const count = (page: Page) => page.getByRole("status").filter({ hasText: /found/ });
const clearFilters = (page: Page) => page.getByRole("button", { name: "Clear Filters" });

async function noJsPage(): Promise<Page> {
  const page = await shop.newPage();
  const context = await page.context().browser()!.newContext({ baseURL: shop.baseUrl, javaScriptEnabled: false });
  return context.newPage();
}

// One catalogue for the file: 30 Bedding (two of them featured), 3 Decor, and hidden products.
// Every shop starts with the fixed categories (Accessories, Bedding, Decor, Furniture, Imported).
beforeAll(async () => {
  await makeCategory(shop.db, { name: "Retired", active: false });
  const now = Date.now();
  await makeProducts(shop.db, 30, (i) => ({
    name: `Bedding Item ${String(i).padStart(2, "0")}`,
    category: "Bedding",
    priceCents: 1000 + i * 100,
    featured: i === 5 || i === 6,
    createdAt: new Date(now - i * 60_000),
  }));
  await makeProduct(shop.db, { name: "Linen Duvet Cover", category: "Decor", priceCents: 50_000, rating: 4.9 });
  await makeProduct(shop.db, { name: "Brass Table Lamp", category: "Decor", priceCents: 100, rating: 2.1 });
  await makeProduct(shop.db, { name: "100% Wool Throw", category: "Decor", priceCents: 9000, rating: 3.3 });
  await makeProduct(shop.db, { name: "Hidden Duvet", category: "Decor", active: false });
  await makeProduct(shop.db, { name: "Retired Vase", category: "Retired", active: false });
});

describe("/shop", () => {
  it("shows the heading, the total found, 24 cards and 'Load More' for the rest", async () => {
    const page = await shop.newPage();
    await page.goto("/shop");
    await page.getByRole("heading", { level: 1, name: "Shop All Products" }).waitFor();
    expect(await count(page).textContent()).toBe("33 products found");
    expect(await cards(page).count()).toBe(24);
    expect(await clearFilters(page).count()).toBe(0);
    expect((await cardNames(page)).slice(0, 2)).toEqual(["Bedding Item 05", "Bedding Item 06"]);
    await hydrated(page);
    await page.getByRole("button", { name: "Load More" }).click();
    await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Products"] article').length === 33);
    await page.getByRole("button", { name: "Load More" }).waitFor({ state: "detached" });
    expect(new Set(await cardNames(page)).size).toBe(33);
    expect(await page.getByText("Hidden Duvet").count()).toBe(0);
  });

  it("says 'Failed to load products' when the next page cannot be loaded, and keeps the grid and the button", async () => {
    const page = await shop.newPage();
    await page.route("**/api/products?**", (route) => route.fulfill({ status: 503, body: "down" }));
    await page.goto("/shop");
    await hydrated(page);
    await page.getByRole("button", { name: "Load More" }).click();
    await toast(page, "Error").waitFor();
    await toast(page, "Failed to load products").waitFor();
    expect(await cards(page).count()).toBe(24);
    await page.getByRole("heading", { level: 1, name: "Shop All Products" }).waitFor();
    // Once the server answers again, the same button loads the page.
    await page.unroute("**/api/products?**");
    await page.getByRole("button", { name: "Load More" }).click();
    await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Products"] article').length === 33);
  });

  it("offers active categories only and writes category to the URL, omitting 'all'", async () => {
    const page = await shop.newPage();
    await page.goto("/shop");
    await hydrated(page);
    const category = filters(page).getByLabel("Category");
    expect(await category.locator("option").allTextContents()).toEqual([
      "All Categories",
      "Accessories",
      "Bedding",
      "Decor",
      "Furniture",
      "Imported",
    ]);
    await category.selectOption("Decor");
    await page.waitForURL((u) => u.search === "?category=Decor");
    await page.getByText("3 products found", { exact: true }).waitFor();
    expect((await cardNames(page)).sort()).toEqual(["100% Wool Throw", "Brass Table Lamp", "Linen Duvet Cover"]);
    await clearFilters(page).waitFor();
    await filters(page).getByLabel("Category").selectOption("all");
    await page.waitForURL((u) => u.pathname === "/shop" && u.search === "");
    await page.getByText("33 products found", { exact: true }).waitFor();
  });

  it("sorts by each order and writes sort to the URL, omitting 'featured'", async () => {
    const page = await shop.newPage();
    await page.goto("/shop?category=Decor");
    await hydrated(page);
    const sort = filters(page).getByLabel("Sort by");
    expect(await sort.locator("option").allTextContents()).toEqual([
      "Featured",
      "Name A-Z",
      "Price: Low to High",
      "Price: High to Low",
      "Highest Rated",
    ]);
    const expectations = [
      ["name", ["100% Wool Throw", "Brass Table Lamp", "Linen Duvet Cover"]],
      ["price-low", ["Brass Table Lamp", "100% Wool Throw", "Linen Duvet Cover"]],
      ["price-high", ["Linen Duvet Cover", "100% Wool Throw", "Brass Table Lamp"]],
      ["rating", ["Linen Duvet Cover", "100% Wool Throw", "Brass Table Lamp"]],
    ] as const;
    for (const [value, names] of expectations) {
      await filters(page).getByLabel("Sort by").selectOption(value);
      await page.waitForURL((u) => u.search === `?category=Decor&sort=${value}`);
      await page.waitForFunction((first) => document.querySelector('ul[aria-label="Products"] h3')?.textContent === first, names[0]);
      expect(await cardNames(page)).toEqual(names);
    }
    await filters(page).getByLabel("Sort by").selectOption("featured");
    await page.waitForURL((u) => u.search === "?category=Decor");
  });

  it("searches case-insensitively, literally and with typo tolerance, and clears filters", async () => {
    const page = await shop.newPage();
    await page.goto("/shop");
    await hydrated(page);
    const box = filters(page).getByRole("searchbox", { name: "Search products" });
    await box.fill("  LINEN duvet ");
    await box.press("Enter");
    await page.waitForURL((u) => u.search === "?search=LINEN+duvet");
    await page.getByText("1 product found", { exact: true }).waitFor();
    expect(await cardNames(page)).toEqual(["Linen Duvet Cover"]);
    await clearFilters(page).click();
    await page.waitForURL((u) => u.pathname === "/shop" && u.search === "");
    await page.getByText("33 products found", { exact: true }).waitFor();
    expect(await filters(page).getByRole("searchbox").inputValue()).toBe("");
    expect(await clearFilters(page).count()).toBe(0);

    await page.goto("/shop?search=duvte");
    expect(await cardNames(page)).toEqual(["Linen Duvet Cover"]);
    await page.goto("/shop?search=100%25");
    expect(await cardNames(page)).toEqual(["100% Wool Throw"]);
    await page.goto("/shop?search=_");
    await page.getByText("0 products found", { exact: true }).waitFor();
    await page.getByText("No products match your search or filters.").waitFor();
  });

  it("keeps 'Load More' where a shopper jumped to it, at phone and desktop widths, with and without JavaScript", async () => {
    // A jump (End, the scrollbar, Tab to the button) passes cards the browser has not drawn yet;
    // drawing them then must not move the button out from under the pointer, or off the screen.
    const js = await shop.newPage();
    const plain = await noJsPage();
    for (const page of [js, plain]) {
      for (const [width, height] of [[412, 823], [1280, 720]] as const) {
        await page.setViewportSize({ width, height });
        await page.goto("/shop");
        const button = page.getByRole("button", { name: "Load More" });
        // Where the jump put it, read before the browser draws the next frame.
        const at = await button.evaluate((el) => (el.scrollIntoView({ block: "end" }), el.getBoundingClientRect().top));
        // Sampled from here, not with the page's animation frames: those do not run without JavaScript.
        const moves: number[] = [];
        for (let i = 0; i < 10; i++) {
          await page.waitForTimeout(50);
          const y = (await button.boundingBox())!.y;
          if (Math.round(y - at) !== 0) moves.push(Math.round(y - at));
        }
        expect(moves, `${width} px, ${page === js ? "with" : "without"} JavaScript`).toEqual([]);
      }
    }
    await plain.close();
  });

  it("keeps the URL's search, category and sort when the page is opened directly", async () => {
    const page = await shop.newPage();
    await page.goto("/shop?search=item+2&category=Bedding&sort=price-high");
    expect(await filters(page).getByRole("searchbox").inputValue()).toBe("item 2");
    expect(await filters(page).getByLabel("Category").inputValue()).toBe("Bedding");
    expect(await filters(page).getByLabel("Sort by").inputValue()).toBe("price-high");
    expect((await cardNames(page))[0]).toBe("Bedding Item 29");
    await clearFilters(page).waitFor();
  });

  it("falls back to the defaults for garbage category and sort, and takes a 1,000-character term", async () => {
    const page = await shop.newPage();
    const res = await page.goto("/shop?category=%3Cscript%3Ealert(1)%3C%2Fscript%3E&sort=DROP%20TABLE");
    expect(res?.status()).toBe(200);
    expect(new URL(page.url()).search).toBe("");
    await page.getByText("33 products found", { exact: true }).waitFor();

    const long = `/shop?search=${"x".repeat(1000)}`;
    const res2 = await page.goto(long);
    expect(res2?.status()).toBe(200);
    await page.getByText("0 products found", { exact: true }).waitFor();
  });

  it("works without JavaScript: the GET form ends on the same URLs, and Load More renders the next page", async () => {
    const page = await noJsPage();
    await page.goto("/shop");
    await filters(page).getByLabel("Category").selectOption("Bedding");
    await filters(page).getByRole("button", { name: "Apply" }).click();
    await page.waitForURL((u) => u.search === "?category=Bedding");
    await page.getByText("30 products found", { exact: true }).waitFor();
    expect(await cards(page).count()).toBe(24);
    await page.getByRole("button", { name: "Load More" }).click();
    await page.waitForURL((u) => u.search === "?category=Bedding&page=2");
    expect(await cards(page).count()).toBe(30);
    await clearFilters(page).click();
    await page.waitForURL((u) => u.pathname === "/shop" && u.search === "");

    await page.getByRole("banner").getByRole("searchbox", { name: "Search products" }).fill("   ");
    await page.getByRole("banner").getByRole("searchbox", { name: "Search products" }).press("Enter");
    await page.waitForURL((u) => u.pathname === "/shop" && u.search === "");
    await page.close();
  });
});
