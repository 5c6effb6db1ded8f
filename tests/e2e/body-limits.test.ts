import http from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeStripeEnv, startFakeStripe, type FakeStripe } from "../fakes/stripe";
import { createSession, makeAdmin, SESSION_COOKIE } from "../factories/users";
import { E2E_AUTH_SECRET, startShop } from "./harness";

/**
 * A body over a route's limit is answered 413 and the connection is closed (`Connection: close`)
 * once the answer is out: the rest of the body is never read, so the connection cannot carry
 * another request. A client that reuses its keep-alive connections (an http.Agent, undici, a
 * proxy) must get the 413 whole, without a reset, and its next request must succeed.
 * About sockets, so it runs against the real server process.
 */
const KB = 1024;
const UPLOAD_MAX = 64 * KB;
const IMPORT_MAX = 64 * KB;

let shop: Awaited<ReturnType<typeof startShop>>;
let stripe: FakeStripe;
let adminCookie = "";

beforeAll(async () => {
  stripe = await startFakeStripe();
  shop = await startShop({
    env: {
      // Stripe configured, so its webhook reads (and limits) the body; nothing here reaches Stripe.
      ...fakeStripeEnv(stripe),
      UPLOAD_MAX_BYTES: String(UPLOAD_MAX),
      IMPORT_MAX_BYTES: String(IMPORT_MAX),
      RATE_LIMIT_DISABLED: "true",
    },
  });
  const admin = await makeAdmin(shop.db);
  adminCookie = `${SESSION_COOKIE}=${(await createSession(shop.db, admin.id, E2E_AUTH_SECRET)).cookieValue}`;
}, 90_000);

afterAll(async () => {
  await shop?.stop();
  await shop?.test.drop();
  await stripe?.close();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string; socket: Socket; reusedSocket: boolean };

/**
 * One request through `agent`. Resolves with the whole answer; rejects on any socket error
 * (a reset, a hang-up), also one that arrives after the answer while the body is still going out.
 */
function send(
  agent: http.Agent,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer; chunked?: boolean } = {},
): Promise<Answer> {
  const url = new URL(path, shop.baseUrl);
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? (opts.body ? "POST" : "GET"), agent, headers: opts.headers });
    let answer: Answer | null = null;
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer from ${path} in 15 s`)));
    req.on("error", fail);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", fail);
      res.on("end", () => {
        answer = {
          status: res.statusCode!,
          headers: res.headers,
          text: Buffer.concat(chunks).toString("utf8"),
          socket: req.socket as Socket,
          reusedSocket: req.reusedSocket,
        };
        // An error on the socket right after the answer (a reset while the body was still being
        // written) still fails the request: give it a moment to show.
        setTimeout(() => {
          if (settled) return;
          settled = true;
          resolve(answer!);
        }, 50);
      });
    });
    if (!opts.body) return void req.end();
    if (!opts.chunked) {
      req.setHeader("content-length", String(opts.body.byteLength));
      return void req.end(opts.body);
    }
    // Chunked: no Content-Length, the size shows only as the body arrives.
    let offset = 0;
    const writeMore = () => {
      while (offset < opts.body!.byteLength) {
        const piece = opts.body!.subarray(offset, offset + 16 * KB);
        offset += piece.byteLength;
        if (!req.write(piece)) return void req.once("drain", writeMore);
      }
      req.end();
    };
    writeMore();
  });
}

const closed = (socket: Socket) =>
  socket.destroyed
    ? Promise.resolve()
    : new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error("the server kept the connection open")), 5000);
        socket.once("close", () => {
          clearTimeout(t);
          resolve();
        });
      });

const json = (size: number) => Buffer.from(JSON.stringify({ cartItems: [], padding: "x".repeat(size) }));
const form = (size: number) => Buffer.from(new URLSearchParams({ email: "a@example.test", padding: "x".repeat(size) }).toString());

function multipart(size: number, file: { name: string; type: string; fill: string } = { name: "big.png", type: "image/png", fill: "\x01" }) {
  const boundary = "----shopTestBoundary";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), Buffer.alloc(size, file.fill), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

type Case = { name: string; path: string; headers: () => Record<string, string>; body: () => Buffer; error?: string };

const CASES: Case[] = [
  {
    name: "checkout JSON",
    path: "/api/checkout",
    headers: () => ({ "content-type": "application/json" }),
    body: () => json(1024 * KB + 64 * KB),
    error: "The request is too large.",
  },
  {
    name: "verify-payment JSON",
    path: "/api/verify-payment",
    headers: () => ({ "content-type": "application/json" }),
    body: () => Buffer.from(JSON.stringify({ session_id: "x".repeat(64 * KB) })),
    error: "The request is too large.",
  },
  {
    name: "Stripe webhook",
    path: "/api/webhooks/stripe",
    headers: () => ({ "content-type": "application/json", "stripe-signature": "t=1,v1=00" }),
    body: () => json(600 * KB),
  },
  {
    name: "public form (newsletter)",
    path: "/resources/newsletter",
    headers: () => ({ "content-type": "application/x-www-form-urlencoded", origin: shop.baseUrl }),
    body: () => form(128 * KB),
    error: "The request is too large.",
  },
  {
    name: "public form (forgot password page)",
    path: "/auth/forgot-password",
    headers: () => ({ "content-type": "application/x-www-form-urlencoded", origin: shop.baseUrl }),
    body: () => form(128 * KB),
  },
  {
    name: "contact form page",
    path: "/contact",
    headers: () => ({ "content-type": "application/x-www-form-urlencoded", origin: shop.baseUrl }),
    body: () => form(300 * KB),
  },
  {
    name: "admin form (blog list)",
    path: "/admin/blog",
    headers: () => ({ "content-type": "application/x-www-form-urlencoded", origin: shop.baseUrl, cookie: adminCookie }),
    body: () => form(64 * KB),
  },
  {
    name: "blog image upload",
    path: "/admin/blog/upload",
    headers: () => ({ "content-type": multipart(0).contentType, origin: shop.baseUrl, cookie: adminCookie }),
    body: () => multipart(UPLOAD_MAX + 128 * KB).body,
  },
  {
    name: "product CSV import",
    path: "/admin/products/import",
    headers: () => ({ "content-type": "text/csv", "x-file-name": "big.csv", origin: shop.baseUrl, cookie: adminCookie }),
    body: () => Buffer.from(`Name,Price\n${"Linen Sheet,49\n".repeat(Math.ceil((IMPORT_MAX + 64 * KB) / 15))}`),
  },
  {
    name: "product CSV import (a form)",
    path: "/admin/products/import",
    headers: () => ({ "content-type": multipart(0).contentType, origin: shop.baseUrl, cookie: adminCookie }),
    body: () => multipart(IMPORT_MAX + 64 * KB, { name: "big.csv", type: "text/csv", fill: "a" }).body,
  },
];

describe("a body answered before it was read", () => {
  it("closes the connection after the answer (not signed in), and the agent's next request works", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { body, contentType } = multipart(UPLOAD_MAX);
      const refused = await send(agent, "/admin/blog/upload", { headers: { "content-type": contentType, origin: shop.baseUrl }, body });
      expect(refused.status).toBeGreaterThanOrEqual(300);
      expect(refused.headers.connection).toBe("close");
      await closed(refused.socket);
      const again = await send(agent, "/healthz");
      expect([again.status, again.reusedSocket]).toEqual([200, false]);
    } finally {
      agent.destroy();
    }
  });
});

describe("a body over the route's limit on a keep-alive connection", () => {
  describe.each([
    ["with Content-Length", false],
    ["chunked", true],
  ] as const)("%s", (_label, chunked) => {
    it.each(CASES)("$name: 413, Connection: close, then the same agent and a fresh connection both work", async (c) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        // The connection is in use before: the refusal must also close a reused one.
        const warm = await send(agent, "/healthz");
        expect(warm.status).toBe(200);

        const refused = await send(agent, c.path, { headers: c.headers(), body: c.body(), chunked });
        expect(refused.status, refused.text.slice(0, 300)).toBe(413);
        expect(refused.headers.connection).toBe("close");
        if (c.error) expect(JSON.parse(refused.text)).toMatchObject({ error: c.error });
        await closed(refused.socket);

        // The same agent: a new connection, not a reset one.
        const again = await send(agent, "/healthz");
        expect(again.status).toBe(200);
        expect(again.reusedSocket).toBe(false);
        // And keep-alive goes on as usual for ordinary requests.
        const third = await send(agent, "/healthz");
        expect(third.status).toBe(200);
        expect(third.reusedSocket).toBe(true);

        // A fresh connection, as another client would open.
        const fresh = new http.Agent({ keepAlive: false });
        expect((await send(fresh, "/healthz")).status).toBe(200);
        fresh.destroy();
      } finally {
        agent.destroy();
      }
    });
  });
});
