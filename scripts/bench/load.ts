import pg from "pg";
import { cannon, type CannonRun } from "./cannon";
import { probe, type BenchContext } from "./context";
import { Part, mark, table, type PartResult } from "./part";
import { browseKinds, LOAD_EMAIL_DOMAIN, newFlowStats, shopperEmail, shopperScript, type BrowseKind, type FlowStats } from "./shoppers";
import { seeded } from "./random";
import { fmt } from "./stats";
import { compareVisitCounting, VISIT_COUNTING_P99_RATIO, type CountingComparison } from "./visit-counting";

export const P99_LIMIT_MS = 500;
const POOL_STOCK = 1_000_000;

type Level = CannonRun & { unexpectedNon2xx: number; checkoutsCreated: number; checkoutsPaid: number; failures: Record<string, number>; byKind: FlowStats["byKind"] };

/** Pages whose route answers; the others are left out of the mix with a note. */
async function availableKinds(ctx: BenchContext, part: Part): Promise<BrowseKind[]> {
  const all = browseKinds(ctx.samples.productIds, ctx.samples.slugs, ctx.samples.productIds.slice(0, 200));
  const r = seeded(1);
  const kept: BrowseKind[] = [];
  for (const k of all) {
    const path = k.path(r);
    const res = await probe(ctx.shop.baseUrl + path);
    if (res.status === 200) kept.push(k);
    else part.note(`Shoppers skip "${k.kind}": GET ${path} answered ${res.status || res.body}${res.status === 404 ? " (not built yet)" : ""}.`, "partial");
  }
  return kept;
}

/**
 * Products the load test buys: tracked stock, raised high enough that no purchase sells out,
 * so every checkout can succeed and stock can be reconciled exactly afterwards.
 */
async function prepareCheckoutPool(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `update products set stock_quantity = $1 where id in (
         select id from products where active and not unlimited_stock and stock_quantity > 0 order by sku limit 100)
       returning id`,
      [POOL_STOCK],
    );
    return rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/** One checkout outside the load, to learn whether the checkout and the test provider exist. */
async function tryCheckout(ctx: BenchContext, pool: string[], stats: FlowStats): Promise<string | null> {
  const base = ctx.shop.baseUrl;
  const script = shopperScript({ kinds: [{ kind: "home", weight: 1, path: () => "/" }], checkoutPool: pool, checkoutShare: 1, stats, seed: 99 });
  const ctxObj: Record<string, unknown> = {};
  for (const step of script.slice(7)) {
    const req = step.setupRequest!({}, ctxObj)!;
    const res = await probe(base + req.path, { method: req.method, headers: req.headers, body: String(req.body ?? "") });
    step.onResponse!(res.status, res.body, ctxObj, {});
    if (ctxObj.kind === "checkout" && res.status !== 200) return `POST /api/checkout answered ${res.status}${res.status === 404 ? " (not built yet)" : `: ${res.body.slice(0, 200)}`}`;
    if (ctxObj.kind === "pay" && res.status !== 302 && res.status !== 303) return `the test payment form answered ${res.status}${res.status === 404 ? " (not built yet)" : ""}`;
    if (ctxObj.kind === "verify" && res.status !== 200) return `POST /api/verify-payment answered ${res.status}`;
  }
  return stats.reportedPaid.size === 1 ? null : "a test checkout did not end paid";
}

type Audit = {
  ordersInDb: number;
  sent: number;
  createdReported: number;
  /** Checkouts sent whose answer the end of a level cut off, but whose order exists. */
  cutOff: number;
  paidReported: number;
  lost: string[];
  missingCreated: string[];
  /** Orders no checkout of the run sent. */
  unexpected: number;
  /** Checkouts (one idempotency key each) that ended with more than one order. */
  duplicated: number;
  withoutLines: number;
  paidInDb: number;
  stockMismatches: { id: string; expected: number; actual: number }[];
};

/** After the load: every reported order exactly once, paid where reported paid, stock reconciled. */
async function audit(url: string, stats: FlowStats, pool: string[]): Promise<Audit> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const orders = await client.query<{ order_number: string; email: string; payment_status: string; lines: string }>(
      `select o.order_number, o.email, o.payment_status, (select count(*) from order_items i where i.order_id = o.id) as lines
         from orders o where o.email like $1`,
      [`%@${LOAD_EMAIL_DOMAIN}`],
    );
    const byNumber = new Map(orders.rows.map((o) => [o.order_number, o]));
    const sold = await client.query<{ product_id: string; qty: string; stock: number }>(
      `select p.id as product_id, p.stock_quantity as stock, coalesce(sum(i.quantity) filter (
           where o.payment_status = 'paid' and i.stock_tracked and o.stock_released_at is null), 0) as qty
         from products p
         left join order_items i on i.product_id = p.id
         left join orders o on o.id = i.order_id and o.email like $2
        where p.id = any($1) group by p.id`,
      [pool, `%@${LOAD_EMAIL_DOMAIN}`],
    );
    const sentEmails = new Map([...stats.sent].map((n) => [shopperEmail(n).toLowerCase(), n]));
    const perCheckout = new Map<string, number>();
    for (const o of orders.rows) {
      const n = sentEmails.get(o.email.toLowerCase());
      if (n) perCheckout.set(n, (perCheckout.get(n) ?? 0) + 1);
    }
    return {
      ordersInDb: orders.rows.length,
      sent: stats.sent.size,
      createdReported: stats.created.size,
      cutOff: orders.rows.filter((o) => sentEmails.has(o.email.toLowerCase()) && !stats.created.has(o.order_number)).length,
      paidReported: stats.reportedPaid.size,
      lost: [...stats.reportedPaid].filter((n) => byNumber.get(n)?.payment_status !== "paid"),
      missingCreated: [...stats.created].filter((n) => !byNumber.has(n)),
      unexpected: orders.rows.filter((o) => !sentEmails.has(o.email.toLowerCase())).length,
      duplicated: [...perCheckout.values()].filter((c) => c > 1).length,
      withoutLines: orders.rows.filter((o) => Number(o.lines) === 0).length,
      paidInDb: orders.rows.filter((o) => o.payment_status === "paid").length,
      stockMismatches: sold.rows
        .map((r) => ({ id: r.product_id, expected: POOL_STOCK - Number(r.qty), actual: r.stock }))
        .filter((r) => r.expected !== r.actual),
    };
  } finally {
    await client.end();
  }
}

export async function runLoad(ctx: BenchContext): Promise<PartResult> {
  const part = new Part("load", "Load test: a mix of shoppers");
  const kinds = await availableKinds(ctx, part);
  const stats = newFlowStats();
  let pool: string[] | null = await prepareCheckoutPool(ctx.databaseUrl);
  if (!pool.length) {
    part.note("Checkouts left out: no active product with tracked stock to buy.", "partial");
    pool = null;
  } else {
    const problem = await tryCheckout(ctx, pool, stats);
    if (problem) {
      part.note(`Checkouts left out of the mix: ${problem}.`, "partial");
      pool = null;
    }
  }
  if (!kinds.length && !pool) {
    part.note("Skipped: none of the shopper pages or the checkout answers yet.", "skipped");
    return part.result();
  }
  if (!kinds.length) kinds.push({ kind: "healthz", weight: 1, path: () => "/healthz" });

  const levels: Level[] = [];
  for (const [i, connections] of ctx.opts.loadConnections.entries()) {
    ctx.log(`  ${connections} connections for ${ctx.opts.loadSeconds} s`);
    const level = newFlowStats();
    const requests = shopperScript({ kinds, checkoutPool: pool, checkoutShare: ctx.opts.checkoutShare, stats: level, seed: 1000 + i });
    const run = await cannon({ url: ctx.shop.baseUrl, connections, seconds: ctx.opts.loadSeconds, requests });
    // In-flight requests cut off by the end of the run still finish on the server.
    await new Promise((r) => setTimeout(r, 2000));
    const redirects = (level.byKind.pay?.["302"] ?? 0) + (level.byKind.pay?.["303"] ?? 0);
    levels.push({
      ...run,
      unexpectedNon2xx: run.non2xx - redirects,
      checkoutsCreated: level.created.size,
      checkoutsPaid: level.reportedPaid.size,
      failures: level.failures,
      byKind: level.byKind,
    });
    for (const n of level.sent) stats.sent.add(n);
    for (const n of level.created) stats.created.add(n);
    for (const n of level.reportedPaid) stats.reportedPaid.add(n);
  }
  // Before the audit: its checkouts are audited with the others.
  let counting: CountingComparison | null = null;
  try {
    counting = await compareVisitCounting(ctx, { kinds, checkoutPool: pool, stats });
  } catch (err) {
    part.note(`Visit counting on vs off not measured: ${(err as Error).message.split("\n")[0]}`, "partial");
  }
  const orders = pool ? await audit(ctx.databaseUrl, stats, pool) : null;
  part.data = { seconds: ctx.opts.loadSeconds, checkoutShare: pool ? ctx.opts.checkoutShare : 0, mix: kinds.map((k) => ({ kind: k.kind, weight: k.weight })), levels, orders, visitCounting: counting };

  const paidUnderLoad = levels.reduce((s, l) => s + l.checkoutsPaid, 0);
  const at = (c: number) => levels.find((l) => l.connections === c);
  const top = levels.reduce((a, b) => (b.connections > a.connections ? b : a));
  const l200 = at(200);
  const l100 = at(100);
  part.check({
    target: "Zero errors at 200 connections",
    measured: l200 ? `${l200.errors} errors, ${l200.timeouts} timeouts, ${l200.unexpectedNon2xx} unexpected non-2xx` : `not run (highest level ${top.connections}: ${top.errors + top.unexpectedNon2xx} errors + non-2xx)`,
    met: l200 ? l200.errors + l200.unexpectedNon2xx === 0 : null,
  });
  part.check({
    target: "Zero lost or duplicated orders",
    measured: orders
      ? `${orders.paidReported} checkouts reported paid; ${orders.lost.length} lost, ${orders.duplicated} duplicated, ${orders.unexpected} unexpected, ${orders.missingCreated.length} missing, ${orders.withoutLines} without lines, ${orders.stockMismatches.length} stock mismatches`
      : "checkouts not in the mix",
    met: !orders
      ? null
      : orders.lost.length + orders.duplicated + orders.unexpected + orders.missingCreated.length + orders.withoutLines + orders.stockMismatches.length > 0
        ? false
        : paidUnderLoad > 0
          ? true
          : null,
    note: !orders
      ? part.notes.find((n) => n.startsWith("Checkouts left out"))
      : paidUnderLoad === 0
        ? "no checkout completed during the load levels (only the probe before them), so nothing was tested under load"
        : undefined,
  });
  part.check({
    target: `p99 < ${P99_LIMIT_MS} ms at 100 connections`,
    measured: l100 ? `p99 ${fmt(l100.latency.p99)} ms` : "not run at 100 connections",
    met: l100 ? l100.latency.p99 < P99_LIMIT_MS : null,
  });

  part.check({
    target: `p99 with visit counting on ≤ ${Math.round((VISIT_COUNTING_P99_RATIO - 1) * 100)}% above off`,
    measured: counting
      ? `${fmt(counting.on.latency.p99)} ms on vs ${fmt(counting.off.latency.p99)} ms off (×${fmt(counting.p99Ratio, 3)}) at ${counting.connections} connections`
      : "not measured",
    met: counting && Number.isFinite(counting.p99Ratio) ? counting.p99Ratio <= VISIT_COUNTING_P99_RATIO : null,
    note: counting && counting.counted.pageViews === 0 ? "the server with counting on counted no page view: the comparison shows nothing" : undefined,
  });

  const mixTotal = kinds.reduce((s, k) => s + k.weight, 0);
  part.md.push(
    `autocannon on 127.0.0.1, ${ctx.opts.loadSeconds} s per level. Each connection is a shopper looping through visits of ten requests: seven page views drawn from the mix below, then — in ${Math.round((pool ? ctx.opts.checkoutShare : 0) * 100)}% of the visits — a checkout: \`POST /api/checkout\` → \`POST /pay/test/<session>\` with card 4242 4242 4242 4242 (answers 302, counted as expected) → \`POST /api/verify-payment\`; the other visits make three more page views. Latency percentiles are over every response of the level.`,
    "",
    `Page mix: ${kinds.map((k) => `${k.kind} ${Math.round((k.weight / mixTotal) * 100)}%`).join(", ")}.`,
    "",
    table(
      ["Connections", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors", "timeouts", "unexpected non-2xx", "checkouts paid"],
      levels.map((l) => [l.connections, fmt(l.reqPerSec, 0), fmt(l.latency.p50), fmt(l.latency.p95), fmt(l.latency.p99), l.errors, l.timeouts, l.unexpectedNon2xx, pool ? l.checkoutsPaid : "—"]),
    ),
  );
  if (counting) {
    const { on, off } = counting;
    part.md.push(
      "",
      `**Visit counting on vs off** (docs/rules/analytics.md, Visits): two fresh servers of the same build on the same database, one with \`VISIT_COUNTING=on\` (the default) and one with \`off\`, each warmed up, then taking turns (on, off, off, on, …) for ${counting.rounds} × ${counting.secondsPerRun} s each at ${counting.connections} connections with the mix above; each side's percentiles are over all its responses. Every visit is a new visitor (its own user agent). The server with counting on wrote ${counting.counted.pageViews.toLocaleString("en-US")} page views and ${counting.counted.visitors.toLocaleString("en-US")} visitors (warm-up included).`,
      "",
      table(
        ["Visit counting", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors", "unexpected non-2xx"],
        [
          ["on", fmt(on.reqPerSec, 0), fmt(on.latency.p50), fmt(on.latency.p95), fmt(on.latency.p99), on.errors, on.non2xx],
          ["off", fmt(off.reqPerSec, 0), fmt(off.latency.p50), fmt(off.latency.p95), fmt(off.latency.p99), off.errors, off.non2xx],
        ],
      ),
      "",
      `p99 on ÷ off: **×${fmt(counting.p99Ratio, 3)}** (target ≤ ×${VISIT_COUNTING_P99_RATIO}).`,
    );
  }
  const failures = levels.flatMap((l) => Object.entries(l.failures).map(([what, n]) => `${l.connections} connections: ${what} ×${n}`));
  if (failures.length) part.md.push("", `Checkout steps that failed: ${failures.join("; ")}.`);
  if (orders) {
    part.md.push(
      "",
      "**Orders after the run** (checked in the database):",
      "",
      table(
        ["Checkouts sent", "Created (answered)", "Created (answer cut off)", "Reported paid", "Orders in DB", "Paid in DB", "Lost", "Duplicated", "Unexpected", "Created but missing", "Without lines", "Stock mismatches", "Met"],
        [[orders.sent, orders.createdReported, orders.cutOff, orders.paidReported, orders.ordersInDb, orders.paidInDb, orders.lost.length, orders.duplicated, orders.unexpected, orders.missingCreated.length, orders.withoutLines, orders.stockMismatches.length, mark(part.checks[1]!.met)]],
      ),
      "",
      `Each checkout carries its own idempotency key and email, so every order is matched to the request that made it. **Lost**: reported paid, but not paid in the database. **Duplicated**: one checkout, more than one order. **Unexpected**: an order no checkout sent. **Created (answer cut off)**: the end of a level stopped the client before the answer arrived, but the order exists, as it should. "Paid in DB" can exceed "reported paid" for the same reason: a visit cut off by the end of a level may have paid without reaching its verify step. Stock: ${pool!.length} products bought by the shoppers start at ${POOL_STOCK.toLocaleString("en-US")} each; after the run each must equal that minus the quantities of its paid order lines.`,
    );
  }
  return part.result();
}
