import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { blogPosts, products, session, siteSettings } from "~/server/platform/db/schema";
import { makePost } from "../factories/posts";
import { makeProduct } from "../factories/products";
import { asAdmin, makeCustomer, signInPageAs } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, scriptsRefusedByCsp, toast } from "./page-helpers";

/**
 * Visitors without cookies get storefront pages from the page cache, and every write that
 * changes what a page shows takes effect on the very next request.
 */
describe("the storefront page cache", () => {
  const shop = useShop();

  async function get(path: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${shop.baseUrl}${path}`, { headers: { "accept-encoding": "gzip", ...headers } });
    return { status: res.status, cache: res.headers.get("x-page-cache"), csp: res.headers.get("content-security-policy") ?? "", html: await res.text() };
  }

  it("serves the second visit from the cache, with only the rendering's own scripts allowed, by hash", async () => {
    await makeProduct(shop.db, { name: "Cached Alpaca Throw", priceCents: 8900 });
    const first = await get("/shop?search=alpaca");
    expect(first.cache).toBe("miss");
    expect(first.csp).toMatch(/'nonce-/);
    const second = await get("/shop?search=alpaca");
    expect(second.cache).toBe("hit");
    expect(second.html).toBe(first.html);
    expect(second.csp).not.toMatch(/'nonce-/);
    expect(second.csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(scriptsRefusedByCsp(second.html, second.csp)).toEqual([]);
    expect(second.html).toContain("Cached Alpaca Throw");
  });

  it("answers a browser that accepts brotli with the cached page's brotli copy once it is made (from its first hit), and gzip before", async () => {
    await makeProduct(shop.db, { name: "Brotli Linen Sheet", priceCents: 6400 });
    const first = await get("/shop?search=brotli");
    expect(first.cache).toBe("miss");
    // A page asked for once gets no copy: nothing else asks for it, so nothing else compresses it.
    await new Promise((r) => setTimeout(r, 500));
    const once = await fetch(`${shop.baseUrl}/shop?search=brotli`, { headers: { "accept-encoding": "br, gzip" } });
    expect(once.headers.get("content-encoding")).toBe("gzip");
    await once.arrayBuffer();
    // The copy is made in the background on the page's first hit; until then gzip answers.
    let encoding: string | null = null;
    let body = "";
    for (let attempt = 0; attempt < 50 && encoding !== "br"; attempt++) {
      const res = await fetch(`${shop.baseUrl}/shop?search=brotli`, { headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(res.headers.get("x-page-cache")).toBe("hit");
      encoding = res.headers.get("content-encoding");
      expect(["gzip", "br"]).toContain(encoding);
      body = await res.text();
      if (encoding !== "br") await new Promise((r) => setTimeout(r, 100));
    }
    expect(encoding).toBe("br");
    expect(body).toBe(first.html);
    expect(body).toContain("Brotli Linen Sheet");
    // A client without brotli still gets gzip, and one without either the plain page.
    const gz = await fetch(`${shop.baseUrl}/shop?search=brotli`, { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    const plain = await fetch(`${shop.baseUrl}/shop?search=brotli`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(first.html);
  });

  it("shows a changed price, name or setting on the very next request", async () => {
    const p = await makeProduct(shop.db, { name: "Velvet Cushion Before", priceCents: 3000 });
    await get(`/product/${p.id}`);
    expect((await get(`/product/${p.id}`)).cache).toBe("hit");
    await get("/shop?search=velvet");

    await shop.db.update(products).set({ name: "Velvet Cushion After", priceCents: 3500 }).where(eq(products.id, p.id));
    const page = await get(`/product/${p.id}`);
    expect(page.cache).toBe("miss");
    expect(page.html).toContain("Velvet Cushion After");
    expect(page.html).toContain("$35.00");
    const listing = await get("/shop?search=velvet");
    expect(listing.cache).toBe("miss");
    expect(listing.html).toContain("Velvet Cushion After");

    await get("/");
    await shop.db.insert(siteSettings).values({ settingKey: "site_branding", settingValue: { logo_text: "Freshly Saved Brand" } });
    expect((await get("/")).html).toContain("Freshly Saved Brand");
    await shop.db.delete(siteSettings);
    expect((await get("/")).html).not.toContain("Freshly Saved Brand");
  });

  it("refreshes a product's page when only its stock changes, and leaves listings cached", async () => {
    const p = await makeProduct(shop.db, { name: "Stock Count Blanket", stockQuantity: 12 });
    await get(`/product/${p.id}`);
    await get("/shop?search=stock+count");
    expect((await get("/shop?search=stock+count")).cache).toBe("hit");

    await shop.db.update(products).set({ stockQuantity: 11 }).where(eq(products.id, p.id));
    const page = await get(`/product/${p.id}`);
    expect(page.cache).toBe("miss");
    expect(page.html).toContain("In stock: 11 available");
    // A card only shows whether the product can be bought, which has not changed.
    expect((await get("/shop?search=stock+count")).cache).toBe("hit");

    // Selling the last unit changes the card (Add to Cart disabled): listings render again.
    await shop.db.update(products).set({ stockQuantity: 0 }).where(eq(products.id, p.id));
    expect((await get("/shop?search=stock+count")).cache).toBe("miss");
    expect((await get(`/product/${p.id}`)).html).toContain("Out of stock");
  });

  it("answers 404 at once for a post that was unpublished after its page was cached", async () => {
    const post = await makePost(shop.db, { slug: "cached-then-hidden", published: true });
    await get(`/blog/${post.slug}`);
    expect((await get(`/blog/${post.slug}`)).cache).toBe("hit");
    await shop.db.update(blogPosts).set({ published: false }).where(eq(blogPosts.id, post.id));
    expect((await get(`/blog/${post.slug}`)).status).toBe(404);
    // A 404 is never kept.
    expect((await get(`/blog/${post.slug}`)).cache).toBe("miss");
  });

  it("answers signed-in visitors from the rendering of their kind: an admin's header has Admin, a customer's My account, and a signed-out visitor's Sign in", async () => {
    await get("/");
    expect((await get("/")).cache).toBe("hit");
    // A cookie the shop does not know: the page renders for itself, as before.
    expect((await get("/", { cookie: "anything=1" })).cache).toBeNull();

    const admin = await asAdmin(shop);
    expect((await admin.goto("/"))?.headers()["x-page-cache"]).toBe("miss");
    const again = await admin.goto("/");
    expect(again?.headers()["x-page-cache"]).toBe("hit");
    expect(again?.headers()["cache-control"]).toContain("no-store");
    await admin.getByRole("banner").getByRole("link", { name: "Admin" }).waitFor();

    const customer = await shop.newPage();
    await signInPageAs(shop, customer, await makeCustomer(shop.db));
    expect((await customer.goto("/"))?.headers()["x-page-cache"]).toBe("miss");
    const other = await shop.newPage();
    await signInPageAs(shop, other, await makeCustomer(shop.db));
    expect((await other.goto("/"))?.headers()["x-page-cache"]).toBe("hit");
    const banner = other.getByRole("banner");
    await banner.getByRole("link", { name: "My account" }).waitFor();
    expect(await banner.getByRole("link", { name: "Admin" }).count()).toBe(0);

    // Signed out (the session is gone): its cookie no longer finds a rendering of its kind, and
    // the page renders for itself on the very next request. Asked with the cookie as it was: the
    // browser's own next request may carry none, once a background request of the page has had
    // the shop clear it (then it is simply the anonymous page, from the cache).
    const sessionCookie = (await other.context().cookies())
      .filter((c) => c.name.includes("session_token"))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
    expect(sessionCookie).not.toBe("");
    await shop.db.delete(session);
    expect((await get("/", { cookie: sessionCookie })).cache).toBeNull();
    await other.goto("/");
    await other.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
  });

  it("hydrates a page served from the cache without a refused script, and it works", async () => {
    const p = await makeProduct(shop.db, { name: "Hydrated Cache Pillow" });
    await get(`/product/${p.id}`);
    const page = await shop.newPage();
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(e.message));
    const res = await page.goto(`/product/${p.id}`);
    expect(res?.headers()["x-page-cache"]).toBe("hit");
    await hydrated(page);
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await toast(page, "Hydrated Cache Pillow has been added to your cart.").waitFor();
    expect(errors).toEqual([]);
  });

  it("serves a client-side navigation's data request from the cache too, and refreshes it on the next change", async () => {
    const p = await makeProduct(shop.db, { name: "Data Request Quilt", priceCents: 12000 });
    const first = await get("/shop.data?search=data+request");
    expect(first.status).toBe(200);
    expect(first.cache).toBe("miss");
    const second = await get("/shop.data?search=data+request");
    expect(second.cache).toBe("hit");
    expect(second.html).toBe(first.html);
    expect(second.html).toContain("Data Request Quilt");

    await shop.db.update(products).set({ name: "Data Request Quilt Renamed" }).where(eq(products.id, p.id));
    const after = await get("/shop.data?search=data+request");
    expect(after.cache).toBe("miss");
    expect(after.html).toContain("Data Request Quilt Renamed");

    // A product's own data request goes stale with its stock, like its page.
    await get(`/product/${p.id}.data`);
    expect((await get(`/product/${p.id}.data`)).cache).toBe("hit");
    await shop.db.update(products).set({ stockQuantity: 3 }).where(eq(products.id, p.id));
    expect((await get(`/product/${p.id}.data`)).cache).toBe("miss");
    // With cookies, never from the cache.
    expect((await get("/shop.data?search=data+request", { cookie: "anything=1" })).cache).toBeNull();
  });

  it("navigates client-side from a cached page through cached data requests, showing the same shop", async () => {
    await makeProduct(shop.db, { name: "Navigated Linen Sheet" });
    const page = await shop.newPage();
    const dataAnswers: (string | undefined)[] = [];
    page.on("response", (r) => {
      if (new URL(r.url()).pathname === "/shop.data") dataAnswers.push(r.headers()["x-page-cache"]);
    });
    for (let visit = 0; visit < 2; visit++) {
      await page.goto("/");
      await hydrated(page);
      await page.getByRole("banner").getByRole("link", { name: "Shop", exact: true }).click();
      await page.waitForURL((u) => u.pathname === "/shop");
      await page.getByText("Navigated Linen Sheet").first().waitFor();
    }
    expect(dataAnswers).toEqual(["miss", "hit"]);
  });
});
