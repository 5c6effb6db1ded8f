import type { AddressInfo } from "node:net";
import http from "node:http";
import express from "express";
import { matchRoutes, type ServerBuild } from "react-router";
import { afterAll, describe, expect, it } from "vitest";
import { allowedMethods } from "./allowed-methods.server";
import { privateResponses } from "./private-responses.server";
import { cspNonce, securityHeaders } from "./security-headers.server";

const servers: http.Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

async function listen(app: express.Express) {
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((r) => server.once("listening", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function send(base: string, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; raw: string[] }>((resolve, reject) => {
    const req = http.request(new URL(path, base), { method, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, raw: res.rawHeaders }));
    });
    req.on("error", reject);
    req.end();
  });
}

const route = (id: string, parentId: string | undefined, path: string | undefined, module: object, index = false) => ({
  [id]: { id, parentId, path, index, caseSensitive: undefined, module },
});
/** The shape of a server build's route list: a root, pages, resource routes and a catch-all. */
const build = {
  routes: {
    ...route("root", undefined, "", { default: () => null, loader: () => null }),
    ...route("routes/layout", "root", undefined, { default: () => null }),
    ...route("routes/home", "routes/layout", undefined, { default: () => null, loader: () => null }, true),
    ...route("routes/shop", "routes/layout", "shop", { default: () => null, loader: () => null }),
    ...route("routes/not-found", "routes/layout", "*", { default: () => null, loader: () => null }),
    ...route("routes/healthz", "root", "healthz", { loader: () => null }),
    ...route("routes/checkout-api", "root", "api/checkout", { action: () => null }),
    ...route("routes/newsletter", "root", "resources/newsletter", { loader: () => null, action: () => null }),
  },
} as unknown as Pick<ServerBuild, "routes">;

describe("allowedMethods", () => {
  it("answers methods no route takes with 405 and the route's methods in Allow; GET, HEAD and POST go on", async () => {
    const app = express();
    app.use(allowedMethods(build));
    app.use((_req, res) => void res.status(200).send("routed"));
    const base = await listen(app);
    for (const [method, path, allow] of [
      ["TRACE", "/", "GET, HEAD, POST"],
      ["OPTIONS", "/shop", "GET, HEAD, POST"],
      ["OPTIONS", "/shop.data", "GET, HEAD, POST"],
      ["OPTIONS", "/_root.data", "GET, HEAD, POST"],
      ["PUT", "/no/such/page", "GET, HEAD, POST"],
      ["TRACE", "/healthz", "GET, HEAD"],
      ["OPTIONS", "/api/checkout", "POST"],
      ["DELETE", "/resources/newsletter", "GET, HEAD, POST"],
    ] as const) {
      const res = await send(base, method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
    }
    for (const method of ["GET", "HEAD", "POST"]) expect((await send(base, method, "/shop")).status).toBe(200);
  });
});

describe("allowedMethods on resource routes", () => {
  it("answers GET and HEAD on a route that only takes POST, and POST on one that only reads, with 405 and Allow", async () => {
    const app = express();
    app.use(allowedMethods(build));
    app.use((_req, res) => void res.status(200).send("routed"));
    const base = await listen(app);
    for (const [method, path, allow] of [
      ["GET", "/api/checkout", "POST"],
      ["HEAD", "/api/checkout", "POST"],
      ["GET", "/api/checkout.data", "POST"],
      ["POST", "/healthz", "GET, HEAD"],
    ] as const) {
      const res = await send(base, method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
    }
    // What a route takes goes on; pages take all three.
    for (const [method, path] of [
      ["POST", "/api/checkout"],
      ["GET", "/healthz"],
      ["GET", "/resources/newsletter"],
      ["POST", "/resources/newsletter"],
      ["POST", "/shop"],
      ["POST", "/no/such/page"],
    ] as const) {
      expect((await send(base, method, path)).status, `${method} ${path}`).toBe(200);
    }
  });
});

describe("allowedMethods remembers each path's answer", () => {
  it("matches the route tree once per path shape: any product's id stands for another, and the answers stay right", async () => {
    const withIds = {
      routes: {
        ...build.routes,
        ...route("routes/product", "routes/layout", "product/:id", { default: () => null, loader: () => null }),
        ...route("routes/order-pdf", "root", "api/orders/:id/invoice", { loader: () => null }),
      },
    } as unknown as Pick<ServerBuild, "routes">;
    let matched = 0;
    const app = express();
    app.use(allowedMethods(withIds, (...args) => (matched++, matchRoutes(...args))));
    app.use((_req, res) => void res.status(200).send("routed"));
    const base = await listen(app);
    const ids = ["0b0e7c1e-4a7f-4f5e-9d62-1c2b3a4d5e6f", "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a", "12345678-90ab-4cde-8f01-23456789abcd"];
    for (const id of ids) {
      expect((await send(base, "GET", `/product/${id}`)).status).toBe(200);
      expect((await send(base, "GET", `/product/${id}.data`)).status).toBe(200);
      const post = await send(base, "POST", `/api/orders/${id}/invoice`);
      expect(post.status).toBe(405);
      expect(post.headers.allow).toBe("GET, HEAD");
    }
    for (let i = 0; i < 5; i++) expect((await send(base, "GET", "/shop.data")).status).toBe(200);
    // One match each for the product page, the invoice route and /shop.
    expect(matched).toBe(3);
  });
});

describe("privateResponses and answers that set their own caching", () => {
  it("makes a signed-in visitor's 'no-store' answers private, keeps no-transform, and marks the payment pages' tokens private for everyone", async () => {
    const app = express();
    app.use(privateResponses());
    app.get("/api/cart", (_req, res) => void res.set("Cache-Control", "no-store").json({ lines: [] }));
    app.get("/admin/products/jobs/x/events", (_req, res) => void res.type("text/event-stream").set("Cache-Control", "no-cache, no-transform").send("data: 1\n\n"));
    app.get(["/order-success", "/order-success.data", "/pay/test/cs_1"], (_req, res) => void res.type("text/html").send("<p>order</p>"));
    const base = await listen(app);
    const cacheControl = async (path: string, cookie?: string) => (await send(base, "GET", path, cookie ? { cookie } : {})).headers["cache-control"];
    expect(await cacheControl("/api/cart", "better-auth.session_token=abc.def")).toBe("private, no-store");
    expect(await cacheControl("/api/cart")).toBe("no-store");
    expect(await cacheControl("/admin/products/jobs/x/events")).toBe("private, no-store, no-transform");
    for (const path of ["/order-success?session_id=cs_1", "/order-success.data?session_id=cs_1", "/pay/test/cs_1"]) {
      expect(await cacheControl(path), path).toBe("private, no-store");
    }
  });
});

describe("privateResponses", () => {
  const session = "better-auth.session_token=abc.def";

  it("marks pages, .data answers and cache-less answers private for a session and under /admin and /profile", async () => {
    const app = express();
    app.use(privateResponses());
    app.get("/page", (_req, res) => void res.type("text/html").set("Cache-Control", "public, max-age=60").send("<p>hi</p>"));
    app.get("/page.data", (_req, res) => void res.type("text/x-script").send("[]"));
    app.get("/api", (_req, res) => void res.json({ ok: true }));
    app.get("/file.png", (_req, res) => void res.type("image/png").set("Cache-Control", "public, max-age=31536000, immutable").send("png"));
    app.get(["/admin", "/admin/orders/export", "/profile"], (_req, res) => void res.type("text/csv").send("a,b"));
    app.get("/admin/go", (_req, res) => void res.redirect(302, "/auth"));
    const base = await listen(app);
    const cacheControl = async (path: string, cookie?: string) =>
      (await send(base, "GET", path, cookie ? { cookie } : {})).headers["cache-control"];

    for (const cookie of [session, `theme=dark; __Secure-${session}`]) {
      expect(await cacheControl("/page", cookie)).toBe("private, no-store");
      expect(await cacheControl("/page.data", cookie)).toBe("private, no-store");
      expect(await cacheControl("/api", cookie)).toBe("private, no-store");
      // The same file for everyone keeps its own caching.
      expect(await cacheControl("/file.png", cookie)).toBe("public, max-age=31536000, immutable");
    }
    for (const path of ["/admin", "/admin/orders/export", "/profile", "/admin/go"]) expect(await cacheControl(path)).toBe("private, no-store");
    // A visitor without a session: storefront answers are left as they are.
    expect(await cacheControl("/page")).toBe("public, max-age=60");
    expect(await cacheControl("/page", "theme=dark")).toBe("public, max-age=60");
    expect(await cacheControl("/api")).toBeUndefined();
    expect(await cacheControl("/administrator-notes")).toBeUndefined();
  });

  it("marks the account pages a mailed link opens with its token private for everyone: confirm, sign-in link, reset", async () => {
    const app = express();
    app.use(privateResponses());
    app.use((_req, res) => void res.type("text/html").send(`<input type="hidden" name="token" value="t">`));
    const base = await listen(app);
    for (const path of ["/auth/confirm?token=t", "/auth/confirm.data?token=t", "/auth/sign-in-link?token=t", "/auth/reset-password?token=t"]) {
      expect((await send(base, "GET", path)).headers["cache-control"], path).toBe("private, no-store");
    }
  });

  it("marks the pages a mail's token opens private for everyone: /cart/restore, /unsubscribe, /newsletter/*", async () => {
    const app = express();
    app.use(privateResponses());
    // A page that says nothing about caching (as React Router sends a loader's page without a `headers` export).
    app.use((_req, res) => void res.type("text/html").send("<p>token page</p>"));
    const base = await listen(app);
    for (const path of [
      "/cart/restore?token=t",
      "/cart/restore.data?token=t",
      "/unsubscribe?email=a%40b.test&token=t",
      "/unsubscribe.data?token=t",
      "/newsletter/confirm?id=1&token=t",
      "/newsletter/unsubscribe?id=1&token=t",
      "/newsletter/unsubscribe.data?id=1&token=t",
    ]) {
      expect((await send(base, "GET", path)).headers["cache-control"], path).toBe("private, no-store");
    }
    // Storefront pages without a token stay as they are.
    expect((await send(base, "GET", "/cart")).headers["cache-control"]).toBeUndefined();
    expect((await send(base, "GET", "/unsubscribed-offers")).headers["cache-control"]).toBeUndefined();
  });
});

describe("securityHeaders", () => {
  it("sends Strict-Transport-Security only when the shop's public address is https, and nosniff once", async () => {
    for (const https of [true, false]) {
      const app = express();
      app.use(securityHeaders({ dev: false, https }));
      app.get("/", (_req, res) => void res.send("ok"));
      const res = await send(await listen(app), "GET", "/");
      if (https) expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      else expect(res.headers["strict-transport-security"]).toBeUndefined();
      expect(res.raw.filter((v, i) => i % 2 === 0 && v.toLowerCase() === "x-content-type-options")).toHaveLength(1);
    }
  });

  it("gives each response a nonce of its own, 16 random bytes, named in its script-src, never one handed out before", async () => {
    const app = express();
    app.use(securityHeaders({ dev: false, https: false }));
    app.get("/", (_req, res) => void res.send(String(res.locals.cspNonce)));
    const base = await listen(app);
    const seen = new Set<string>();
    // Past the 256 nonces drawn at a time, so a refill is crossed.
    for (let i = 0; i < 300; i++) {
      const res = await send(base, "GET", "/");
      const nonce = /'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]))?.[1];
      expect(nonce).toBeTruthy();
      expect(Buffer.from(nonce!, "base64")).toHaveLength(16);
      seen.add(nonce!);
    }
    for (let i = 0; i < 600; i++) seen.add(cspNonce());
    expect(seen.size).toBe(900);
  });
});
