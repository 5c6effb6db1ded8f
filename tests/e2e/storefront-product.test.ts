import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { makeProduct, makeProducts } from "../factories/products";
import { useShop } from "./harness";
import { hydrated } from "./page-helpers";

const shop = useShop();

// A fresh server's first render is slow on a busy machine; take it here, not inside a test's timeout.
beforeAll(async () => {
  await fetch(`${shop.baseUrl}/`);
});

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
const metaContent = (page: Page, selector: string) => page.locator(selector).first().getAttribute("content");

describe("product page", () => {
  it("shows everything docs/rules/storefront.md lists, a disabled Save, and adds to the cart", async () => {
    const p = await makeProduct(shop.db, {
      name: "Stonewashed Linen Duvet Cover",
      description: "Woven from European flax and stonewashed for a soft hand.",
      category: "Bedding",
      priceCents: 18900,
      originalPriceCents: 22900,
      rating: 4.8,
      reviewCount: 312,
      colors: ["White", "Oatmeal", "Sage", "Charcoal"],
      stockQuantity: 42,
      imageUrl: "https://images.example.test/duvet.jpg https://images.example.test/second.jpg",
    });
    const page = await shop.newPage();
    const res = await page.goto(`/product/${p.id}`);
    expect(res?.status()).toBe(200);
    expect(await page.getByRole("link", { name: "Back to Home" }).getAttribute("href")).toBe("/");
    await page.getByRole("heading", { level: 1, name: "Stonewashed Linen Duvet Cover" }).waitFor();
    expect(await page.getByRole("img", { name: "Stonewashed Linen Duvet Cover" }).getAttribute("src")).toBe(
      "https://images.example.test/duvet.jpg",
    );
    await page.getByText("Bedding", { exact: true }).first().waitFor();
    await page.getByRole("img", { name: "Rated 4.8 out of 5, 312 reviews" }).waitFor();
    await page.getByText("$189.00").waitFor();
    expect(await page.locator("main s").textContent()).toContain("$229.00");
    await page.getByText("Woven from European flax").waitFor();
    for (const c of ["White", "Oatmeal", "Sage", "Charcoal"]) await page.getByRole("listitem").filter({ hasText: c }).waitFor();
    await page.getByText("In stock: 42 available").waitFor();
    expect(await page.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);

    await hydrated(page);
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await toast(page, "Added to Cart").waitFor();
    await toast(page, "Stonewashed Linen Duvet Cover has been added to your cart.").waitFor();
    await page.getByRole("banner").getByRole("link", { name: "Cart, 1 item" }).waitFor();
  });

  it("disables Add to Cart and says so when a limited product is out of stock", async () => {
    const p = await makeProduct(shop.db, { name: "Sold Out Quilt", stockQuantity: 0, unlimitedStock: false });
    const page = await shop.newPage();
    await page.goto(`/product/${p.id}`);
    await page.getByText("Out of stock").first().waitFor();
    expect(await page.getByRole("button", { name: "Add to Cart" }).isDisabled()).toBe(true);
    const unlimited = await makeProduct(shop.db, { name: "Always Candle", stockQuantity: 0, unlimitedStock: true });
    await page.goto(`/product/${unlimited.id}`);
    await page.getByText("In stock", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Add to Cart" }).isEnabled()).toBe(true);
  });

  it("answers 404 with 'Product not found' for an inactive product, an unknown id and a non-id", async () => {
    const inactive = await makeProduct(shop.db, { name: "Retired Rug", active: false });
    const page = await shop.newPage();
    for (const path of [`/product/${inactive.id}`, "/product/6f1c2d3e-0000-4000-8000-000000000000", "/product/not-an-id", "/product/%27%20or%201%3D1"]) {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      await page.getByRole("heading", { name: "Product not found" }).waitFor();
      expect(await page.getByText("Retired Rug").count()).toBe(0);
    }
    await hydrated(page);
    await page.getByRole("link", { name: "Back to Home" }).click();
    await page.waitForURL((u) => u.pathname === "/");
  });
});

describe("SEO", () => {
  it("gives the product page a title, description, Open Graph, canonical URL and JSON-LD Product", async () => {
    const p = await makeProduct(shop.db, {
      name: "Waffle </script> Throw",
      description: "A honeycomb weave throw that traps warmth without weight.",
      priceCents: 1250,
      rating: 4.25,
      reviewCount: 8,
      stockQuantity: 3,
      imageUrl: "/media/seed/throw.webp",
      sku: "THR-001",
    });
    const page = await shop.newPage();
    await page.goto(`/product/${p.id}`);
    expect(await page.title()).toBe("Waffle </script> Throw — Linen & Loft");
    expect(await metaContent(page, 'meta[name="description"]')).toBe("A honeycomb weave throw that traps warmth without weight.");
    expect(await metaContent(page, 'meta[property="og:title"]')).toBe("Waffle </script> Throw — Linen & Loft");
    expect(await metaContent(page, 'meta[property="og:type"]')).toBe("product");
    expect(await metaContent(page, 'meta[property="og:image"]')).toBe(`${shop.baseUrl}/media/seed/throw.webp`);
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${shop.baseUrl}/product/${p.id}`);
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(ld).toMatchObject({
      "@type": "Product",
      name: "Waffle </script> Throw",
      sku: "THR-001",
      image: [`${shop.baseUrl}/media/seed/throw.webp`],
      offers: { "@type": "Offer", price: "12.50", priceCurrency: "USD", availability: "https://schema.org/InStock" },
      aggregateRating: { "@type": "AggregateRating", ratingValue: "4.3", reviewCount: 8 },
    });
    // The name's "</script>" did not end the JSON-LD early: the page still renders below it.
    await page.getByRole("contentinfo").waitFor();
  });

  it("gives / and /shop their own title, description and canonical URL", async () => {
    const page = await shop.newPage();
    await page.goto("/");
    expect(await page.title()).toBe("Linen & Loft — Premium bedding and home essentials");
    expect(await metaContent(page, 'meta[name="description"]')).toContain("Discover breathable linens");
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${shop.baseUrl}/`);
    await page.goto("/shop?category=Bedding&sort=name");
    expect(await page.title()).toBe("Bedding — Shop All Products — Linen & Loft");
    expect(await metaContent(page, 'meta[name="description"]')).toBeTruthy();
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${shop.baseUrl}/shop?category=Bedding`);
    await page.goto("/shop?search=wool");
    expect(await metaContent(page, 'meta[name="robots"]')).toBe("noindex, follow");
  });

  it("serves sitemap.xml with active products only, and robots.txt", async () => {
    const active = await makeProduct(shop.db, { name: "Sitemap Lamp" });
    const inactive = await makeProduct(shop.db, { name: "Sitemap Ghost", active: false });
    const res = await fetch(`${shop.baseUrl}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("xml");
    const xml = await res.text();
    expect(xml).toContain(`<loc>${shop.baseUrl}/product/${active.id}</loc>`);
    expect(xml).toContain(`<loc>${shop.baseUrl}/shop</loc>`);
    expect(xml).not.toContain(inactive.id);
    const robots = await (await fetch(`${shop.baseUrl}/robots.txt`)).text();
    for (const path of ["/admin", "/cart", "/checkout", "/profile", "/auth"]) expect(robots).toContain(`Disallow: ${path}`);
  });
});

describe("layout quality", () => {
  it("fits a 360 px screen on /, /shop and a product page, with sized images lazy below the fold", async () => {
    const [p] = await makeProducts(shop.db, 12, (i) => ({ name: `Narrow Screen Product With A Long Name ${i}`, colors: ["White", "Sage", "Navy", "Rust"] }));
    const page = await shop.newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ["/", "/shop", `/product/${p!.id}`]) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      const unsized = await page.locator("main img:not([width]), main img:not([height])").count();
      expect(unsized, path).toBe(0);
    }
    await page.goto("/shop");
    const loading = await page.locator('ul[aria-label="Products"] img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute("loading")));
    expect(loading.slice(0, 4)).toEqual(["eager", "eager", "eager", "eager"]);
    expect(loading.slice(4).every((l) => l === "lazy")).toBe(true);
  });
});
