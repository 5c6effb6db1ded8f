import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createSession, makeAdmin, makeCustomer, SESSION_COOKIE } from "../factories/users";
import { E2E_AUTH_SECRET, useShop } from "./harness";

/** One request with any method (fetch refuses TRACE); the raw header lines are kept. */
function request(baseUrl: string, method: string, urlPath: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; raw: string[]; body: string }>((resolve, reject) => {
    const req = http.request(new URL(urlPath, baseUrl), { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, raw: res.rawHeaders, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** How many times the response carried the header (raw lines, before any joining). */
const times = (raw: string[], name: string) => raw.filter((v, i) => i % 2 === 0 && v.toLowerCase() === name).length;

describe("HTTP edges", () => {
  // LOG_LEVEL info: the test reads the log lines of each request.
  const shop = useShop({ env: { LOG_LEVEL: "info" } });

  const logLinesOf = (requestId: string) =>
    shop.shop
      .output()
      .split("\n")
      .filter((l) => l.includes(requestId))
      .map((l) => JSON.parse(l) as { level: number; [k: string]: unknown });

  it("answers TRACE and OPTIONS with 405 and the route's methods, logged at info without a stack", async () => {
    for (const [method, urlPath, allow] of [
      ["TRACE", "/", "GET, HEAD, POST"],
      ["OPTIONS", "/shop", "GET, HEAD, POST"],
      ["OPTIONS", "/no/such/page", "GET, HEAD, POST"],
      ["TRACE", "/healthz", "GET, HEAD"],
      ["OPTIONS", "/api/checkout", "POST"],
    ] as const) {
      const res = await request(shop.baseUrl, method, urlPath);
      expect(res.status, `${method} ${urlPath}`).toBe(405);
      expect(res.headers.allow, `${method} ${urlPath}`).toBe(allow);
      expect(res.body).not.toMatch(/\n\s+at /);
      const id = String(res.headers["x-request-id"]);
      await expect.poll(() => logLinesOf(id).length).toBeGreaterThan(0);
      const lines = logLinesOf(id);
      expect(lines.every((l) => l.level <= 30), JSON.stringify(lines)).toBe(true);
      expect(JSON.stringify(lines)).not.toMatch(/stack|\\n\s+at /);
    }
    expect(shop.shop.output()).not.toContain("unhandled error");
  });

  it("marks every response to a signed-in visitor, and every admin and account page, private and not to be stored", async () => {
    const customer = await makeCustomer(shop.db);
    const { cookieValue } = await createSession(shop.db, customer.id, E2E_AUTH_SECRET);
    const cookie = `${SESSION_COOKIE}=${cookieValue}`;
    for (const urlPath of ["/", "/shop", "/shop.data", "/_root.data", "/cart", "/profile", "/profile.data", "/admin"]) {
      const res = await fetch(`${shop.baseUrl}${urlPath}`, { headers: { cookie }, redirect: "manual" });
      expect(res.headers.get("cache-control"), urlPath).toBe("private, no-store");
    }
    const admin = await makeAdmin(shop.db);
    const adminSession = await createSession(shop.db, admin.id, E2E_AUTH_SECRET);
    for (const urlPath of ["/admin", "/admin/products", "/admin/orders.data"]) {
      const res = await fetch(`${shop.baseUrl}${urlPath}`, { headers: { cookie: `${SESSION_COOKIE}=${adminSession.cookieValue}` }, redirect: "manual" });
      expect(res.status, urlPath).toBe(200);
      expect(res.headers.get("cache-control"), urlPath).toBe("private, no-store");
    }
    // Without a cookie: admin and account pages still say so; storefront pages stay cacheable.
    for (const urlPath of ["/admin", "/profile", "/admin/products"]) {
      const res = await fetch(`${shop.baseUrl}${urlPath}`, { redirect: "manual" });
      expect(res.headers.get("cache-control"), urlPath).toBe("private, no-store");
    }
    await (await fetch(`${shop.baseUrl}/shop`)).text();
    const anonymous = await fetch(`${shop.baseUrl}/shop`);
    // Served from the cache: stored ("hit"), or the first rendering's page if it was still being
    // kept when this request came ("shared"); never rendered again.
    expect(["hit", "shared"]).toContain(anonymous.headers.get("x-page-cache"));
    expect(anonymous.headers.get("cache-control") ?? "").not.toContain("no-store");
  });

  it("sends X-Content-Type-Options once on /media and /resized", async () => {
    const dir = path.join(shop.shop.dataDir, "uploads", "tests");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "once.png"), await sharp({ create: { width: 400, height: 300, channels: 3, background: "#336699" } }).png().toBuffer());
    for (const urlPath of ["/media/tests/once.png", "/resized/320/tests/once.png"]) {
      const res = await request(shop.baseUrl, "GET", urlPath);
      expect(res.status, urlPath).toBe(200);
      expect(times(res.raw, "x-content-type-options"), urlPath).toBe(1);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    }
  });

  it("sends every script and style of a page as the build compressed it, with its length and security headers", async () => {
    const page = await request(shop.baseUrl, "GET", "/");
    // Named in the page's links and in the list of modules its inline script imports.
    const urls = [...new Set([...page.body.matchAll(/"(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!))];
    expect(urls.length).toBeGreaterThan(2);
    const client = path.resolve(process.env.SHOP_BUILD_DIR || "build", "client");
    for (const url of urls) {
      const file = path.join(client, url);
      const raw = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(new URL(url, shop.baseUrl), { headers: { "accept-encoding": "gzip, deflate, br, zstd" } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
      // The build writes a .br beside every script and style over 1 KB (vite.config.ts).
      if (!fs.existsSync(`${file}.br`)) {
        expect(fs.statSync(file).size, `${url} has no .br copy`).toBeLessThan(1024);
        continue;
      }
      expect(raw.headers["content-encoding"], url).toBe("br");
      expect(Number(raw.headers["content-length"]), url).toBe(fs.statSync(`${file}.br`).size);
      expect(zlib.brotliDecompressSync(raw.body).equals(fs.readFileSync(file)), url).toBe(true);
      expect(raw.headers["x-content-type-options"], url).toBe("nosniff");
      expect(raw.headers["cache-control"], url).toBe("public, max-age=31536000, immutable");
    }
  });

  it("sends no Strict-Transport-Security over plain http (PUBLIC_URL is http here)", async () => {
    const res = await request(shop.baseUrl, "GET", "/");
    expect(res.status).toBe(200);
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });
});
