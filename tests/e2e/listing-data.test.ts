import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProducts } from "../factories/products";
import { startShop, type Shop } from "./harness";
import type { TestDatabase } from "../setup/database";

/**
 * The shop listing's data requests answered without React Router's pipeline (server/listing-data.ts,
 * docs/decisions/0040) say exactly what React Router says. Two shops on one database, one with
 * the direct path and one without (LISTING_DATA_DIRECT=off), are asked the same things; status,
 * headers and body must match byte for byte, except what differs on every answer (date, request
 * id, the CSP nonce) and the framing: the direct answer is one write with a Content-Length, React
 * Router's a chunked stream. That framing also shows which path answered, so the test fails when
 * the direct path stops answering as much as when it answers differently.
 */

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

let direct: Shop & { test: TestDatabase };
let router: Shop & { test: TestDatabase };

/** A GET as a browser's navigation sends it, without compression, so the framing shows. */
function get(shop: Shop, path: string, cookie = "bench-render=1"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, shop.baseUrl), { headers: { cookie, accept: "*/*" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** The headers that must match: everything but the per-answer ones and the framing. */
function comparable(raw: Raw) {
  const skip = new Set(["date", "x-request-id", "content-length", "transfer-encoding", "connection", "keep-alive"]);
  return Object.fromEntries(
    Object.entries(raw.headers)
      .filter(([k]) => !skip.has(k))
      .map(([k, v]) => [k, String(v).replace(/'nonce-[^']+'/g, "'nonce-…'")])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

beforeAll(async () => {
  // One public address for both, since the answers name it (the listing's canonical URL).
  direct = await startShop({ env: { PUBLIC_URL: "http://shop.test" } });
  router = await startShop({ db: direct.test, env: { PUBLIC_URL: "http://shop.test", LISTING_DATA_DIRECT: "off" } });
  // Enough rows for a second page, two categories, shared names, colours and a search term.
  await makeProducts(direct.db, 30, (i) => ({
    name: i % 3 === 0 ? `Linen Sheet ${i}` : `Wool Throw ${i}`,
    category: i % 2 === 0 ? "Bedding" : "Decor",
    priceCents: 1500 + (i % 7) * 250,
    colors: i % 4 === 0 ? ["white", "sand"] : [],
    featured: i < 4,
    stockQuantity: i % 5,
  }));
}, 90_000);

afterAll(async () => {
  await router?.stop();
  await direct?.stop();
  await direct?.test.drop();
});

describe("the shop listing's data request, answered directly", () => {
  const answeredDirectly = [
    "/shop.data",
    "/shop.data?search=linen",
    "/shop.data?search=nothing-matches-this",
    "/shop.data?category=Decor",
    "/shop.data?sort=price-low",
    "/shop.data?page=2",
    "/shop.data?category=Bedding&sort=name&search=sheet",
    "/shop.data?_routes=routes%2Fstore%2Fshop",
    "/shop.data?search=wool&_routes=root%2Croutes%2Fstore%2Fshop",
  ];
  for (const path of answeredDirectly) {
    it(`says what React Router says for ${path}`, async () => {
      const [a, b] = [await get(direct, path), await get(router, path)];
      expect(a.status).toBe(200);
      expect(a.headers["content-length"], "answered directly, in one write").toBe(String(a.body.length));
      expect(b.headers["transfer-encoding"], "answered by React Router").toBe("chunked");
      expect(comparable(a)).toEqual(comparable(b));
      expect(a.body.toString("utf8")).toBe(b.body.toString("utf8"));
      expect(a.body.equals(b.body)).toBe(true);
    });
  }

  it("says the same to a visitor without cookies, whose answer the page cache keeps", async () => {
    const path = "/shop.data?search=throw";
    const [a, b] = [await get(direct, path, ""), await get(router, path, "")];
    expect(comparable(a)).toEqual(comparable(b));
    expect(a.body.equals(b.body)).toBe(true);
    // The second time, from the page cache: still the same bytes.
    expect((await get(direct, path, "")).body.equals(b.body)).toBe(true);
  });

  // What the direct path leaves to React Router: a redirect to the canonical URL, a route it does
  // not load, a signed-in visitor's session. Both shops answer through React Router.
  for (const path of [
    "/shop.data?sort=bogus",
    "/shop.data?category=all",
    "/shop.data?_routes=routes%2Fstore%2Fproduct",
    "/shop.data?_routes=routes%2Fstore%2Fshop&_routes=root",
  ]) {
    it(`leaves ${path} to React Router, with the same answer`, async () => {
      const [a, b] = [await get(direct, path), await get(router, path)];
      expect(a.headers["transfer-encoding"]).toBe("chunked");
      expect(a.status).toBe(b.status);
      expect(comparable(a)).toEqual(comparable(b));
      expect(a.body.equals(b.body)).toBe(true);
    });
  }

  it("leaves a signed-in visitor's request to React Router", async () => {
    const a = await get(direct, "/shop.data", "better-auth.session_token=not-a-session");
    expect(a.headers["transfer-encoding"]).toBe("chunked");
    expect(a.status).toBe(200);
  });
});
