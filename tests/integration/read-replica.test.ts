import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDatabase, getDb, storefrontDb, useReplica } from "~/server/platform/db/client.server";
import { ReadRoutingPool } from "~/server/platform/db/replica.server";
import { loader as blogLoader } from "~/routes/blog/index";
import { loader as productLoader } from "~/routes/store/product";
import { loader as shopLoader } from "~/routes/store/shop";
import { loader as sitemapLoader } from "~/routes/resources/sitemap";
import { loader as cartQuote } from "~/routes/resources/cart-quote";
import { routeArgs } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/**
 * Which reads go to DATABASE_REPLICA_URL's pool (docs/decisions/0041). The "replica" here is a
 * second pool on the test database, watched; the real streaming replica is tests/e2e/replica.test.ts.
 */
const t = useTestDatabase();

describe("storefront reads with a replica configured", () => {
  let replica: pg.Pool;
  let onReplica: ReturnType<typeof vi.spyOn>;
  let onPrimary: ReturnType<typeof vi.spyOn>;

  beforeAll(() => {
    replica = useReplica(t.url, 2).replica;
    onReplica = vi.spyOn(replica, "query");
    onPrimary = vi.spyOn(getDb().$client, "query");
  });
  afterAll(async () => {
    await replica.end();
  });

  const reset = () => {
    onReplica.mockClear();
    onPrimary.mockClear();
  };

  it("the listing, search, product page, blog and sitemap read on the replica", async () => {
    const product = await makeProduct(t.db, { name: "Routed Linen Duvet", priceCents: 9900 });
    reset();
    const shop = (await shopLoader(routeArgs(new Request("http://localhost:3000/shop")) as never)) as { data: { result: { items: { name: string }[] } } };
    expect(shop.data.result.items.map((p) => p.name)).toContain("Routed Linen Duvet");
    const search = (await shopLoader(routeArgs(new Request("http://localhost:3000/shop?search=duvet")) as never)) as { data: { result: { items: { name: string }[] } } };
    expect(search.data.result.items.map((p) => p.name)).toContain("Routed Linen Duvet");
    const page = (await productLoader({ ...(routeArgs(new Request(`http://localhost:3000/product/${product.id}`)) as object), params: { id: product.id } } as never)) as {
      product: { name: string };
    };
    expect(page.product.name).toBe("Routed Linen Duvet");
    await blogLoader(routeArgs(new Request("http://localhost:3000/blog")) as never);
    const sitemap = (await sitemapLoader(routeArgs(new Request("http://localhost:3000/sitemap.xml")) as never)) as Response;
    expect(sitemap.status).toBe(200);
    expect(onReplica.mock.calls.length).toBeGreaterThan(4);
    // The product page's "may this shopper review" is the shopper's own: the primary's.
    expect(onPrimary.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it("the cart quote and writes stay on the primary", async () => {
    const product = await makeProduct(t.db, { name: "Quoted Wool Throw", priceCents: 4500 });
    reset();
    const res = (await cartQuote(routeArgs(new Request(`http://localhost:3000/api/cart/quote?lines=${encodeURIComponent(`${product.id}:1`)}`)) as never)) as Response;
    expect(res.status).toBe(200);
    await getDb().$client.query("update products set name = 'Quoted Wool Throw II' where id = $1", [product.id]);
    expect(onReplica).not.toHaveBeenCalled();
    expect(onPrimary.mock.calls.length).toBeGreaterThan(0);
    expect(storefrontDb()).not.toBe(getDb());
  });
});

/** A stand-in replica: the test database's pool, which can be made unreachable or behind. */
function fakeReplica(url: string) {
  const pool = createDatabase(url, 2).$client;
  const state = { down: false, replayed: "0/0" as string | null, reads: 0 };
  const replica = {
    query: async (config: string | { text: string }, values?: unknown[]) => {
      if (state.down) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5433"), { code: "ECONNREFUSED" });
      const text = typeof config === "string" ? config : config.text;
      if (text.includes("pg_last_wal_replay_lsn")) return { rows: [{ lsn: state.replayed }] };
      state.reads++;
      return pool.query(config as string, values);
    },
    connect: () => (state.down ? Promise.reject(Object.assign(new Error("Connection terminated unexpectedly"), {})) : pool.connect()),
  };
  return { replica: replica as unknown as pg.Pool, state, end: () => pool.end() };
}

describe("the read router", () => {
  let primary: pg.Pool;
  beforeAll(() => {
    primary = createDatabase(t.url, 2).$client;
  });
  afterAll(async () => {
    await primary.end();
  });

  it("reads on the primary while the replica has not replayed the newest change seen, on the replica once it has", async () => {
    const fake = fakeReplica(t.url);
    const log = { warn: vi.fn(), info: vi.fn() };
    const router = new ReadRoutingPool({ primary, replica: fake.replica, log });
    const onPrimary = vi.spyOn(primary, "query");
    fake.state.replayed = "0/4000";
    await router.query("select 1 as one");
    expect(fake.state.reads).toBe(1);

    router.noteChange("0/5000");
    const { rows } = await router.query("select 2 as two");
    expect(rows).toEqual([{ two: 2 }]);
    expect(fake.state.reads).toBe(1);
    expect(onPrimary).toHaveBeenCalledTimes(1);

    fake.state.replayed = "1/0";
    await router.query("select 3 as three");
    expect(fake.state.reads).toBe(2);
    // A server that is no standby (replays nothing) is never behind.
    router.noteChange("2/0");
    fake.state.replayed = null;
    await router.query("select 4 as four");
    expect(fake.state.reads).toBe(3);
    expect(log.warn).not.toHaveBeenCalled();
    onPrimary.mockRestore();
    await fake.end();
  });

  it("falls back to the primary in the same read when the replica is unreachable, says so once, and returns to it", async () => {
    const fake = fakeReplica(t.url);
    const log = { warn: vi.fn(), info: vi.fn() };
    let now = 1_000_000;
    const router = new ReadRoutingPool({ primary, replica: fake.replica, log, probeEveryMs: 5000, now: () => now });
    await router.query("select 1");
    expect(fake.state.reads).toBe(1);

    fake.state.down = true;
    for (let i = 0; i < 5; i++) {
      const { rows } = await router.query("select $1::int as n", [i]);
      expect(rows).toEqual([{ n: i }]);
    }
    const client = await router.connect();
    expect((await client.query("select 7 as seven")).rows).toEqual([{ seven: 7 }]);
    client.release();
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(router.replicaDown).toBe(true);

    // Back: the next request after the probe interval probes it in the background; reads return to it.
    fake.state.down = false;
    await router.query("select 1");
    expect(fake.state.reads).toBe(1);
    now += 5000;
    await router.query("select 1");
    await vi.waitFor(() => expect(router.replicaDown).toBe(false));
    await router.query("select 1");
    expect(fake.state.reads).toBe(2);
    expect(log.info).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledTimes(1);
    await fake.end();
  });

  it("a query the replica cancels for a conflict with recovery is answered by the primary; a wrong query is not retried", async () => {
    const fake = fakeReplica(t.url);
    const router = new ReadRoutingPool({ primary, replica: fake.replica, log: { warn: vi.fn(), info: vi.fn() } });
    const realQuery = fake.replica.query;
    fake.replica.query = (async (config: string, values?: unknown[]) => {
      if (config.includes("pg_last_wal_replay_lsn")) return (realQuery as (c: string, v?: unknown[]) => Promise<pg.QueryResult>).call(fake.replica, config, values);
      throw Object.assign(new Error("canceling statement due to conflict with recovery"), { code: "40001" });
    }) as never;
    expect((await router.query("select 5 as five")).rows).toEqual([{ five: 5 }]);
    fake.replica.query = realQuery;
    const onPrimary = vi.spyOn(primary, "query");
    await expect(router.query("select * from no_such_table")).rejects.toThrow(/no_such_table/);
    expect(onPrimary).not.toHaveBeenCalled();
    expect(router.replicaDown).toBe(false);
    onPrimary.mockRestore();
    await fake.end();
  });
});
