import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shippingForm } from "../factories/orders";
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
  // Rate limits on, as in production: the checkout's limit is its first read of the database.
  shop = await spawnShop({ databaseUrl: pg.url, dataDir, env: { RATE_LIMIT_DISABLED: "false" } });
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

  it("refuses a checkout placed meanwhile with JSON the checkout page shows, like its other refusals", async () => {
    await pg.stop();
    try {
      const res = await fetch(`${shop.baseUrl}/api/checkout`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", origin: shop.baseUrl },
        body: JSON.stringify({
          cartItems: [{ id: "00000000-0000-4000-8000-000000000001", quantity: 1, priceCents: 1000 }],
          formData: shippingForm(),
          idempotencyKey: "outage-1234.abcd1234",
        }),
        signal: AbortSignal.timeout(30_000),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      // The page's toast: the body's title, and its error as the description.
      expect(await res.json()).toEqual({
        title: "Order Failed",
        error: "The shop is briefly unavailable. Please try again in a few seconds.",
      });
    } finally {
      await pg.start();
    }
    await waitFor("the home page to answer 200 again", async () => (await get("/")).status === 200, 20_000);
  }, 90_000);
});
