import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { surrogateKeysOf } from "../cdn/keys.server";
import { cdnHeaders } from "./cdn-headers.server";
import { privateResponses } from "./private-responses.server";

/**
 * What a CDN may keep (docs/decisions/0037), on a bare Express app with the shop's two header
 * middlewares in the shop's order: public with keys for a storefront page anyone without cookies
 * sees alike, `private, no-store` for anything personal. tests/e2e/cdn-headers.test.ts walks the
 * built shop's every route.
 */
const servers: http.Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

const PRODUCT = "0b7c6d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e";
/** No stale-while-revalidate for browsers: they would show an old page from their own cache. */
const PUBLIC = "public, max-age=0, s-maxage=300";
/** What only CDNs read: the lifetime and the grace. */
const CDN_ONLY = "max-age=300, stale-while-revalidate=86400";

async function shopLike() {
  const app = express();
  app.use(cdnHeaders({ sMaxAge: 300, staleWhileRevalidate: 86_400 }));
  app.use(privateResponses());
  app.get("/set-cookie/shop", (_req, res) => void res.type("text/html").cookie("hint", "1").send("<p>shop</p>"));
  app.get("/blog/:slug", (req, res) =>
    req.params.slug === "gone"
      ? void res.status(404).type("text/html").set("Cache-Control", "no-store").send("<p>gone</p>")
      : void res.type("text/html").set("Cache-Control", "no-cache").send("<p>post</p>"),
  );
  app.get("/api/products", (_req, res) => void res.json([]));
  app.get("/robots.txt", (_req, res) => void res.type("text/plain").set("Cache-Control", "public, max-age=3600").send("User-agent: *"));
  app.get("/assets/app.js", (_req, res) => void res.type("text/javascript").set("Cache-Control", "public, max-age=31536000, immutable").send(""));
  app.use((req, res) => void res.type(req.path.endsWith(".data") ? "text/x-script" : "text/html").send("<p>page</p>"));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((r) => server.once("listening", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function get(base: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
    http
      .get(new URL(path, base), { headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.headers));
      })
      .on("error", reject);
  });
}

describe("CDN headers", () => {
  it("makes the storefront's anonymous pages and data requests public, with the keys of what they show", async () => {
    const base = await shopLike();
    const cases: [string, string][] = [
      ["/", "shop settings listing"],
      ["/_root.data", "shop settings listing"],
      ["/shop?search=linen", "shop settings listing"],
      [`/product/${PRODUCT}`, `shop settings products product:${PRODUCT}`],
      [`/product/${PRODUCT.toUpperCase()}.data`, `shop settings products product:${PRODUCT}`],
      ["/blog", "shop settings blog"],
      ["/blog/sleep-well", "shop settings posts post:sleep-well"],
      ["/cart", "shop settings"],
      ["/contact.data", "shop settings"],
    ];
    for (const [path, keys] of cases) {
      const headers = await get(base, path);
      expect(headers["cache-control"], path).toBe(PUBLIC);
      expect(headers["cdn-cache-control"], path).toBe(CDN_ONLY);
      expect(headers["surrogate-control"], path).toBe(CDN_ONLY);
      expect(headers["surrogate-key"], path).toBe(keys);
      expect(headers["cache-tag"], path).toBe(keys.replaceAll(" ", ","));
    }
  });

  it("keeps everything personal private, no-store and without keys: a session or any cookie, a Set-Cookie, the checkout, the admin", async () => {
    const base = await shopLike();
    const personal: [string, Record<string, string>][] = [
      ["/shop", { cookie: "better-auth.session_token=abc" }],
      ["/shop.data", { cookie: "cart_hint=1" }],
      [`/product/${PRODUCT}`, { cookie: "sidebar_state=true" }],
      ["/set-cookie/shop", {}],
      ["/checkout", {}],
      ["/checkout.data", {}],
      ["/admin", {}],
      ["/profile", {}],
    ];
    for (const [path, headers] of personal) {
      const answer = await get(base, path, headers);
      expect(answer["cache-control"], path).toBe("private, no-store");
      expect(answer["surrogate-key"], path).toBeUndefined();
      expect(answer["cdn-cache-control"], path).toBeUndefined();
      expect(answer["surrogate-control"], path).toBeUndefined();
      expect(answer["cache-tag"], path).toBeUndefined();
    }
    // Not a storefront page the cache may share, or not found: nothing public, nothing added.
    for (const path of ["/auth", "/product/not-an-id", "/blog/gone", "/api/products"]) {
      const answer = await get(base, path);
      expect(answer["cache-control"] ?? "", path).not.toContain("public");
      expect(answer["surrogate-key"], path).toBeUndefined();
    }
    // Files keep their own caching; with a session, a public answer is the browser's alone.
    expect((await get(base, "/assets/app.js"))["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await get(base, "/assets/app.js", { cookie: "better-auth.session_token=abc" }))["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await get(base, "/robots.txt"))["cache-control"]).toBe("public, max-age=3600");
    expect((await get(base, "/robots.txt", { cookie: "better-auth.session_token=abc" }))["cache-control"]).toBe("private, max-age=3600");
  });

  it("names only pages whose address the keys can be read from", () => {
    expect(surrogateKeysOf("/blog/rss.xml")).toBeNull();
    expect(surrogateKeysOf("/blog/Not_A_Slug")).toBeNull();
    expect(surrogateKeysOf("/checkout")).toBeNull();
    expect(surrogateKeysOf("/shop/extra")).toBeNull();
  });
});
