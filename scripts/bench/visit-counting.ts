import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { cannon } from "./cannon";
import type { BenchContext } from "./context";
import { startShop, type RunningShop } from "./shop";
import { newFlowStats, shopperScript, type BrowseKind, type FlowStats } from "./shoppers";
import { fmt, ratio, summarize, type Percentiles } from "./stats";

/** The bound: the load test's p99 with visit counting on at most 5% above off. */
export const VISIT_COUNTING_P99_RATIO = 1.05;
/** Runs per side, alternating which side goes first, so a drift over time weighs on both. */
const ROUNDS = 4;
/** A fresh server's first seconds at 100 connections are spent compiling and filling its page cache. */
const WARM_UP_SECONDS = 10;

export type CountingSide = { latency: Percentiles; reqPerSec: number; requests: number; errors: number; non2xx: number };

export type CountingComparison = {
  connections: number;
  secondsPerRun: number;
  rounds: number;
  on: CountingSide;
  off: CountingSide;
  /** p99 on ÷ p99 off. */
  p99Ratio: number;
  /** What the server with counting on wrote, warm-up included: proof that it counted. */
  counted: { pageViews: number; visitors: number };
};

async function countedSoFar(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ views: string; visitors: string }>(
      "select coalesce(sum(page_views), 0) as views, coalesce(sum(visitors), 0) as visitors from visits_daily",
    );
    return { pageViews: Number(rows[0]!.views), visitors: Number(rows[0]!.visitors) };
  } catch {
    // Visit counting's tables are not there (an older schema): nothing counted.
    return { pageViews: 0, visitors: 0 };
  } finally {
    await client.end();
  }
}

/**
 * The load test's mix against two fresh servers of the same build and database, one with
 * VISIT_COUNTING on and one with it off, at the level nearest 100 connections: each is warmed
 * up, then they take turns (on, off, off, on, …), and each side's p99 is taken over all its
 * responses. Checkouts go into `stats`, so the order audit covers them too.
 */
export async function compareVisitCounting(
  ctx: BenchContext,
  opts: { kinds: BrowseKind[]; checkoutPool: string[] | null; stats: FlowStats },
): Promise<CountingComparison> {
  const connections = ctx.opts.loadConnections.reduce((a, b) => (Math.abs(b - 100) < Math.abs(a - 100) ? b : a));
  const secondsPerRun = Math.max(3, Math.round(ctx.opts.loadSeconds / ROUNDS));
  const dirs: string[] = [];
  const shops: RunningShop[] = [];
  const start = async (counting: "on" | "off") => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `shop-bench-visits-${counting}-`));
    dirs.push(dataDir);
    const shop = await startShop({ buildDir: ctx.opts.buildDir, databaseUrl: ctx.databaseUrl, dataDir, env: { VISIT_COUNTING: counting } });
    shops.push(shop);
    return shop;
  };
  try {
    const sides = { on: await start("on"), off: await start("off") };
    // The main shop writes its last counts within 5 s of the levels' end: not ours to count.
    await new Promise((r) => setTimeout(r, 6000));
    const before = await countedSoFar(ctx.databaseUrl);
    ctx.log(`  visit counting on vs off: ${connections} connections, ${ROUNDS} × ${secondsPerRun} s per side`);
    // Warm-up (browsing only, unmeasured): page caches filled, code compiled, pools open.
    for (const shop of [sides.on, sides.off]) {
      const requests = shopperScript({ kinds: opts.kinds, checkoutPool: null, checkoutShare: 0, stats: newFlowStats(), seed: 7 });
      await cannon({ url: shop.baseUrl, connections, seconds: Math.min(WARM_UP_SECONDS, secondsPerRun), requests });
    }
    const times = { on: [] as number[], off: [] as number[] };
    const totals = { on: { requests: 0, seconds: 0, errors: 0, non2xx: 0 }, off: { requests: 0, seconds: 0, errors: 0, non2xx: 0 } };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const)) {
        const level = newFlowStats();
        const requests = shopperScript({ kinds: opts.kinds, checkoutPool: opts.checkoutPool, checkoutShare: ctx.opts.checkoutShare, stats: level, seed: 5000 + round * 10 + (side === "on" ? 1 : 2) });
        const run = await cannon({ url: sides[side].baseUrl, connections, seconds: secondsPerRun, requests, keepTimes: true });
        await new Promise((r) => setTimeout(r, 2000));
        times[side].push(...(run.times ?? []));
        ctx.log(`    counting ${side}: ${run.reqPerSec} req/s, p99 ${fmt(run.latency.p99)} ms, ${run.errors} errors`);
        const redirects = (level.byKind.pay?.["302"] ?? 0) + (level.byKind.pay?.["303"] ?? 0);
        Object.assign(totals[side], {
          requests: totals[side].requests + run.requests,
          seconds: totals[side].seconds + secondsPerRun,
          errors: totals[side].errors + run.errors + run.timeouts,
          non2xx: totals[side].non2xx + run.non2xx - redirects,
        });
        for (const n of level.sent) opts.stats.sent.add(n);
        for (const n of level.created) opts.stats.created.add(n);
        for (const n of level.reportedPaid) opts.stats.reportedPaid.add(n);
      }
    }
    const side = (s: "on" | "off"): CountingSide => ({
      latency: summarize(times[s]),
      reqPerSec: Math.round((totals[s].requests / totals[s].seconds) * 10) / 10,
      requests: totals[s].requests,
      errors: totals[s].errors,
      non2xx: totals[s].non2xx,
    });
    const on = side("on");
    const off = side("off");
    // Stopping writes the counts still in memory.
    await Promise.all(shops.splice(0).map((s) => s.stop()));
    const after = await countedSoFar(ctx.databaseUrl);
    return {
      connections,
      secondsPerRun,
      rounds: ROUNDS,
      on,
      off,
      p99Ratio: ratio(on.latency.p99, off.latency.p99),
      counted: { pageViews: after.pageViews - before.pageViews, visitors: after.visitors - before.visitors },
    };
  } finally {
    await Promise.all(shops.map((s) => s.stop().catch(() => {})));
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}
