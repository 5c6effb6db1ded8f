import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startEmbeddedPostgres, type EmbeddedServer } from "~/server/platform/db/embedded.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { launchShop } from "../../scripts/shop-process";
import { makeProducts } from "../factories/products";
import { createTestDatabase, type TestDatabase } from "../setup/database";
import { E2E_AUTH_SECRET, NOT_BUILT } from "./harness";

/**
 * Helpers for the crash and fault tests: a shop process that can be killed with SIGKILL and
 * started again on the same database and data folder, and a PostgreSQL of the test's own that
 * can be stopped and started without disturbing the other test files.
 */

export type ShopProcess = {
  baseUrl: string;
  pid: number;
  output: () => string;
  /** kill -9: no shutdown handler runs, in-flight requests die with the process. */
  kill9: () => Promise<void>;
  stop: () => Promise<void>;
};

export async function spawnShop(opts: { databaseUrl: string; dataDir: string; env?: Record<string, string> }): Promise<ShopProcess> {
  const child = await launchShop({
    databaseUrl: opts.databaseUrl,
    dataDir: opts.dataDir,
    authSecret: E2E_AUTH_SECRET,
    notBuiltMessage: NOT_BUILT,
    env: { LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn", RATE_LIMIT_DISABLED: "true", ...opts.env },
  });
  return { baseUrl: child.baseUrl, pid: child.pid, output: child.output, kill9: child.kill9, stop: () => child.stop() };
}

export type OwnPostgres = { url: string; stop: () => Promise<void>; start: () => Promise<void>; destroy: () => Promise<void> };

/** A PostgreSQL server for one test file, in a temporary folder, with a migrated database "shop". */
export async function ownPostgres(): Promise<OwnPostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-fault-pg-"));
  fs.chmodSync(dir, 0o755);
  let server: EmbeddedServer | null = await startEmbeddedPostgres({ dataDir: dir, database: "shop" });
  const url = server.url;
  await runMigrations(url);
  return {
    url,
    stop: async () => {
      await server?.stop();
      server = null;
    },
    // Same folder, so the same port and password: the shop's DATABASE_URL stays valid.
    start: async () => {
      server = await startEmbeddedPostgres({ dataDir: dir, database: "shop" });
    },
    destroy: async () => {
      await server?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const tempDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "shop-fault-data-"));

export type FaultBed = {
  /** The file's own database: fresh, migrated, empty but for `products`. */
  readonly test: TestDatabase;
  /** The shop's data folder, the same at every start. */
  readonly dataDir: string;
  /** The ids of the products made before the tests (`products`). */
  readonly productIds: string[];
  /** Starts the shop on that database and folder: the first time, or again after a kill9. */
  start(env?: Record<string, string>): Promise<ShopProcess>;
  /** The rows of a query on that database. */
  rows<T>(text: string, values?: unknown[]): Promise<T[]>;
  /** Test payment sessions paid on the payment page whose order is not paid. */
  paidSessionsOfUnpaidOrders(): Promise<{ id: string }[]>;
  /** Each of the products' stock now, and the units that paid orders took and still hold. */
  stockAndSold(): Promise<{ id: string; stock: number; sold: string }[]>;
};

/**
 * For a crash test file: its own database and data folder (and `products.count` products with
 * `products.stock` each) before its tests; after them the shop last started is stopped, the
 * database dropped and the folder removed.
 */
export function useFaultBed(opts: { products?: { count: number; stock: number } } = {}): FaultBed {
  let shop: ShopProcess | undefined;
  const bed = {
    productIds: [] as string[],
    async start(env?: Record<string, string>) {
      shop = await spawnShop({ databaseUrl: bed.test.url, dataDir: bed.dataDir, env });
      return shop;
    },
    rows: async <T>(text: string, values: unknown[] = []) => (await bed.test.db.$client.query(text, values)).rows as T[],
    paidSessionsOfUnpaidOrders: () =>
      bed.rows<{ id: string }>(
        "select s.id from test_payment_sessions s join orders o on o.id = s.order_id where s.status = 'paid' and o.payment_status <> 'paid'",
      ),
    stockAndSold: () =>
      bed.rows<{ id: string; stock: number; sold: string }>(
        `select p.id, p.stock_quantity as stock, coalesce(sum(i.quantity) filter (
             where o.payment_status = 'paid' and i.stock_tracked and o.stock_released_at is null), 0) as sold
           from products p left join order_items i on i.product_id = p.id left join orders o on o.id = i.order_id
          where p.id = any($1) group by p.id`,
        [bed.productIds],
      ),
  } as FaultBed & { test: TestDatabase; dataDir: string; productIds: string[] };
  beforeAll(async () => {
    bed.test = await createTestDatabase();
    bed.dataDir = tempDataDir();
    const products = opts.products;
    if (products) bed.productIds = (await makeProducts(bed.test.db, products.count, () => ({ stockQuantity: products.stock }))).map((p) => p.id);
  }, 60_000);
  afterAll(async () => {
    await shop?.stop();
    await bed.test?.drop();
    if (bed.dataDir) fs.rmSync(bed.dataDir, { recursive: true, force: true });
  });
  return bed;
}

/** The test provider's paying card, as its page's form sends it (the expiry three years ahead). */
export const PAYING_CARD = {
  cardNumber: "4242 4242 4242 4242",
  expiry: `12 / ${String((new Date().getFullYear() + 3) % 100).padStart(2, "0")}`,
  cvc: "123",
};

export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The test payment session in a checkout's payment URL. */
export const testSessionOf = (paymentUrl: string) => decodeURIComponent(/\/pay\/test\/([^/?#]+)/.exec(paymentUrl)![1]!);

/** Presses Pay with the paying card on the test payment page; 302 to the result page when it went through. */
export const payOnTestPage = (base: string, sessionId: string) =>
  fetch(`${base}/pay/test/${encodeURIComponent(sessionId)}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(PAYING_CARD),
  });

/**
 * Stops a database-side server the test started (PostgreSQL, PgBouncer) with SIGINT, their fast
 * shutdown: every client connection is cut at once, as a crash or a restart does. Waits for it to exit.
 */
export async function interruptServer(running: ChildProcess | null): Promise<void> {
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((r) => running.once("exit", r));
  running.kill("SIGINT");
  await exited;
}
