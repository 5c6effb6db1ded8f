import express from "express";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { VISITORS_PER_ADDRESS_PER_MINUTE } from "~/lib/analytics-view";
import { action as beaconAction } from "~/routes/resources/events";
import { loader as shopLoader } from "~/routes/store/shop";
import { visitCounting } from "~/server/insight/analytics/visits-middleware.server";
import { stopVisitCounting, VisitCounter, visitCounter } from "~/server/insight/analytics/visits.server";
import { SALT_GRACE_MS } from "~/server/insight/analytics/visits-store.server";
import { resetEnvCache } from "~/server/platform/env.server";
import { pageCache } from "~/server/platform/http/page-cache.server";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/**
 * Visit counting (docs/rules/analytics.md, Visits) through the real middleware, the real page
 * cache, the real /shop loader and the real beacon route. The pages themselves are stand-ins
 * (a browser test, tests/e2e/visit-counting.test.ts, runs the built shop).
 */
const t = useTestDatabase();

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const NONCE = "test-nonce";
const TABLES = ["visits_daily", "page_views_daily", "visitor_days", "visit_salts", "search_terms_daily"] as const;

/** The shop's order: counting, the page cache, then what renders (here a stand-in for React Router). */
function shopLikeApp() {
  const app = express();
  app.set("trust proxy", 1);
  app.use(visitCounting());
  const cache = pageCache({ maxBytes: 8 * 1024 * 1024, pool: () => t.db.$client });
  app.use(cache.serve);
  app.use((_req, res, next) => {
    res.locals.cspNonce = NONCE;
    next();
  });
  app.use(cache.capture);
  app.use(async (req, res) => {
    const data = req.path.endsWith(".data");
    const path = req.path === "/_root.data" ? "/" : req.path.replace(/\.data$/, "");
    const headers: Record<string, string> = {};
    if (path === "/shop") {
      try {
        const answer = await shopLoader({ request: new Request(`http://localhost:3000${req.url}`), params: {}, context: {} } as never);
        for (const [name, value] of new Headers(answer.init?.headers)) headers[name] = value;
      } catch (thrown) {
        if (thrown instanceof Response) return res.redirect(thrown.status, thrown.headers.get("Location")!);
        throw thrown;
      }
    } else if (!/^\/(?:$|product\/|blog\/|checkout$|admin)/.test(path)) {
      return res.status(404).type("html").send("<p>Not found</p>");
    }
    res.status(200).set(headers);
    if (data) return res.type("text/x-script").send(JSON.stringify({ path }));
    res.type("html").send(`<!doctype html><html><head><script nonce="${NONCE}">window.page=1</script></head><body>${path}</body></html>`);
  });
  return app;
}

let server: Server | undefined;
let base = "";

async function start() {
  server = shopLikeApp().listen(0, "127.0.0.1");
  await new Promise((r) => server!.once("listening", r));
  base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

async function get(path: string, opts: { ua?: string | null; referer?: string; ip?: string; method?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.ua !== null) headers["user-agent"] = opts.ua ?? BROWSER;
  if (opts.referer) headers.referer = `${base}${opts.referer}`;
  if (opts.ip) headers["x-forwarded-for"] = opts.ip;
  const res = await fetch(`${base}${path}`, { method: opts.method ?? "GET", headers, redirect: "manual" });
  await res.arrayBuffer();
  return { status: res.status, cache: res.headers.get("x-page-cache") };
}

/** What the day's roll-up says, after the counts held in memory are written. */
async function written() {
  await visitCounter()!.flush();
  const { rows } = await t.db.$client.query("select *, day::text as day from visits_daily order by visits_daily.day");
  const paths = await t.db.$client.query<{ path: string; views: number }>("select path, views from page_views_daily order by path");
  return { days: rows, today: rows.at(-1), paths: Object.fromEntries(paths.rows.map((r) => [r.path, r.views])) };
}

function beacon(body: string, opts: { ua?: string; ip?: string } = {}) {
  return beaconAction({
    request: new Request("http://localhost:3000/api/events", {
      method: "POST",
      body,
      headers: { "content-type": "text/plain;charset=UTF-8", "user-agent": opts.ua ?? BROWSER, "x-shop-client-ip": opts.ip ?? "127.0.0.1" },
    }),
    params: {},
    context: {},
  } as never) as Promise<Response>;
}

const addToCart = (productId: string, opts?: { ua?: string; ip?: string }) => beacon(JSON.stringify({ event: "add_to_cart", productId }), opts);

beforeEach(async () => {
  await stopVisitCounting();
  await t.db.$client.query(`truncate ${TABLES.join(", ")}`);
  await start();
});

afterEach(async () => {
  vi.useRealTimers();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

afterAll(async () => {
  await stopVisitCounting();
});

describe("page views", () => {
  it("counts pages rendered and pages answered from the cache, per path without the query string", async () => {
    const p = await makeProduct(t.db);
    expect((await get(`/product/${p.id}?utm_source=mail`)).cache).toBe("miss");
    expect((await get(`/product/${p.id}?utm_source=mail`)).cache).toMatch(/^(hit|shared)$/);
    await get("/");
    const { today, paths } = await written();
    expect(paths).toEqual({ "/": 1, [`/product/${p.id}`]: 2 });
    expect(today).toMatchObject({ page_views: 3, visitors: 1, product_viewers: 1, cart_adders: 0, checkout_starters: 0 });
  });

  it("counts a client-side navigation's data request as a view of its page, not a reload of the page shown", async () => {
    await get("/shop.data", { referer: "/" });
    await get("/_root.data", { referer: "/shop" });
    // After an action React Router fetches the page's data again: the same page, not a new view.
    await get("/shop.data", { referer: "/shop" });
    await get("/shop.data?_routes=routes%2Fstore%2Fshop", { referer: "/shop" });
    const { paths, today } = await written();
    expect(paths).toEqual({ "/": 1, "/shop": 1 });
    expect(today.page_views).toBe(2);
  });

  it("does not count bots, scripts without a user agent, the admin, HEAD, prefetches or missing pages", async () => {
    await get("/", { ua: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
    await get("/", { ua: null });
    await get("/", { ua: "curl/8.5.0" });
    await get("/admin");
    await get("/admin/orders.data", { referer: "/admin" });
    await get("/", { method: "HEAD" });
    await get("/no-such-page");
    await get("/robots.txt");
    const res = await fetch(`${base}/`, { headers: { "user-agent": BROWSER, "sec-purpose": "prefetch" } });
    await res.text();
    await visitCounter()!.flush();
    for (const table of TABLES) {
      const { rows } = await t.db.$client.query(`select count(*)::int as n from ${table}`);
      expect(rows[0].n, table).toBe(0);
    }
  });

  it("keeps a 5,000-character path to 200 characters, and a missing page of that length out", async () => {
    const long = `/blog/${"x".repeat(5000)}`;
    expect((await get(long)).status).toBe(200);
    expect((await get(`/no-such/${"y".repeat(5000)}`)).status).toBe(404);
    const { paths } = await written();
    expect(Object.keys(paths)).toEqual([long.slice(0, 200)]);
  });
});

describe("unique visitors and the funnel", () => {
  it("counts each visitor once a day for each step, however often they repeat it", async () => {
    const p = await makeProduct(t.db);
    const ann = { ua: `${BROWSER} Ann` };
    const bob = { ua: `${BROWSER} Bob` };
    for (let i = 0; i < 3; i++) await get("/", ann);
    await get(`/product/${p.id}`, ann);
    await get(`/product/${p.id}`, ann);
    await addToCart(p.id, ann);
    await get("/checkout", ann);
    await get("/", bob);
    let { today } = await written();
    expect(today).toMatchObject({ page_views: 7, visitors: 2, product_viewers: 1, cart_adders: 1, checkout_starters: 1, cart_adds: 1 });

    // The same people again later the same day (another batch): views count, people do not.
    await get("/", ann);
    await get(`/product/${p.id}`, bob);
    await addToCart(p.id, ann);
    ({ today } = await written());
    expect(today).toMatchObject({ page_views: 9, visitors: 2, product_viewers: 2, cart_adders: 1, checkout_starters: 1, cart_adds: 1 });
  });

  it("makes a new salt each UTC day, deletes it when its day is over and hashes after two days", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-01T12:00:00Z"));
    await get("/");
    await written();
    const salts = async () => (await t.db.$client.query<{ day: string; salt: string }>("select day::text, salt from visit_salts order by day")).rows;
    const hashes = async () => (await t.db.$client.query<{ day: string; hash: string }>("select day::text, hash from visitor_days order by day")).rows;
    const [first] = await salts();
    expect(first!.day).toBe("2026-03-01");

    // Just after midnight: a new day, a new salt, so the same visitor has another hash.
    vi.setSystemTime(new Date("2026-03-02T00:01:00Z"));
    await get("/");
    await written();
    expect((await salts()).map((s) => s.day)).toEqual(["2026-03-01", "2026-03-02"]);
    const [h1, h2] = await hashes();
    expect(h1!.hash).not.toBe(h2!.hash);
    expect((await salts())[1]!.salt).not.toBe(first!.salt);

    // Past the grace, yesterday's salt is gone; its hashes stay one more day.
    vi.setSystemTime(new Date(Date.parse("2026-03-02T00:00:00Z") + SALT_GRACE_MS + 60_000));
    await get("/");
    await written();
    expect((await salts()).map((s) => s.day)).toEqual(["2026-03-02"]);
    expect((await hashes()).map((h) => h.day)).toEqual(["2026-03-01", "2026-03-02"]);

    vi.setSystemTime(new Date("2026-03-03T12:00:00Z"));
    await get("/");
    const { days } = await written();
    expect((await hashes()).map((h) => h.day)).toEqual(["2026-03-02", "2026-03-03"]);
    expect((await salts()).map((s) => s.day)).toEqual(["2026-03-03"]);
    // Only the counts remain for the old days.
    expect(days.map((d) => [d.day, d.visitors])).toEqual([
      ["2026-03-01", 1],
      ["2026-03-02", 1],
      ["2026-03-03", 1],
    ]);
  });

  it("stores nothing that identifies a person: no address, no user agent, no unsalted hash", async () => {
    process.env.TRUST_PROXY = "true";
    resetEnvCache();
    try {
      await stopVisitCounting();
      await new Promise((r) => server?.close(r));
      await start();
      const p = await makeProduct(t.db, { name: "Privacy Probe Quilt" });
      const ua = `${BROWSER} PrivacyProbe/9.9`;
      const ip = "203.0.113.77";
      await get("/", { ua, ip });
      await get(`/product/${p.id}`, { ua, ip });
      await get("/shop?search=Privacy+Probe", { ua, ip });
      expect((await addToCart(p.id, { ua, ip })).status).toBe(204);
      await get("/checkout", { ua, ip });
      const { today } = await written();
      expect(today).toMatchObject({ visitors: 1, product_viewers: 1, cart_adders: 1, checkout_starters: 1 });
      for (const table of TABLES) {
        const { rows } = await t.db.$client.query<{ row: string }>(`select row_to_json(x)::text as row from ${table} x`);
        expect(rows.length, table).toBeGreaterThan(0);
        for (const { row } of rows) {
          expect(row, table).not.toContain(ip);
          expect(row, table).not.toContain("203.0.113");
          expect(row, table).not.toContain("PrivacyProbe");
          expect(row, table).not.toContain("Chrome/124");
        }
      }
    } finally {
      delete process.env.TRUST_PROXY;
      resetEnvCache();
    }
  });
});

describe("one network address faking visitors", () => {
  it(`counts at most ${VISITORS_PER_ADDRESS_PER_MINUTE} visitors a minute from one address, however many user agents it sends; an IPv6 /64 is one address`, async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-05T10:00:05Z"));
    const p = await makeProduct(t.db);
    const limit = VISITORS_PER_ADDRESS_PER_MINUTE;
    // One script on 127.0.0.1 posing as 300 browsers: a product page, an add to cart and the checkout each.
    const fake = (i: number) => ({ ua: `${BROWSER} Fake/${i}`, ip: "127.0.0.1" });
    for (let i = 0; i < 300; i++) {
      await get(`/product/${p.id}`, fake(i));
      await addToCart(p.id, fake(i));
      await get("/checkout", fake(i));
    }
    let { today } = await written();
    // Every page view is still a page view; the people behind them are not invented.
    expect(today).toMatchObject({ page_views: 600, visitors: limit, product_viewers: limit, cart_adders: limit, checkout_starters: limit });

    // Someone at another address that minute is counted as usual.
    await addToCart(p.id, { ua: `${BROWSER} Neighbour`, ip: "198.51.100.7" });
    // A whole IPv6 /64 is one address: 100 addresses in it count as the limit; the next /64 is another address.
    for (let i = 1; i <= 100; i++) await addToCart(p.id, { ua: `${BROWSER} Six/${i}`, ip: `2001:db8:5:6::${i.toString(16)}` });
    await addToCart(p.id, { ua: `${BROWSER} Six/next`, ip: "2001:db8:5:7::1" });
    ({ today } = await written());
    expect(today).toMatchObject({ visitors: 2 * limit + 2, cart_adders: 2 * limit + 2 });

    // It is a rate, not a ban: the next minute the address counts again, up to the limit.
    vi.setSystemTime(new Date("2026-03-05T10:01:05Z"));
    for (let i = 300; i < 400; i++) await get("/", fake(i));
    ({ today } = await written());
    expect(today.visitors).toBe(3 * limit + 2);
  });
});

describe("the add-to-cart beacon", () => {
  it("counts 10,000 beacons from one address for one product once, across several writes", async () => {
    const p = await makeProduct(t.db);
    for (let i = 0; i < 10_000; i++) {
      const res = await addToCart(p.id);
      expect(res.status).toBe(204);
      if (i % 2500 === 2499) await visitCounter()!.flush();
    }
    const { today } = await written();
    expect(today).toMatchObject({ cart_adds: 1, cart_adders: 1, visitors: 1, page_views: 0 });
  });

  it("counts a product that does not exist nowhere, and random ids cost bounded memory", async () => {
    for (let i = 0; i < 500; i++) await addToCart(crypto.randomUUID());
    const { today } = await written();
    expect(today).toMatchObject({ cart_adds: 0, cart_adders: 1 });
  });

  it("answers garbage with 400 and a huge body with 413, never a 500, and counts nothing", async () => {
    const bodies = [
      "",
      "{",
      "null",
      "[]",
      '"add_to_cart"',
      '{"event":"add_to_cart"}',
      '{"event":"add_to_cart","productId":"not-a-uuid"}',
      '{"event":"remove","productId":"00000000-0000-4000-8000-000000000000"}',
      '{"event":"add_to_cart","productId":{"$ne":null}}',
      "\u0000\u0001\u0002\uffff",
    ];
    for (const body of bodies) {
      const res = await beacon(body);
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBeTruthy();
    }
    expect((await beacon("x".repeat(2048))).status).toBe(413);
    expect((await beacon(JSON.stringify({ event: "add_to_cart", productId: crypto.randomUUID(), pad: "x".repeat(10_000_000) }))).status).toBe(413);
    await visitCounter()!.flush();
    const { rows } = await t.db.$client.query("select count(*)::int as n from visitor_days");
    expect(rows[0].n).toBe(0);
  });

  it("ignores a bot's beacon", async () => {
    const p = await makeProduct(t.db);
    expect((await addToCart(p.id, { ua: "Googlebot/2.1" })).status).toBe(204);
    await visitCounter()!.flush();
    const { rows } = await t.db.$client.query("select count(*)::int as n from visits_daily");
    expect(rows[0].n).toBe(0);
  });
});

describe("search terms", () => {
  it("counts each search's first page by its normalised term, cached or not, and the ones that found nothing", async () => {
    await makeProduct(t.db, { name: "Alpaca Throw" });
    await get("/shop?search=Alpaca");
    await get("/shop?search=Alpaca"); // from the page cache
    await get("/shop?search=alpaca");
    await get("/shop?search=alpaca&page=2"); // more of the same search
    // A sort change on the results, by client-side navigation: the same search.
    await get("/shop.data?search=alpaca&sort=price-low", { referer: "/shop?search=alpaca" });
    await get("/shop?search=zzyzx+nothing");
    await get("/shop?search=zzyzx+nothing");
    await get("/shop?category=Bedding"); // no search at all
    await get("/shop?search=Alpaca", { ua: "Googlebot/2.1" });
    await visitCounter()!.flush();
    const { rows } = await t.db.$client.query("select term, searches, empty_searches from search_terms_daily order by term");
    expect(rows).toEqual([
      { term: "alpaca", searches: 3, empty_searches: 0 },
      { term: "zzyzx nothing", searches: 2, empty_searches: 2 },
    ]);
  });
});

describe("when the database cannot be written", () => {
  it("keeps the counts, never throws, and writes them once it can", async () => {
    const down = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 1000 });
    let pool: pg.Pool = down;
    const counter = new VisitCounter({ flushMs: 60_000, pool: () => pool });
    const visitor = { address: "198.51.100.1", userAgent: BROWSER };
    counter.pageView("/", visitor);
    counter.search("duvet", false);
    await expect(counter.flush()).resolves.toBeUndefined();
    counter.pageView("/", visitor);
    await expect(counter.flush()).resolves.toBeUndefined();
    expect((await t.db.$client.query("select count(*)::int as n from visits_daily")).rows[0].n).toBe(0);

    pool = t.db.$client;
    await counter.flush();
    const { rows } = await t.db.$client.query("select page_views, visitors from visits_daily");
    expect(rows).toEqual([{ page_views: 2, visitors: 1 }]);
    expect((await t.db.$client.query("select searches from search_terms_daily")).rows).toEqual([{ searches: 1 }]);
    await counter.stop();
    await down.end();
  });

  it("is off with VISIT_COUNTING=off", async () => {
    process.env.VISIT_COUNTING = "off";
    resetEnvCache();
    try {
      await stopVisitCounting();
      expect(visitCounter()).toBeNull();
      await new Promise((r) => server?.close(r));
      await start();
      await get("/");
      expect((await addToCart(crypto.randomUUID())).status).toBe(204);
      expect((await t.db.$client.query("select count(*)::int as n from visits_daily")).rows[0].n).toBe(0);
    } finally {
      delete process.env.VISIT_COUNTING;
      resetEnvCache();
      await stopVisitCounting();
    }
  });
});
