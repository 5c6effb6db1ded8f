import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownPostgres, spawnShop, tempDataDir, waitFor, type OwnPostgres, type ShopProcess } from "./faults-harness";

/**
 * A fault the shop survives: the database going away for a few seconds. PostgreSQL really stops
 * (pg_ctl, on a server of this file's own), the shop keeps running, answers a clear 503 meanwhile,
 * and serves pages again by itself once the database is back — no restart.
 */
let pg: OwnPostgres;
let shop: ShopProcess;
let dataDir: string;

beforeAll(async () => {
  pg = await ownPostgres();
  dataDir = tempDataDir();
  shop = await spawnShop({ databaseUrl: pg.url, dataDir });
}, 90_000);

afterAll(async () => {
  await shop?.stop();
  await pg?.destroy();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const get = (path: string) => fetch(shop.baseUrl + path, { redirect: "manual" });

describe("when the database goes away", () => {
  it("answers 503 with a clear page while it is down and recovers by itself when it is back", async () => {
    expect((await get("/")).status).toBe(200);

    await pg.stop();
    for (const path of ["/", "/blog", "/cart"]) {
      // A hang would be caught here (the pool must fail fast on a refused connection).
      const res = await fetch(shop.baseUrl + path, { redirect: "manual", signal: AbortSignal.timeout(30_000) });
      const html = await res.text();
      expect(res.status, `${path} while the database is down`).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(html).toContain("The shop is briefly unavailable");
      expect(html).toContain("Please try again in a few seconds.");
      expect(html).not.toMatch(/ECONNREFUSED|at [\w.]+ \(|node_modules/);
    }
    // The data request a client-side navigation makes reports the same status.
    expect((await get("/blog.data")).status).toBe(503);
    const health = await get("/healthz");
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ database: "unreachable" });

    await new Promise((r) => setTimeout(r, 3_000));
    await pg.start();

    // Same process: the pool reconnects on its own.
    await waitFor("the home page to answer 200 again", async () => (await get("/")).status === 200, 20_000);
    expect((await get("/healthz")).status).toBe(200);
    expect((await get("/blog")).status).toBe(200);
    expect(shop.output()).not.toMatch(/Shop ready on[\s\S]*Shop ready on/);
  }, 90_000);
});
