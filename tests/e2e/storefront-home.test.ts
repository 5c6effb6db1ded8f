import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { siteSettings } from "~/server/platform/db/schema";
import { makeProduct, makeProducts } from "../factories/products";
import { asCustomer } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, slow } from "./page-helpers";

const shop = useShop();

// A fresh server's first render is slow on a busy machine; take it here, not inside a test's timeout.
beforeAll(async () => {
  await fetch(`${shop.baseUrl}/`);
});

const cards = (page: Page) => page.getByRole("list", { name: "Products" }).getByRole("article");
const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

describe("home page", () => {
  // Runs first: the database is still empty.
  it("says how to fill an empty catalogue", async () => {
    const page = await shop.newPage();
    await page.goto("/");
    await page.getByText("No products found. Import your CSV file to get started!").waitFor();
    expect(await page.getByRole("button", { name: "Load More" }).count()).toBe(0);
  });

  it("shows hero, featured products, benefits and footer in that order, texts from settings with field-by-field fallback", async () => {
    await shop.db.insert(siteSettings).values([
      // A saved title, a malformed subtitle (a number) and no description: only the title changes.
      { settingKey: "hero_section", settingValue: { title: "Rest Like Never Before", subtitle: 42 } },
      { settingKey: "site_branding", settingValue: { logo_text: "Moonlit Linen" } },
      { settingKey: "theme_colors", settingValue: { primary: "hsl(12, 80%, 40%)", secondary: "not a colour" } },
    ]);
    await makeProduct(shop.db, { name: "Order Check Pillow" });
    const page = await shop.newPage();
    await page.goto("/");
    const hero = page.getByRole("heading", { level: 1, name: "Rest Like Never Before" });
    await hero.waitFor();
    await page.getByText("Premium bedding and home essentials").waitFor();
    await page.getByText("Discover breathable linens").waitFor();
    expect(await page.getByRole("banner").getByRole("link", { name: "Moonlit Linen" }).count()).toBe(1);
    for (const name of ["Shop Now", "Browse Collection"]) {
      expect(await page.getByRole("link", { name }).getAttribute("href")).toBe("/shop");
    }
    const style = await page.evaluate(() => ({
      primary: document.documentElement.style.getPropertyValue("--primary"),
      secondary: document.documentElement.style.getPropertyValue("--secondary"),
    }));
    expect(style).toEqual({ primary: "hsl(12, 80%, 40%)", secondary: "hsl(220, 20%, 90%)" });

    const y = async (text: string) => (await page.getByText(text, { exact: true }).first().boundingBox())!.y;
    const order = [
      await y("Rest Like Never Before"),
      await y("Featured Products"),
      await y("Order Check Pillow"),
      await y("Free Shipping"),
      await y("Contact Us"),
    ];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // A fresh shop ships free everywhere ('Everywhere' zone, free 'Standard' rate): docs/rules/storefront.md.
    for (const text of ["On every order", "100 Night Trial", "Eco-Friendly", "Premium Quality"]) {
      await page.getByText(text).first().waitFor();
    }
    expect(await page.getByRole("contentinfo").getByRole("link", { name: "Contact Us" }).getAttribute("href")).toBe("/contact");
    await shop.db.delete(siteSettings);
  });

  it("lists 15 featured products first, then newest, and 'Load More' adds 15 until fewer return", async () => {
    const now = Date.now();
    await makeProducts(shop.db, 24, (i) => ({
      name: `Featured Test ${String(i).padStart(2, "0")}`,
      featured: i === 23,
      active: i !== 22,
      createdAt: new Date(now - (i + 1) * 60_000),
    }));
    // The first Load More also loads the card code: 30 s a step on a busy machine.
    const page = slow(await shop.newPage());
    await page.goto("/");
    await hydrated(page);
    await expect(cards(page).count()).resolves.toBe(15);
    const first = await cards(page).nth(0).getByRole("heading").textContent();
    expect(first).toBe("Featured Test 23");
    await page.getByRole("button", { name: "Load More" }).click();
    // 24 active products in all: 23 made here (one is inactive) and one from the test above.
    await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Products"] article').length === 24);
    await page.getByRole("button", { name: "Load More" }).waitFor({ state: "detached" });
    expect(await page.getByText("Featured Test 22").count()).toBe(0);
  });

  it("loads more without JavaScript too", async () => {
    const page = await shop.newPage();
    const context = await page.context().browser()!.newContext({ baseURL: shop.baseUrl, javaScriptEnabled: false });
    const noJs = await context.newPage();
    await noJs.goto("/");
    expect(await cards(noJs).count()).toBe(15);
    await noJs.getByRole("button", { name: "Load More" }).click();
    await noJs.waitForURL((u) => u.searchParams.get("page") === "2");
    expect(await cards(noJs).count()).toBe(24);
    expect(await noJs.getByRole("button", { name: "Load More" }).count()).toBe(0);
    await context.close();
  });
});

describe("product card", () => {
  it("shows image, name, price, struck original only when higher, rating, 3 colour dots then '+N colors'", async () => {
    const sale = await makeProduct(shop.db, {
      name: "Card Sale Duvet",
      priceCents: 12900,
      originalPriceCents: 15900,
      rating: 4.5,
      reviewCount: 31,
      colors: ["White", "Sage", "Navy", "Rust", "Clay"],
      imageUrl: "not a url, /media/seed/none.webp",
      featured: true,
    });
    const plain = await makeProduct(shop.db, {
      name: "Card Plain Sheet",
      priceCents: 5000,
      originalPriceCents: 4000,
      colors: ["White", "Sage"],
      imageUrl: "",
      featured: true,
    });
    const page = await shop.newPage();
    await page.goto("/");
    const saleCard = cards(page).filter({ hasText: "Card Sale Duvet" });
    await saleCard.waitFor();
    await saleCard.getByText("$129.00").waitFor();
    expect(await saleCard.locator("s").textContent()).toContain("$159.00");
    await saleCard.getByRole("img", { name: "Rated 4.5 out of 5, 31 reviews" }).waitFor();
    expect(await saleCard.getByTestId("color-dot").count()).toBe(3);
    await saleCard.getByText("+2 colors").waitFor();
    expect(await saleCard.locator("img").first().getAttribute("src")).toBe("/media/seed/none.webp");
    // Our own uploads come in sizes to suit the screen.
    expect(await saleCard.locator("img").first().getAttribute("srcset")).toBe(
      "/resized/320/seed/none.webp 320w, /resized/640/seed/none.webp 640w, /resized/960/seed/none.webp 960w",
    );
    expect(await saleCard.getByRole("link", { name: "Card Sale Duvet" }).getAttribute("href")).toBe(`/product/${sale.id}`);

    const plainCard = cards(page).filter({ hasText: "Card Plain Sheet" });
    await plainCard.getByText("$50.00").waitFor();
    expect(await plainCard.locator("s").count()).toBe(0);
    expect(await plainCard.getByTestId("color-dot").count()).toBe(2);
    expect(await plainCard.getByText(/\+\d+ colors/).count()).toBe(0);
    const img = plainCard.locator("img").first();
    expect(await img.getAttribute("src")).toBe("/images/product-placeholder.svg");
    expect(await img.getAttribute("width")).toBe("600");
    expect(await img.getAttribute("height")).toBe("600");
    expect(await img.getAttribute("loading")).toBe("lazy");
    expect((await fetch(`${shop.baseUrl}/images/product-placeholder.svg`)).status).toBe(200);

    await plainCard.getByRole("link", { name: "Card Plain Sheet" }).click();
    await page.waitForURL(`**/product/${plain.id}`);
  });

  it("disables Add to Cart when stock is limited and zero; adds to the cart with a toast otherwise", async () => {
    await makeProduct(shop.db, { name: "Sold Out Sham", stockQuantity: 0, unlimitedStock: false, featured: true });
    await makeProduct(shop.db, { name: "Endless Throw", stockQuantity: 0, unlimitedStock: true, featured: true });
    const page = await shop.newPage();
    await page.goto("/");
    await hydrated(page);
    const soldOut = cards(page).filter({ hasText: "Sold Out Sham" }).getByRole("button", { name: "Add to Cart" });
    expect(await soldOut.isDisabled()).toBe(true);

    const endless = cards(page).filter({ hasText: "Endless Throw" }).getByRole("button", { name: "Add to Cart" });
    expect(await endless.isEnabled()).toBe(true);
    await endless.click();
    await toast(page, "Added to Cart").waitFor();
    await toast(page, "Endless Throw has been added to your cart.").waitFor();
    await page.getByRole("banner").getByRole("link", { name: "Cart, 1 item" }).waitFor();
    await endless.click();
    await page.getByRole("banner").getByRole("link", { name: "Cart, 2 items" }).waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("shopping-cart") ?? "[]"));
    expect(stored).toMatchObject([{ name: "Endless Throw", quantity: 2, unlimitedStock: true }]);

    // Shared by every page: the count survives a reload and shows on /shop.
    await page.goto("/shop");
    await page.getByRole("banner").getByRole("link", { name: "Cart, 2 items" }).waitFor();
  });

  it("ignores corrupt cart content instead of crashing", async () => {
    const page = await shop.newPage();
    await page.addInitScript(() => localStorage.setItem("shopping-cart", "{not json"));
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("banner").getByRole("link", { name: "Cart, 0 items" }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe("header", () => {
  it("searches with the trimmed, encoded term; a blank term goes to plain /shop", async () => {
    const page = await shop.newPage();
    await page.goto("/");
    await hydrated(page);
    const box = page.getByRole("banner").getByRole("searchbox", { name: "Search products" });
    await box.fill("  100% linen & wool  ");
    await box.press("Enter");
    await page.waitForURL((u) => u.pathname === "/shop" && u.search === "?search=100%25+linen+%26+wool");
    await page.getByRole("heading", { name: "Shop All Products" }).waitFor();

    await page.goto("/");
    await hydrated(page);
    await page.getByRole("banner").getByRole("searchbox", { name: "Search products" }).fill("   ");
    await page.getByRole("banner").getByRole("searchbox", { name: "Search products" }).press("Enter");
    await page.waitForURL((u) => u.pathname === "/shop" && u.search === "");
  });

  it("links Home, Shop, Blog, Contact, the account icon to /auth or /profile, and the cart", async () => {
    const page = await shop.newPage();
    await page.goto("/");
    const banner = page.getByRole("banner");
    for (const [name, href] of [["Home", "/"], ["Shop", "/shop"], ["Blog", "/blog"], ["Contact", "/contact"]] as const) {
      expect(await banner.getByRole("link", { name, exact: true }).first().getAttribute("href")).toBe(href);
    }
    expect(await banner.getByRole("link", { name: "Admin", exact: true }).count()).toBe(0);
    expect(await banner.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/auth");
    expect(await banner.getByRole("link", { name: /^Cart/ }).getAttribute("href")).toBe("/cart");

    const customer = await asCustomer(shop);
    await customer.goto("/");
    expect(await customer.getByRole("banner").getByRole("link", { name: "My account" }).getAttribute("href")).toBe("/profile");
  });
});
