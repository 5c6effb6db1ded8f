import express from "express";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { admissionControl, type AdmissionOptions } from "./admission.server";

/**
 * Admission control on a real Express app: a route that holds each request until the test lets it
 * go, so what is worked on, what waits and what is refused is decided by counts alone.
 */
type Held = { path: string; finish: () => void };

let server: http.Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((r) => s.close(r));
});

async function app(opts: Partial<AdmissionOptions> = {}) {
  const held: Held[] = [];
  const gate = admissionControl({ concurrency: 2, queue: 2, maxWaitMs: 60_000, unavailablePage: () => "<h1>The shop is briefly unavailable</h1>", ...opts });
  const a = express();
  a.use(gate);
  a.get("/events", (_req, res) => {
    res.setHeader("Content-Type", "text/event-stream");
    res.flushHeaders();
    held.push({ path: "/events", finish: () => res.end() });
  });
  a.all("/{*rest}", (req, res) => {
    held.push({ path: req.originalUrl, finish: () => res.send("done") });
  });
  server = a.listen(0, "127.0.0.1");
  await new Promise((r) => server!.once("listening", r));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  const agent = new http.Agent({ keepAlive: false, maxSockets: 100 });
  const get = (path: string, headers: Record<string, string> = {}, method = "GET") => {
    const controller = new AbortController();
    const response = new Promise<{ status: number; retryAfter: string | null; type: string; body: string }>((resolve, reject) => {
      const req = http.request(`${base}${path}`, { agent, method, headers, signal: controller.signal }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, retryAfter: (res.headers["retry-after"] as string) ?? null, type: String(res.headers["content-type"]), body }));
      });
      req.on("error", reject);
      req.end();
    });
    response.catch(() => {});
    return { response, abort: () => controller.abort() };
  };
  const until = async (what: () => boolean) => {
    for (let i = 0; i < 500 && !what(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(what()).toBe(true);
  };
  return { gate, held, get, until };
}

describe("admission control", () => {
  it("works on `concurrency` requests, queues `queue` more in order, and refuses the next at once with 503 and Retry-After", async () => {
    const { gate, held, get, until } = await app();
    const running = [get("/a")];
    await until(() => held.length === 1);
    running.push(get("/b"));
    await until(() => held.length === 2);
    // Each is in the queue before the next is sent: separate connections may arrive in any order.
    const queued = [get("/c")];
    await until(() => gate.stats().waiting === 1);
    queued.push(get("/d"));
    await until(() => gate.stats().waiting === 2);

    const refused = await get("/e", { accept: "text/html" }).response;
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe("5");
    expect(refused.type).toMatch(/^text\/html/);
    expect(refused.body).toContain("The shop is briefly unavailable");
    expect(held.map((h) => h.path)).toEqual(["/a", "/b"]);

    // A turn that ends admits the first in the queue, and only it.
    held[0]!.finish();
    expect((await running[0]!.response).status).toBe(200);
    await until(() => held.length === 3);
    expect(held[2]!.path).toBe("/c");
    expect(gate.stats()).toEqual({ inFlight: 2, searchesInFlight: 0, waiting: 1, refused: 1 });
    for (const h of held.slice(1)) h.finish();
    await until(() => held.length === 4);
    held[3]!.finish();
    for (const r of [running[1]!, ...queued]) expect((await r.response).status).toBe(200);
    expect(gate.stats()).toEqual({ inFlight: 0, searchesInFlight: 0, waiting: 0, refused: 1 });
  });

  it("a burst of searches does not hold up the other requests: three turns of four go to them, every fourth to a search", async () => {
    const { gate, held, get, until } = await app({ concurrency: 1, queue: 100 });
    const answers = [get("/product/first")];
    await until(() => held.length === 1);
    // Six searches (the listing, its data request, Load More) queue first, then four other requests.
    // An empty term is the plain listing, not a search. Each is in the queue before the next is
    // sent: requests on separate connections may reach the server in any order.
    const paths = ["/shop?search=a", "/shop.data?search=b", "/api/products?search=c&page=2", "/shop?search=d", "/shop?search=e", "/shop?search=f"];
    for (const path of [...paths, "/product/x", "/shop?search=", "/api/cart/quote", "/admin"]) {
      answers.push(get(path));
      await until(() => gate.stats().waiting === answers.length - 1);
    }
    for (let turn = 1; turn <= 10; turn++) {
      held[turn - 1]!.finish();
      await until(() => held.length === turn + 1);
    }
    held[10]!.finish();
    expect(held.map((h) => h.path).slice(1)).toEqual([
      "/product/x",
      "/shop?search=",
      "/api/cart/quote",
      "/shop?search=a",
      "/admin",
      "/shop.data?search=b",
      "/api/products?search=c&page=2",
      "/shop?search=d",
      "/shop?search=e",
      "/shop?search=f",
    ]);
    for (const a of answers) expect((await a.response).status).toBe(200);
  });

  it("works on at most `searchConcurrency` searches at once: more searches wait in their lane, and other requests go straight past them", async () => {
    const { gate, held, get, until } = await app({ concurrency: 4, searchConcurrency: 2, queue: 100 });
    const searches: ReturnType<typeof get>[] = [];
    for (const path of ["/shop?search=a", "/shop.data?search=b", "/shop?search=c", "/api/products?search=d&page=2"]) {
      searches.push(get(path));
      await until(() => held.length + gate.stats().waiting === searches.length);
    }
    expect(gate.stats()).toEqual({ inFlight: 2, searchesInFlight: 2, waiting: 2, refused: 0 });

    // Two turns are free, and no search may take them: a product page and a checkout take them at once.
    const others = [get("/product/x")];
    await until(() => held.length === 3);
    others.push(get("/api/checkout", {}, "POST"));
    await until(() => held.length === 4);
    expect(held.map((h) => h.path).slice(2)).toEqual(["/product/x", "/api/checkout"]);
    expect(gate.stats()).toEqual({ inFlight: 4, searchesInFlight: 2, waiting: 2, refused: 0 });

    // A product page that ends frees a turn, but not a search's: the searches still wait.
    held[2]!.finish();
    expect((await others[0]!.response).status).toBe(200);
    await until(() => gate.stats().inFlight === 3);
    await new Promise((r) => setTimeout(r, 50));
    expect(held).toHaveLength(4);

    // A search that ends lets the next search in, first come first served.
    held[0]!.finish();
    await until(() => held.length === 5);
    expect(held[4]!.path).toBe("/shop?search=c");
    held[1]!.finish();
    await until(() => held.length === 6);
    expect(held[5]!.path).toBe("/api/products?search=d&page=2");
    for (const h of held.slice(3)) h.finish();
    for (const r of [...searches, ...others]) expect((await r.response).status).toBe(200);
    expect(gate.stats()).toEqual({ inFlight: 0, searchesInFlight: 0, waiting: 0, refused: 0 });
  });

  it("refuses a request that waited longer than maxWaitMs, and answers data requests and APIs in their own form", async () => {
    const { gate, held, get, until } = await app({ concurrency: 1, queue: 10, maxWaitMs: 50 });
    get("/slow");
    await until(() => held.length === 1);
    const data = await get("/shop.data").response;
    expect([data.status, data.retryAfter, data.type.split(";")[0], data.body]).toEqual([503, "5", "text/plain", "The shop is briefly unavailable"]);
    const api = await get("/api/products", { accept: "*/*" }).response;
    expect([api.status, api.retryAfter, api.type.split(";")[0]]).toEqual([503, "5", "application/json"]);
    expect(JSON.parse(api.body)).toEqual({ error: "The shop is briefly unavailable" });
    expect(gate.stats()).toMatchObject({ inFlight: 1, waiting: 0, refused: 2 });
    held[0]!.finish();
  });

  it("lets a client that gave up leave the queue, and frees the turn of one that left mid-way", async () => {
    const { gate, held, get, until } = await app({ concurrency: 1, queue: 1 });
    const first = get("/first");
    await until(() => held.length === 1);
    const waiting = get("/waiting");
    await until(() => gate.stats().waiting === 1);
    waiting.abort();
    await until(() => gate.stats().waiting === 0);
    // The freed place in the queue takes another request rather than refusing it.
    const next = get("/next");
    await until(() => gate.stats().waiting === 1);
    first.abort();
    await until(() => held.length === 2);
    expect(held.map((h) => h.path)).toEqual(["/first", "/next"]);
    held[1]!.finish();
    expect((await next.response).status).toBe(200);
    expect(gate.stats()).toEqual({ inFlight: 0, searchesInFlight: 0, waiting: 0, refused: 0 });
  });

  it("never holds up the health check or uploaded files, and a stream of events gives its turn back once it starts", async () => {
    const { gate, held, get, until } = await app({ concurrency: 1, queue: 0 });
    get("/events");
    await until(() => held.length === 1);
    expect(gate.stats().inFlight).toBe(0);
    get("/page");
    await until(() => held.length === 2);
    expect((await get("/other").response).status).toBe(503);
    get("/healthz");
    get("/media/products/a.webp");
    await until(() => held.length === 4);
    expect(held.map((h) => h.path)).toEqual(["/events", "/page", "/healthz", "/media/products/a.webp"]);
    for (const h of held) h.finish();
  });
});
