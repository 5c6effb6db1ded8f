import { createHmac } from "node:crypto";
import express from "express";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import type pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { RENDERED_FOR, type ViewerRole, verifiedSessionToken } from "./session-viewer.server";
import { onlySessionCookie, pageCache } from "./page-cache.server";

/**
 * Signed-in visitors share the rendering of their kind (customer or admin), never the anonymous
 * one nor another kind's; a rendering made for another kind than asked is not kept. A fake pool
 * answers the change-log checks; the "sessions" are a map from cookie value to role.
 */
let server: http.Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((r) => s.close(r));
});

async function shop(sessions: Record<string, ViewerRole>) {
  const pool = { query: async () => ({ rows: [{ snapshot: "snap", changes: [] }] }) } as unknown as pg.Pool;
  let lookups = 0;
  let endSession: string | null = null;
  const cache = pageCache({
    maxBytes: 1024 * 1024,
    pool: () => pool,
    sessionRole: async (value) => {
      lookups++;
      return sessions[value] ?? null;
    },
  });
  let renderings = 0;
  const app = express();
  app.use(cache.serve);
  app.use((_req, res, next) => {
    res.locals.cspNonce = "nonce";
    next();
  });
  app.use(cache.capture);
  const page = (req: express.Request, res: express.Response) => {
    renderings++;
    const value = onlySessionCookie(req.headers.cookie ?? "");
    // The rendering's own reading of the session, as getCurrentUser would make it.
    const role = value && value !== endSession ? (sessions[value] ?? null) : null;
    res.locals[RENDERED_FOR] = role ?? "anonymous";
    res.type("text/html").send(`<header>${role ?? "sign in"}</header><p>${req.path} #${renderings}</p>`);
  };
  app.get("/shop", page);
  app.get("/product/:id", page);
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server!.once("listening", r));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  const get = async (path: string, cookie?: string) => {
    const res = await fetch(base + path, { headers: cookie ? { cookie } : {} });
    return { cache: res.headers.get("x-page-cache"), body: await res.text() };
  };
  return {
    get,
    renderings: () => renderings,
    lookups: () => lookups,
    endSessionDuringRendering: (value: string) => (endSession = value),
  };
}

const as = (value: string) => `better-auth.session_token=${value}`;

describe("the page cache's renderings per kind of visitor", () => {
  it("answers signed-in customers from the rendering they share, apart from anonymous visitors and admins", async () => {
    const s = await shop({ ann: "customer", bob: "customer", ada: "admin" });
    const ann = await s.get("/shop", as("ann"));
    expect(ann).toMatchObject({ cache: "miss", body: expect.stringContaining("<header>customer</header>") });
    // Another customer gets that very rendering (from the cache, or from the flight still being
    // kept when the request arrives right after); the anonymous visitor and the admin do not.
    const bob = await s.get("/shop", as("bob"));
    expect(["hit", "shared"]).toContain(bob.cache);
    expect(bob.body).toBe(ann.body);
    const anonymous = await s.get("/shop");
    expect(anonymous).toMatchObject({ cache: "miss", body: expect.stringContaining("<header>sign in</header>") });
    const ada = await s.get("/shop", as("ada"));
    expect(ada).toMatchObject({ cache: "miss", body: expect.stringContaining("<header>admin</header>") });
    const anonymousAgain = await s.get("/shop");
    expect(["hit", "shared"]).toContain(anonymousAgain.cache);
    expect(anonymousAgain.body).toBe(anonymous.body);
    const adaAgain = await s.get("/shop", as("ada"));
    expect(["hit", "shared"]).toContain(adaAgain.cache);
    expect(adaAgain.body).toBe(ada.body);
    expect(s.renderings()).toBe(3);
  });

  it("renders for itself a request whose session the lookup does not vouch for, or with any other cookie", async () => {
    const s = await shop({ ann: "customer" });
    await s.get("/shop", as("ann"));
    expect((await s.get("/shop", as("forged"))).cache).toBeNull();
    expect((await s.get("/shop", `${as("ann")}; theme=dark`)).cache).toBeNull();
    expect((await s.get("/shop", "theme=dark")).cache).toBeNull();
    expect(s.renderings()).toBe(4);
  });

  it("never shares a product page between signed-in customers (it says whether this shopper may review)", async () => {
    const s = await shop({ ann: "customer", bob: "customer" });
    expect((await s.get("/product/1", as("ann"))).cache).toBeNull();
    expect((await s.get("/product/1", as("bob"))).cache).toBeNull();
    expect(s.lookups()).toBe(0);
    expect(s.renderings()).toBe(2);
  });

  it("does not keep a rendering made for another kind of visitor than it was asked for", async () => {
    const s = await shop({ ann: "customer", bob: "customer" });
    // The session ended between the lookup and the rendering: an anonymous page for a customer's key.
    s.endSessionDuringRendering("ann");
    expect(await s.get("/shop", as("ann"))).toMatchObject({ cache: "miss", body: expect.stringContaining("sign in") });
    expect(await s.get("/shop", as("bob"))).toMatchObject({ cache: "miss", body: expect.stringContaining("<header>customer</header>") });
  });
});

describe("onlySessionCookie", () => {
  it("takes the session cookie's value when it is the only cookie, under either name", () => {
    expect(onlySessionCookie("better-auth.session_token=abc.def%3D")).toBe("abc.def%3D");
    expect(onlySessionCookie(" __Secure-better-auth.session_token=abc ")).toBe("abc");
    expect(onlySessionCookie("better-auth.session_token=abc; other=1")).toBeNull();
    expect(onlySessionCookie("session_token=abc")).toBeNull();
    expect(onlySessionCookie("")).toBeNull();
  });
});

describe("verifiedSessionToken", () => {
  const secret = "s3cret";
  const signed = (token: string, key = secret) => encodeURIComponent(`${token}.${createHmac("sha256", key).update(token).digest("base64")}`);
  it("returns the token of a cookie signed with the secret, and nothing for a forged or broken one", () => {
    expect(verifiedSessionToken(signed("tok123"), secret)).toBe("tok123");
    expect(verifiedSessionToken(signed("tok123", "other"), secret)).toBeNull();
    expect(verifiedSessionToken("tok123", secret)).toBeNull();
    expect(verifiedSessionToken("%E0%A4%A", secret)).toBeNull();
    expect(verifiedSessionToken(`tok123.${"A".repeat(44)}`, secret)).toBeNull();
  });
});
