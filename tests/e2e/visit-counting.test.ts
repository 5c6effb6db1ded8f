import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { makeProduct } from "../factories/products";
import { useShop } from "./harness";
import { hydrated, open, unique } from "./page-helpers";

/**
 * Visit counting in the built shop (docs/rules/analytics.md, Visits): a shopper's visit in a real
 * browser — full page, client-side navigations, a search, Add to Cart's beacon, the checkout —
 * ends up in the day's counts; the real page cache's answers count; the beacon refuses what is
 * not one. Counts are written every 200 ms here (VISIT_FLUSH_MS) instead of every 5 s.
 */
describe("visit counting", () => {
  const shop = useShop({ env: { VISIT_FLUSH_MS: "200" } });
  /** Headless Chromium says so in its user agent, and isbot takes it for a bot: shoppers use a desktop Chrome's. */
  const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

  async function asShopper(page: Page, userAgent = CHROME) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.setUserAgentOverride", { userAgent });
  }

  const query = async <T>(text: string, values: unknown[] = []) => (await shop.db.$client.query(text, values)).rows as T[];
  const today = () => new Date().toISOString().slice(0, 10);
  const views = async (path: string) =>
    (await query<{ views: number }>("select views from page_views_daily where day = $1 and path = $2", [today(), path]))[0]?.views ?? 0;

  /** Waits for the counts to be written (every 200 ms), then answers them. */
  async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
    for (let i = 0; ; i++) {
      const value = await read();
      if (done(value) || i >= 100) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("counts a shopper's visit in a browser: pages, navigations, a search, Add to Cart's beacon and the checkout", async () => {
    const name = unique("Visitprobe Quilt");
    const product = await makeProduct(shop.db, { name, unlimitedStock: true });
    const page = await shop.newPage();
    await asShopper(page);

    await open(page, "/");
    // The header's search: a client-side navigation to /shop?search=…
    await page.getByLabel("Search products").first().fill(name);
    await page.getByLabel("Search products").first().press("Enter");
    await page.waitForURL(/\/shop\?search=/);
    await page.getByRole("link", { name }).first().click();
    await page.waitForURL(`**/product/${product.id}`);
    await hydrated(page);

    const beacon = page.waitForRequest((r) => r.url().endsWith("/api/events") && r.method() === "POST");
    await page.getByRole("button", { name: "Add to Cart" }).first().click();
    const sent = await beacon;
    expect(JSON.parse(sent.postData() ?? "")).toEqual({ event: "add_to_cart", productId: product.id });
    expect((await sent.response())?.status()).toBe(204);

    await page.getByRole("link", { name: /cart/i }).first().click();
    await page.waitForURL("**/cart");
    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await page.waitForURL("**/checkout");

    const day = await eventually(
      async () => (await query<Record<string, number>>("select * from visits_daily where day = $1", [today()]))[0],
      (d) => d?.checkout_starters === 1,
    );
    expect(day).toMatchObject({ visitors: 1, product_viewers: 1, cart_adders: 1, checkout_starters: 1, cart_adds: 1, page_views: 5 });
    const paths = await query<{ path: string; views: number }>("select path, views from page_views_daily where day = $1 order by path", [today()]);
    expect(Object.fromEntries(paths.map((p) => [p.path, p.views]))).toEqual({
      "/": 1,
      "/cart": 1,
      "/checkout": 1,
      [`/product/${product.id}`]: 1,
      "/shop": 1,
    });
    const terms = await query("select term, searches, empty_searches from search_terms_daily where day = $1", [today()]);
    expect(terms).toEqual([{ term: name.toLowerCase(), searches: 1, empty_searches: 0 }]);
  });

  it("counts pages from the page cache, and neither headless browsers, bots nor the admin", async () => {
    const get = async (path: string, userAgent = CHROME, headers: Record<string, string> = {}) => {
      const res = await fetch(`${shop.baseUrl}${path}`, { headers: { "user-agent": userAgent, ...headers }, redirect: "manual" });
      await res.arrayBuffer();
      return res;
    };
    const before = { blog: await views("/blog"), contact: await views("/contact") };
    // Not counted, sent first: once the views after them are written, these would be too.
    await get("/contact", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36");
    await get("/contact", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)");
    await get("/admin");
    await get("/admin/orders");
    await get("/contact", CHROME, { "sec-purpose": "prefetch" });

    expect((await get("/blog")).headers.get("x-page-cache")).toBe("miss");
    expect((await get("/blog")).headers.get("x-page-cache")).toMatch(/^(hit|shared)$/);
    // A client-side navigation's data request, from the cache as well.
    await get("/blog.data", CHROME, { referer: `${shop.baseUrl}/` });

    expect(await eventually(() => views("/blog"), (n) => n === before.blog + 3)).toBe(before.blog + 3);
    expect(await views("/contact")).toBe(before.contact);
    expect(await query("select path from page_views_daily where path like '/admin%'")).toEqual([]);
  });

  it("counts a search answered as navigation data and whether it found nothing", async () => {
    const res = await fetch(`${shop.baseUrl}/shop.data?search=Qqzzx+Nothing`, { headers: { "user-agent": CHROME, referer: `${shop.baseUrl}/` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-search-results")).toBe("0");
    const terms = await eventually(
      () => query("select searches, empty_searches from search_terms_daily where term = 'qqzzx nothing'"),
      (rows) => rows.length > 0,
    );
    expect(terms).toEqual([{ searches: 1, empty_searches: 1 }]);
  });

  it("refuses a beacon from another site, garbage and a huge body, never with a 500", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${shop.baseUrl}/api/events`, { method: "POST", body, headers: { "content-type": "text/plain;charset=UTF-8", "user-agent": CHROME, ...headers } });
    const ok = JSON.stringify({ event: "add_to_cart", productId: crypto.randomUUID() });
    expect((await post(ok, { origin: "https://evil.example" })).status).toBe(403);
    expect((await post(ok, { origin: shop.baseUrl })).status).toBe(204);
    expect((await post("{not json")).status).toBe(400);
    expect((await post('{"event":"add_to_cart","productId":"../../etc"}')).status).toBe(400);
    expect((await post("x".repeat(2_000_000))).status).toBe(413);
    const get = await fetch(`${shop.baseUrl}/api/events`, { headers: { "user-agent": CHROME } });
    expect(get.status).toBeGreaterThanOrEqual(400);
    expect(get.status).toBeLessThan(500);
  });
});
