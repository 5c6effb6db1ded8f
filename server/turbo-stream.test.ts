import { createRequestHandler, data, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { encodeListingData } from "./turbo-stream";

/**
 * The encoder against React Router itself: a build of one route whose loader returns the value,
 * asked for its data request by React Router's own request handler. The bytes must be the same.
 */
async function reactRoutersBytes(value: unknown): Promise<string> {
  const build = {
    assets: { entry: { module: "/entry.js", imports: [] }, routes: {}, url: "/manifest.js", version: "1" },
    assetsBuildDirectory: "build/client",
    basename: "/",
    entry: { module: { default: () => new Response("no documents here") } },
    future: { v8_middleware: false, v8_passThroughRequests: false, v8_trailingSlashAwareDataRequests: false },
    isSpaMode: false,
    prerender: [],
    publicPath: "/",
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
    routes: {
      root: { id: "root", path: "", module: { default: () => null, loader: () => ({ root: true }) } },
      "routes/x": { id: "routes/x", parentId: "root", path: "x", module: { default: () => null, loader: () => value } },
    },
    ssr: true,
  } as unknown as ServerBuild;
  const res = await createRequestHandler(build, "production")(new Request("http://shop.test/x.data?_routes=routes/x"));
  expect(res.status).toBe(200);
  return res.text();
}

const shared = { name: "Linen", tags: ["a", "b"] };
const samples: Record<string, unknown> = {
  "a plain object": { a: 1, b: "two", c: true, d: null, e: undefined },
  "strings and numbers met twice": { x: "same", y: "same", n: [1, 1, 2.5, -3, 0], k: { same: "x" } },
  "an object met twice": { first: shared, second: shared, list: [shared, shared] },
  "special numbers": { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, ninf: Number.NEGATIVE_INFINITY, nz: -0 },
  "nested arrays with a hole": { rows: [[1, 2], [], [3, [4, [5]]]], holey: [1, , 3] }, // eslint-disable-line no-sparse-arrays
  "a date": { at: new Date("2026-11-29T08:00:00.000Z"), bad: new Date(Number.NaN) },
  "unicode and quotes": { text: 'Ünïcode "quoted" \\ back\nline </script>', emoji: "🛏️" },
  "a listing's shape": {
    filters: { search: "linen", category: "all", sort: "featured" },
    categories: ["Bedding", "Pillows"],
    page: 1,
    result: { total: 2, items: [{ id: "p1", name: "Sheet", priceCents: 4200, colors: ["white"] }, { id: "p2", name: "Sheet", priceCents: 4200, colors: [] }] },
    canonical: "http://shop.test/shop",
  },
  "an empty object": {},
  "an empty array": [],
};

describe("the listing's data encoder", () => {
  for (const [name, value] of Object.entries(samples)) {
    it(`writes what React Router writes for ${name}`, async () => {
      expect(encodeListingData({ "routes/x": { data: value } })).toBe(await reactRoutersBytes(value));
    });
  }

  it("writes what React Router writes for data() with headers: the value alone", async () => {
    const value = { found: 3 };
    expect(encodeListingData({ "routes/x": { data: value } })).toBe(await reactRoutersBytes(data(value, { headers: { "X-Search-Results": "3" } })));
  });

  it("declines what it does not know, so React Router answers it", () => {
    expect(encodeListingData({ a: new Map([[1, 2]]) })).toBeNull();
    expect(encodeListingData({ a: Promise.resolve(1) })).toBeNull();
    expect(encodeListingData({ a: new (class Thing {})() })).toBeNull();
    expect(encodeListingData({ a: new Error("no") })).toBeNull();
    expect(encodeListingData({ a: () => 1 })).toBeNull();
  });
});
