import fs from "node:fs";
import pg from "pg";
import type { BenchContext } from "./context";
import { request, type Timed } from "./http";
import { Part, table, type PartResult } from "./part";
import { RENDER } from "./server-times";
import { anonymousPagePaths } from "./shoppers";
import { seeded } from "./random";
import { fmt, round } from "./stats";
import { saleDayExample, type MeasuredCosts } from "./capacity-model";

export const TITLE = "Cost of each kind of request (CPU, database, bytes)";

/** Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ): 100 on every usual kernel. */
const CLK_TCK = 100;
/**
 * A busy backend reports its statistics at most once a second, an idle one 10 s after it went
 * idle (PostgreSQL's PGSTAT_IDLE_INTERVAL): waiting longer than that after a batch puts all of its
 * statement time in pg_stat_database before it is read.
 */
const STATS_SETTLE_MS = 11_500;
/** Requests in flight at once: enough to keep the server busy, few enough to stay off its queue. */
const CONCURRENCY = 4;
const COSTS_EMAIL_DOMAIN = "costs.example.com";
const AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

/** CPU time (user + system, every thread) the process has used so far, in ms, from /proc. */
export function processCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / CLK_TCK;
}

type DbCounters = { activeMs: number; xacts: number };

/** Statement time (pg_stat_database.active_time: every backend's time inside statements) and transactions, so far. */
async function dbCounters(client: pg.Client): Promise<DbCounters> {
  await client.query("select pg_stat_clear_snapshot()");
  const { rows } = await client.query<{ active: number; xacts: string }>(
    "select active_time as active, xact_commit + xact_rollback as xacts from pg_stat_database where datname = current_database()",
  );
  return { activeMs: Number(rows[0]!.active), xacts: Number(rows[0]!.xacts) };
}

type Snapshot = { at: number; cpuMs: number; db: DbCounters };

async function snapshot(pid: number, client: pg.Client): Promise<Snapshot> {
  return { at: performance.now(), cpuMs: processCpuMs(pid), db: await dbCounters(client) };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the server does on its own (job queue, change-log polling), per second, to take off each batch. */
type Idle = { cpuMsPerSec: number; dbMsPerSec: number; xactsPerSec: number };

export type KindCost = {
  kind: string;
  requests: number;
  /** App server CPU (user + system) per request, idle work taken off. */
  cpuMs: number;
  /** Statement time in PostgreSQL per request, idle work taken off. */
  dbMs: number;
  /** Committed or rolled-back transactions per request (an autocommit statement is one). */
  xacts: number;
  /** Response body bytes per request, as sent (gzip accepted). */
  bytes: number;
  /** Wall time of the batch, and so the rate it ran at (CONCURRENCY in flight). */
  seconds: number;
  errors: number;
  /** Page cache hits among the answers, for the cached kinds. */
  hits?: number;
  note?: string;
};

/**
 * Runs `n` units of work `CONCURRENCY` at a time and charges the server's CPU and the database's
 * statement time between two snapshots, each taken once the database's statistics have settled,
 * minus what the idle server does in that time.
 */
async function measureKind(
  ctx: BenchContext,
  client: pg.Client,
  idle: Idle,
  kind: string,
  n: number,
  one: (i: number) => Promise<{ ok: boolean; bytes: number; hit?: boolean }>,
): Promise<KindCost> {
  const before = await snapshot(ctx.shop.pid, client);
  const started = performance.now();
  let next = 0;
  let errors = 0;
  let bytes = 0;
  let hits = 0;
  let sawHit = false;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const i = next++;
        const r = await one(i).catch(() => ({ ok: false, bytes: 0, hit: undefined }));
        if (!r.ok) errors++;
        bytes += r.bytes;
        if (r.hit !== undefined) sawHit = true;
        if (r.hit) hits++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pause(STATS_SETTLE_MS);
  const after = await snapshot(ctx.shop.pid, client);
  const elapsed = (after.at - before.at) / 1000;
  const cost: KindCost = {
    kind,
    requests: n,
    cpuMs: round((after.cpuMs - before.cpuMs - idle.cpuMsPerSec * elapsed) / n, 3),
    dbMs: round((after.db.activeMs - before.db.activeMs - idle.dbMsPerSec * elapsed) / n, 3),
    xacts: round((after.db.xacts - before.db.xacts - idle.xactsPerSec * elapsed) / n, 2),
    bytes: Math.round(bytes / n),
    seconds: round(seconds, 1),
    errors,
    ...(sawHit ? { hits } : {}),
  };
  ctx.log(`  ${kind}: ${fmt(cost.cpuMs, 2)} ms CPU, ${fmt(cost.dbMs, 2)} ms in the database, ${fmt(cost.xacts, 1)} transactions, ${fmt(cost.bytes / 1024, 1)} KB per request (${n} requests, ${errors} errors)`);
  return cost;
}

/** React Router's data request for a page's URL: `/shop?x` → `/shop.data?x`, `/` → `/_root.data`. */
export function dataUrl(pageUrl: string): string {
  const u = new URL(pageUrl, "http://x");
  return `${u.pathname === "/" ? "/_root" : u.pathname}.data${u.search}`;
}

const timed = (res: Timed, hit?: boolean) => ({ ok: res.status === 200, bytes: res.bytes, ...(hit === undefined ? {} : { hit }) });

/** Products only these checkouts buy (tracked stock raised so none sells out), apart from the load test's. */
export async function checkoutPool(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `update products set stock_quantity = 1000000 where id in (
       select id from products where active and not unlimited_stock and stock_quantity > 0 order by sku desc limit 50)
     returning id`,
  );
  return rows.map((r) => r.id);
}

/** One order placed as a shopper does: create the checkout, pay on the test provider's form, verify. */
export async function placeOrder(base: string, pool: string[], i: number): Promise<{ ok: boolean; bytes: number }> {
  const r = seeded(7000 + i);
  // Uncompressed: the answers are read (the provider's URL, the verdict) and small anyway.
  const headers = { "content-type": "application/json", "user-agent": AGENT, "accept-encoding": "identity" };
  const created = await request(`${base}/api/checkout`, {
    method: "POST",
    headers,
    keepBody: true,
    body: JSON.stringify({
      cartItems: r.sample(pool, r.int(1, 3)).map((id) => ({ id, quantity: r.int(1, 2) })),
      formData: { firstName: "Cost", lastName: "Bench", email: `order-${i}-${Date.now().toString(36)}@${COSTS_EMAIL_DOMAIN}`, phone: "", address: "1 Bench Street", city: "Springfield", state: "IL", zipCode: "62701", country: "US" },
      idempotencyKey: `costs-${i}-${Date.now().toString(36)}`,
    }),
  });
  const m = /\/pay\/test\/([^/?#"]+)/.exec(created.body);
  if (created.status !== 200 || !m) return { ok: false, bytes: created.bytes };
  const session = decodeURIComponent(m[1]!);
  const expiry = `12 / ${String((new Date().getFullYear() + 3) % 100).padStart(2, "0")}`;
  const paid = await request(`${base}/pay/test/${encodeURIComponent(session)}`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ cardNumber: "4242 4242 4242 4242", expiry, cvc: "123" }).toString(),
  });
  if (paid.status !== 302 && paid.status !== 303) return { ok: false, bytes: created.bytes + paid.bytes };
  const verified = await request(`${base}/api/verify-payment`, { method: "POST", headers, keepBody: true, body: JSON.stringify({ session_id: session }) });
  const ok = verified.status === 200 && /"payment_successful":\s*true/.test(verified.body);
  return { ok, bytes: created.bytes + paid.bytes + verified.bytes };
}

/**
 * Bytes on disk (tables, TOAST and indexes): per order for `orders` + `order_items`, per product for
 * `products`, and the whole database, over the rows there are.
 */
async function storageSizes(client: pg.Client): Promise<{ orders: number; bytesPerOrder: number; products: number; bytesPerProduct: number; databaseBytes: number }> {
  const { rows } = await client.query<{ orders: string; order_bytes: string; products: string; product_bytes: string; db: string }>(
    `select (select count(*) from orders) as orders,
            pg_total_relation_size('orders') + pg_total_relation_size('order_items') as order_bytes,
            (select count(*) from products) as products,
            pg_total_relation_size('products') as product_bytes,
            pg_database_size(current_database()) as db`,
  );
  const r = rows[0]!;
  const per = (bytes: string, n: number) => (n ? Math.round(Number(bytes) / n) : NaN);
  return {
    orders: Number(r.orders),
    bytesPerOrder: per(r.order_bytes, Number(r.orders)),
    products: Number(r.products),
    bytesPerProduct: per(r.product_bytes, Number(r.products)),
    databaseBytes: Number(r.db),
  };
}

export async function runCosts(ctx: BenchContext): Promise<PartResult> {
  const part = new Part("costs", TITLE);
  if (!fs.existsSync(`/proc/${ctx.shop.pid}/stat`)) {
    part.note("Skipped: the server's CPU is read from /proc/<pid>/stat, which this system does not have (Linux only).", "skipped");
    return part.result();
  }
  const base = ctx.shop.baseUrl;
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    // The load test's page mix (without its cart refreshes), drawn once: the same URLs rendered and cached.
    const pages = anonymousPagePaths(ctx.samples.productIds, ctx.samples.slugs, 200, 4242);
    const products = ctx.samples.productIds;
    const quoteUrl = (i: number) =>
      `/api/cart/quote?${new URLSearchParams({ lines: [0, 1, 2].map((j) => `${products[(i * 3 + j) % Math.min(products.length, 200)]}:1`).join(","), country: "US", state: "IL", zip: "62701" })}`;
    const get = (url: string, headers: Record<string, string> = {}) => request(base + url, { headers: { "user-agent": AGENT, ...headers } });
    const n = ctx.opts.requests;

    // Warm-up: every page and data request with and without cookies, so the cached kinds hit. Twice
    // without: a cached page gets its brotli copy on its first hit (50–100 ms of a core, once per
    // page and server: docs/decisions/0021), which the steady state no longer pays.
    ctx.log(`  warm-up: ${pages.length} pages and their data requests`);
    for (const url of pages) {
      await get(url, RENDER);
      await get(dataUrl(url), RENDER);
      for (let i = 0; i < 2; i++) {
        await get(url);
        await get(dataUrl(url));
      }
    }
    for (let i = 0; i < 20; i++) await get(quoteUrl(i));
    const pool = await checkoutPool(client);
    const checkoutWorks = pool.length > 0 && (await placeOrder(base, pool, -1)).ok;
    if (pool.length && !checkoutWorks) part.note("The first test checkout did not end paid: checkouts are not measured.", "partial");

    await pause(STATS_SETTLE_MS);
    ctx.log(`  the idle server for ${STATS_SETTLE_MS / 1000} s`);
    const a = await snapshot(ctx.shop.pid, client);
    await pause(STATS_SETTLE_MS);
    const b = await snapshot(ctx.shop.pid, client);
    const idleSeconds = (b.at - a.at) / 1000;
    const idle: Idle = {
      cpuMsPerSec: round((b.cpuMs - a.cpuMs) / idleSeconds, 2),
      dbMsPerSec: round((b.db.activeMs - a.db.activeMs) / idleSeconds, 2),
      xactsPerSec: round((b.db.xacts - a.db.xacts) / idleSeconds, 2),
    };

    const costs: KindCost[] = [];
    const hit = (res: Timed) => String(res.headers["x-page-cache"] ?? "").startsWith("hit");
    costs.push(await measureKind(ctx, client, idle, "page, rendered (HTML)", n, async (i) => timed(await get(pages[i % pages.length]!, RENDER))));
    costs.push(await measureKind(ctx, client, idle, "data request, rendered (.data)", n, async (i) => timed(await get(dataUrl(pages[i % pages.length]!), RENDER))));
    // Cached answers cost little each: three times as many, so the 10 ms clock ticks stay a small part.
    costs.push(await measureKind(ctx, client, idle, "page, page cache hit (HTML)", 3 * n, async (i) => { const res = await get(pages[i % pages.length]!); return timed(res, hit(res)); }));
    costs.push(await measureKind(ctx, client, idle, "data request, page cache hit (.data)", 3 * n, async (i) => { const res = await get(dataUrl(pages[i % pages.length]!)); return timed(res, hit(res)); }));
    costs.push(await measureKind(ctx, client, idle, "cart quote (3 lines)", n, async (i) => timed(await get(quoteUrl(i)))));
    const checkouts = Math.max(10, Math.round(n / 3));
    if (checkoutWorks) {
      costs.push(await measureKind(ctx, client, idle, "checkout (create, pay, verify)", checkouts, (i) => placeOrder(base, pool, i)));
    } else if (!pool.length) {
      part.note("Checkouts not measured: no active product with tracked stock to buy.", "partial");
    }
    for (const c of costs) if (c.errors) part.note(`${c.kind}: ${c.errors} of ${c.requests} did not answer as expected.`, "partial");
    for (const c of costs) if (c.hits !== undefined && c.hits < 0.95 * c.requests) part.note(`${c.kind}: only ${c.hits} of ${c.requests} answers came from the page cache.`, "partial");
    const storage = await storageSizes(client);

    const by = (k: string) => costs.find((c) => c.kind.startsWith(k));
    const measured: MeasuredCosts | null =
      by("page, rendered") && by("data request, rendered") && by("page, page cache") && by("data request, page cache") && by("cart quote") && by("checkout")
        ? {
            renderedHtmlCpuMs: by("page, rendered")!.cpuMs,
            renderedDataCpuMs: by("data request, rendered")!.cpuMs,
            cachedHtmlCpuMs: by("page, page cache")!.cpuMs,
            cachedDataCpuMs: by("data request, page cache")!.cpuMs,
            quoteCpuMs: by("cart quote")!.cpuMs,
            checkoutCpuMs: by("checkout")!.cpuMs,
            renderedDbMs: (by("page, rendered")!.dbMs + by("data request, rendered")!.dbMs) / 2,
            cachedDbMs: (by("page, page cache")!.dbMs + by("data request, page cache")!.dbMs) / 2,
            quoteDbMs: by("cart quote")!.dbMs,
            checkoutDbMs: by("checkout")!.dbMs,
            htmlBytes: by("page, page cache")!.bytes,
            dataBytes: by("data request, page cache")!.bytes,
          }
        : null;
    const example = measured ? saleDayExample(measured) : null;
    part.data = { concurrency: CONCURRENCY, settleMs: STATS_SETTLE_MS, idle, costs, storage, measured, saleDay: example };
    if (measured) {
      part.check({
        target: "Costs per request measured (reported, no target)",
        measured: `rendered page ${fmt(measured.renderedHtmlCpuMs, 2)} ms CPU, cached ${fmt(measured.cachedHtmlCpuMs, 2)} ms, quote ${fmt(measured.quoteCpuMs, 2)} ms, checkout ${fmt(measured.checkoutCpuMs, 1)} ms CPU + ${fmt(measured.checkoutDbMs, 1)} ms database`,
        met: null,
      });
    }
    part.md.push(
      `Each kind: ${CONCURRENCY} requests in flight from the bench, then ${STATS_SETTLE_MS / 1000} s for PostgreSQL's statistics to settle. **CPU** is the app server process's user + system time (every thread: the event loop, GC, libuv's pool) from \`/proc/<pid>/stat\` before and after, divided by the requests; **database** is \`pg_stat_database.active_time\` (the time every backend of the shop's database spent inside statements: wall time, so it includes waits for locks and disk, not time idle in a transaction) and \`xact_commit + xact_rollback\` (an autocommit statement counts as one) over the same span. From both, what the idle server does in that time is taken off: ${fmt(idle.cpuMsPerSec, 1)} ms of CPU, ${fmt(idle.dbMsPerSec, 1)} ms of statement time and ${fmt(idle.xactsPerSec, 1)} transactions per second (its job queue and the change-log polling), measured over ${fmt(idleSeconds, 0)} s before the batches. **Bytes** are response bodies as sent with gzip accepted (headers not counted). Rendered kinds send a cookie the shop does not know (no page cache); cached kinds send none, after every URL was asked twice (a cached page's brotli copy is made on its first hit). Pages are ${pages.length} URLs drawn from the load test's mix (home, shop, searches, filters, products, blog, posts); a checkout is \`POST /api/checkout\` + the test provider's form (302) + \`POST /api/verify-payment\`, and its figures include the jobs it queues if they ran within the settling time.`,
      "",
      table(
        ["Kind", "requests", "CPU ms", "database ms", "transactions", "KB", "req/s at 4 in flight", "errors"],
        costs.map((c) => [c.kind, c.requests, fmt(c.cpuMs, 2), fmt(c.dbMs, 2), fmt(c.xacts, 1), fmt(c.bytes / 1024, 1), fmt(c.requests / c.seconds, 0), c.errors]),
      ),
      "",
      `On disk (tables, TOAST and indexes): ${storage.orders.toLocaleString("en-US")} orders take ${fmt(storage.bytesPerOrder / 1024, 2)} KB each in \`orders\` + \`order_items\`; ${storage.products.toLocaleString("en-US")} products ${fmt(storage.bytesPerProduct / 1024, 2)} KB each; the whole database ${fmt(storage.databaseBytes / 1024 ** 2, 0)} MB.`,
    );
    if (example) {
      part.md.push(
        "",
        `**Sale-day peak on these costs** (docs/scaling.md): ${example.input.visitorsPerHour.toLocaleString("en-US")} visitors and ${example.input.ordersPerHour.toLocaleString("en-US")} orders in an hour, ${example.input.pageViewsPerVisitor} page views each, ${example.input.anonymousShare * 100}% anonymous, CDN hit ratio ${example.input.cdnHitRatio * 100}%, ${example.input.quotesPerOrder} quotes per order, headroom ×${example.input.headroom}:`,
        "",
        table(
          ["", "per second", "app CPU ms/s", "database ms/s"],
          example.lines.map((l) => [l.what, fmt(l.perSecond, 2), fmt(l.cpuMsPerSec, 0), fmt(l.dbMsPerSec, 0)]),
        ),
        "",
        `App CPU ${fmt(example.appCores, 2)} cores busy → **${example.appServers} app server(s)** at ×${example.input.headroom} headroom (one Node process uses one core); database ${fmt(example.dbBusyConnections, 2)} connections busy in statements on average → pool of ${example.poolPerServer} per server; ${fmt(example.originMbitPerSec, 1)} Mbit/s of pages from the origin, ${fmt(example.totalMbitPerSec, 1)} Mbit/s at the CDN.`,
      );
    }
    ctx.log(`  idle server: ${fmt(idle.cpuMsPerSec, 1)} ms CPU/s, ${fmt(idle.dbMsPerSec, 1)} ms statements/s; on disk ${fmt(storage.bytesPerOrder / 1024, 2)} KB per order (${storage.orders.toLocaleString("en-US")} orders), ${fmt(storage.bytesPerProduct / 1024, 2)} KB per product, database ${fmt(storage.databaseBytes / 1024 ** 2, 0)} MB`);
    if (example) ctx.log(`  sale-day peak on these costs: ${fmt(example.appCores, 2)} app cores → ${example.appServers} app server(s); database ${fmt(example.dbBusyConnections, 2)} busy connections`);
  } finally {
    await client.end();
  }
  return part.result();
}
