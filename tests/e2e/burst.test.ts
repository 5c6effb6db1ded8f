import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { burst, tally, type BurstResult } from "../../scripts/burst-client";
import { makeProduct } from "../factories/products";
import { startShop, type Shop } from "./harness";
import type { TestDatabase } from "../setup/database";

/**
 * A thousand simultaneous requests at pages nobody has asked for yet never answer 500.
 * Each request is either served (200) or refused with 503 and Retry-After (docs/decisions/0016).
 * Only counts are checked, never a duration: how many of a burst are served depends on the
 * machine, that none breaks the rule does not.
 *
 * A pool of 3 connections on 2 cores makes overload easy to reach.
 */
const BURST = 1_000;
const UNAVAILABLE = "The shop is briefly unavailable";

let shop: Shop & { test: TestDatabase };

beforeAll(async () => {
  shop = await startShop({ env: { DATABASE_POOL_SIZE: "3", RATE_LIMIT_DISABLED: "true" } });
  for (let i = 0; i < 30; i++) await makeProduct(shop.db, { name: `Washed Linen ${["Sheet", "Throw", "Pillowcase"][i % 3]} ${i}` });
}, 90_000);

afterAll(async () => {
  await shop?.stop();
  await shop?.test.drop();
});

/** What the burst got, in the test's output (what is served depends on the machine). */
const report = (t: ReturnType<typeof tally>) =>
  console.info(`burst: ${JSON.stringify({ statuses: t.byStatus, pageCache: t.byCache, socketErrors: t.socketErrors })}`);

/** The rule for every answer of a burst, and that the client itself lost no request. */
function expectServedOrRefused(result: BurstResult) {
  const t = tally(result);
  report(t);
  expect(t.socketErrors, `requests without an HTTP answer: ${JSON.stringify(result.socketErrors)}`).toBe(0);
  expect(result.answers).toHaveLength(BURST);
  expect(t.byStatus[500] ?? 0, "answers 500").toBe(0);
  expect(
    t.broken.map((a) => `${a.status} ${a.url} retry-after=${a.retryAfter}`).slice(0, 5),
    "answers other than 200 or 503 with Retry-After",
  ).toEqual([]);
  // A refused page request gets the shop's own error page.
  const refusals = result.answers.filter((a) => a.status === 503);
  expect(refusals.filter((a) => !(a.contentType.startsWith("text/html") && a.body.includes(UNAVAILABLE)))).toHaveLength(0);
  return t;
}

describe("a burst of 1,000 simultaneous requests", () => {
  it("at one search nobody has asked for yet: one rendering, shared by all, every one served", async () => {
    const url = `${shop.baseUrl}/shop?search=linen`;
    const result = await burst(Array.from({ length: BURST }, () => url));
    const t = expectServedOrRefused(result);
    // Single flight: the concurrent misses waited for the first one's rendering.
    expect(t.byCache.miss, `X-Page-Cache counts: ${JSON.stringify(t.byCache)}`).toBe(1);
    expect(t.served).toBe(BURST);
  }, 180_000);

  it("at one search with a cookie (no page cache): each renders or is refused with 503, never 500", async () => {
    const url = `${shop.baseUrl}/shop?search=pillowcase`;
    const result = await burst(Array.from({ length: BURST }, () => url), { headers: { cookie: "sidebar_state=true" } });
    const t = expectServedOrRefused(result);
    expect(t.byCache.miss ?? 0).toBe(0);
    expect(t.served).toBeGreaterThan(0);
  }, 180_000);

  it("at 1,000 different searches: each renders or is refused with 503, never 500", async () => {
    const urls = Array.from({ length: BURST }, (_, i) => `${shop.baseUrl}/shop?search=${encodeURIComponent(`linen ${i}`)}`);
    const result = await burst(urls);
    const t = expectServedOrRefused(result);
    expect(t.served).toBeGreaterThan(0);
  }, 180_000);

  it("keeps answering 200 once the burst is over", async () => {
    const res = await fetch(`${shop.baseUrl}/shop?search=throw`);
    expect(res.status).toBe(200);
    expect((await fetch(`${shop.baseUrl}/healthz`)).status).toBe(200);
  });
});

/**
 * The failure mode itself: more renderings at once than the pool can serve within its 5 s wait
 * (one connection, and admission control wide open), so connections time out inside loaders —
 * the shop page's, the home page's, a JSON API's. Each such request must answer 503 with
 * Retry-After, not 500.
 */
describe("a burst that exhausts the database pool", () => {
  let starved: Shop & { test: TestDatabase };

  beforeAll(async () => {
    starved = await startShop({ db: shop.test, env: { DATABASE_POOL_SIZE: "1", REQUEST_CONCURRENCY: "1000", RATE_LIMIT_DISABLED: "true" } });
  }, 90_000);

  afterAll(async () => {
    await starved?.stop();
  });

  it("answers pages, data requests and APIs whose loader timed out waiting for a connection with 503, never 500", async () => {
    const paths = Array.from({ length: BURST }, (_, i) => {
      const term = encodeURIComponent(`linen ${i}`);
      return [`/shop?search=${term}`, `/shop.data?search=${term}`, `/api/products?search=${term}`, `/?v=${i}`][i % 4]!;
    });
    // A cookie keeps the page cache out of it: every request renders.
    const result = await burst(
      paths.map((p) => starved.baseUrl + p),
      { headers: { cookie: "sidebar_state=true" } },
    );
    const t = tally(result);
    report(t);
    expect(t.socketErrors, JSON.stringify(result.socketErrors)).toBe(0);
    expect(result.answers).toHaveLength(BURST);
    expect(t.byStatus[500] ?? 0, `statuses: ${JSON.stringify(t.byStatus)}`).toBe(0);
    expect(t.broken.map((a) => `${a.status} ${a.url}`).slice(0, 5)).toEqual([]);
    // Pages show the shop's "briefly unavailable" page.
    const pages = result.answers.filter((a) => a.status === 503 && !a.url.includes(".data") && !a.url.includes("/api/"));
    expect(pages.filter((a) => !a.body.includes(UNAVAILABLE))).toHaveLength(0);
  }, 180_000);
});

/**
 * What a refused request gets, in a shop whose only turn is taken (REQUEST_CONCURRENCY=1, no
 * queue): a contact form whose body has not finished arriving holds the turn as long as the test
 * wants, so the refusals below do not depend on timing.
 */
describe("a request refused by admission control", () => {
  let busy: Shop & { test: TestDatabase };

  beforeAll(async () => {
    busy = await startShop({ db: shop.test, env: { REQUEST_CONCURRENCY: "1", REQUEST_QUEUE: "0", RATE_LIMIT_DISABLED: "true" } });
  }, 90_000);

  afterAll(async () => {
    await busy?.stop();
  });

  it("gets 503, Retry-After and the shop's own page (a page), text (a data request) or JSON (an API), while health checks and files still answer", async () => {
    const { hostname, port } = new URL(busy.baseUrl);
    const slow = http.request({ hostname, port, path: "/contact", method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": "1000" } });
    const slowDone = new Promise<number>((resolve, reject) => {
      slow.on("response", (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      });
      slow.on("error", reject);
    });
    slow.write("name=Slow");
    const page = () => fetch(`${busy.baseUrl}/shop?search=busy`, { headers: { accept: "text/html", cookie: "sidebar_state=true" } });
    let refused = await page();
    for (let i = 0; i < 100 && refused.status === 200; i++) {
      await refused.text();
      await new Promise((r) => setTimeout(r, 50));
      refused = await page();
    }
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    const html = await refused.text();
    expect(html).toContain("The shop is briefly unavailable");
    expect(html).toContain("Please try again in a few seconds.");
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/[^"]+\.css"/);
    expect(html).not.toContain("<script");

    const data = await fetch(`${busy.baseUrl}/shop.data?search=busy`);
    expect([data.status, data.headers.get("retry-after"), await data.text()]).toEqual([503, "5", "The shop is briefly unavailable"]);
    const api = await fetch(`${busy.baseUrl}/api/products?search=busy`);
    expect([api.status, api.headers.get("retry-after"), await api.json()]).toEqual([503, "5", { error: "The shop is briefly unavailable" }]);
    expect((await fetch(`${busy.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${busy.baseUrl}/favicon.ico`)).status).toBe(200);

    // The turn comes back when the slow request ends.
    slow.end("&".padEnd(1000 - "name=Slow".length, "x"));
    await slowDone;
    expect((await page()).status).toBe(200);
  }, 60_000);
});
