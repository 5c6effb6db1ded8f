import express from "express";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import type pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { pageCache } from "./page-cache.server";

/**
 * Single flight (docs/decisions/0016): concurrent misses of one URL share one rendering, without
 * giving up decision 0012's promise that a change shows on the next request. A fake pool answers
 * the change-log checks; the page's route holds each rendering until the test lets it finish.
 */
let server: http.Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((r) => s.close(r));
});

async function shop() {
  let changes: (string | null)[] = [];
  let checks = 0;
  const pool = {
    query: async () => {
      checks++;
      const answer = { rows: [{ snapshot: `snap-${checks}`, changes }] };
      changes = [];
      return answer;
    },
  } as unknown as pg.Pool;
  const cache = pageCache({ maxBytes: 1024 * 1024, pool: () => pool });
  const renderings: { finish: () => void }[] = [];
  let version = "before";
  const app = express();
  app.use(cache.serve);
  app.use((_req, res, next) => {
    res.locals.cspNonce = "nonce";
    next();
  });
  app.use(cache.capture);
  app.get("/shop", (_req, res) => {
    const shown = version;
    renderings.push({ finish: () => res.type("text/html").send(`<p>${shown}</p>`) });
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server!.once("listening", r));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  const get = async (headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/shop?search=linen`, { headers });
    return { status: res.status, cache: res.headers.get("x-page-cache"), body: await res.text() };
  };
  const until = async (what: () => boolean) => {
    for (let i = 0; i < 500 && !what(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(what()).toBe(true);
  };
  return {
    get,
    until,
    renderings,
    commit: (text: string) => {
      version = text;
      changes = [null];
    },
    checks: () => checks,
  };
}

describe("the page cache's single flight", () => {
  it("renders a page once for concurrent misses of its URL, and serves that rendering to all of them", async () => {
    const s = await shop();
    const first = s.get();
    await s.until(() => s.renderings.length === 1);
    const checksBefore = s.checks();
    const others = Array.from({ length: 20 }, () => s.get());
    await s.until(() => s.checks() > checksBefore);
    await new Promise((r) => setTimeout(r, 50));
    expect(s.renderings).toHaveLength(1);
    s.renderings[0]!.finish();
    expect(await first).toMatchObject({ status: 200, cache: "miss", body: "<p>before</p>" });
    const answers = await Promise.all(others);
    expect(answers.every((a) => a.status === 200 && a.body === "<p>before</p>")).toBe(true);
    expect(answers.every((a) => a.cache === "shared" || a.cache === "hit")).toBe(true);
    expect(s.renderings).toHaveLength(1);
  });

  it("does not hand a rendering that began before a change to a request that arrived after it", async () => {
    const s = await shop();
    const first = s.get();
    await s.until(() => s.renderings.length === 1);
    s.commit("after");
    const second = s.get();
    await new Promise((r) => setTimeout(r, 50));
    s.renderings[0]!.finish();
    expect((await first).body).toBe("<p>before</p>");
    // It waited for the first rendering, found it stale, and rendered the page itself.
    await s.until(() => s.renderings.length === 2);
    s.renderings[1]!.finish();
    expect(await second).toMatchObject({ status: 200, cache: "miss", body: "<p>after</p>" });
    // The next request gets that rendering (from the store, or still from its flight).
    expect(await s.get()).toMatchObject({ cache: expect.stringMatching(/^(hit|shared)$/), body: "<p>after</p>" });
    expect(s.renderings).toHaveLength(2);
  });

  it("never shares with, or takes from, a request with a cookie", async () => {
    const s = await shop();
    const first = s.get();
    await s.until(() => s.renderings.length === 1);
    const signedIn = s.get({ cookie: "better-auth.session_token=x" });
    await s.until(() => s.renderings.length === 2);
    s.renderings[1]!.finish();
    expect((await signedIn).cache).toBeNull();
    s.renderings[0]!.finish();
    expect((await first).cache).toBe("miss");
  });
});
