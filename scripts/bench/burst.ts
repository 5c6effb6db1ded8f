import pg from "pg";
import { burst, tally, type BurstResult } from "../burst-client";
import { probe, type BenchContext } from "./context";
import { checkoutPool, placeOrder } from "./costs";
import { request } from "./http";
import { Part, mark, table, type PartResult } from "./part";
import { seeded } from "./random";
import { RENDER } from "./server-times";
import { fmt, summarize } from "./stats";
import { FINISHES, NOUNS } from "./words";

/** Requests in each burst, all sent at the same moment. */
export const BURST_SIZE = 1_000;
/** Targets (docs/decisions/0016): every request of a one-URL burst served; 95 % of 1,000 distinct searches. */
export const ONE_URL_SERVED = 1;
export const DISTINCT_SERVED = 0.95;
/** 1,000 different searches at once: the slowest served within this (p99, ms). */
export const DISTINCT_P99_MS = 3_000;

/** Timed one after another while a burst runs: what a shopper who is not searching waits. */
type Alongside = { productMs: number[]; checkoutMs: number[]; productFailed: number; checkoutFailed: number };

/**
 * Product pages (rendered: a cookie the shop does not know) and whole checkouts (create, pay on
 * the test provider's form, verify), each in its own loop, from just after the burst is sent
 * until its last answer: their times show whether the burst starves them.
 */
async function alongside(base: string, productIds: string[], orders: string[], finished: Promise<unknown>): Promise<Alongside> {
  const out: Alongside = { productMs: [], checkoutMs: [], productFailed: 0, checkoutFailed: 0 };
  let done = false;
  void finished.finally(() => (done = true));
  // Sent after the burst's requests, so they queue behind them.
  await new Promise((r) => setTimeout(r, 250));
  const products = async () => {
    for (let i = 0; !done; i++) {
      const res = await request(`${base}/product/${productIds[i % productIds.length]}`, { headers: RENDER });
      if (res.status === 200) out.productMs.push(res.ms);
      else out.productFailed++;
    }
  };
  const checkouts = async () => {
    for (let i = 0; !done && orders.length; i++) {
      const t0 = performance.now();
      const placed = await placeOrder(base, orders, 90_000 + i);
      if (placed.ok) out.checkoutMs.push(performance.now() - t0);
      else out.checkoutFailed++;
    }
  };
  await Promise.all([products(), checkouts()]);
  return out;
}

type Burst = {
  label: string;
  example: string;
  /** Every request an answer; none but 200, or 503 with Retry-After. */
  sent: number;
  served: number;
  refused: number;
  /** Answers other than 200 or 503 with Retry-After (a 500, a 503 without Retry-After…). */
  broken: number;
  brokenStatuses: Record<number, number>;
  socketErrors: Record<string, number>;
  pageCache: Record<string, number>;
  /** Served requests, from sending to the last byte (ms). */
  servedMs: ReturnType<typeof summarize>;
  /** Every answered request, refusals included (ms). */
  allMs: ReturnType<typeof summarize>;
};

/**
 * 1,000 search terms nobody has asked for in this run: "<finish> <noun word>" from the
 * catalogue's own word lists, so they match products as real searches do.
 */
export function distinctTerms(n: number, seed = 21): string[] {
  const words = [...new Set(Object.values(NOUNS).flatMap((list) => list.flatMap((noun) => noun.toLowerCase().split(" "))))].filter((w) => w.length > 2);
  const all = FINISHES.flatMap((f) => words.map((w) => `${f.toLowerCase()} ${w}`));
  return seeded(seed).sample(all, Math.min(n, all.length));
}

function summarizeBurst(label: string, example: string, result: BurstResult): Burst {
  const t = tally(result);
  const brokenStatuses: Record<number, number> = {};
  for (const a of t.broken) brokenStatuses[a.status] = (brokenStatuses[a.status] ?? 0) + 1;
  return {
    label,
    example,
    sent: t.sent,
    served: t.served,
    refused: t.refused,
    broken: t.broken.length,
    brokenStatuses,
    socketErrors: result.socketErrors,
    pageCache: t.byCache,
    servedMs: summarize(result.answers.filter((a) => a.status === 200).map((a) => a.ms)),
    allMs: summarize(result.answers.map((a) => a.ms)),
  };
}

/**
 * Bursts of 1,000 simultaneous requests at pages nobody has asked for yet, each on its own
 * connection: one search URL (the page cache's single flight shares one rendering), the same
 * URL with a cookie (every request rendered), and 1,000 different searches (every request
 * rendered). Counted: served (200), refused by admission control (503 with Retry-After,
 * docs/decisions/0016), anything else, and requests that got no answer.
 */
export async function runBurst(ctx: BenchContext): Promise<PartResult> {
  const part = new Part("burst", "Bursts: 1,000 simultaneous requests");
  const base = ctx.shop.baseUrl;
  const terms = distinctTerms(BURST_SIZE + 1);
  const one = `/shop?search=${encodeURIComponent(terms.pop()!)}`;
  const first = await probe(base + "/shop?search=burst+probe", { headers: RENDER });
  if (first.status !== 200) {
    part.note(`Skipped: GET /shop?search=… answered ${first.status || first.body}.`, "skipped");
    return part.result();
  }
  if (terms.length < BURST_SIZE) part.note(`Only ${terms.length} distinct search terms could be made from the word lists.`, "partial");

  const runs: Burst[] = [];
  const settle = () => new Promise((r) => setTimeout(r, 2_000));
  ctx.log(`  ${BURST_SIZE} × ${one} (no cookie)`);
  runs.push(summarizeBurst("One search URL, no cookie (page cache)", one, await burst(Array.from({ length: BURST_SIZE }, () => base + one))));
  await settle();
  // The same URL with a cookie: no page cache, so every request renders (or waits, or is refused).
  const oneCookie = one;
  ctx.log(`  ${BURST_SIZE} × ${oneCookie} with a cookie`);
  runs.push(
    summarizeBurst(
      "One search URL, with a cookie (rendered each time)",
      oneCookie,
      await burst(Array.from({ length: BURST_SIZE }, () => base + oneCookie), { headers: RENDER }),
    ),
  );
  await settle();
  ctx.log(`  ${terms.length} different searches (no cookie), with product pages and checkouts alongside`);
  const distinct = terms.map((t) => `/shop?search=${encodeURIComponent(t)}`);
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  const orders = await checkoutPool(client).finally(() => client.end());
  const searching = burst(distinct.map((p) => base + p));
  const [searched, beside] = await Promise.all([searching, alongside(base, ctx.samples.productIds.slice(0, 200), orders, searching)]);
  runs.push(summarizeBurst(`${terms.length.toLocaleString("en-US")} different searches, no cookie`, distinct[0]!, searched));

  const [oneUrl, , many] = runs as [Burst, Burst, Burst];
  const share = (b: Burst) => (b.sent ? b.served / b.sent : 0);
  part.check({
    target: `one URL × ${BURST_SIZE.toLocaleString("en-US")}: ${ONE_URL_SERVED * 100} % served`,
    measured: `${oneUrl.served.toLocaleString("en-US")} of ${oneUrl.sent.toLocaleString("en-US")} served, p99 ${fmt(oneUrl.servedMs.p99, 0)} ms`,
    met: share(oneUrl) >= ONE_URL_SERVED,
  });
  part.check({
    target: `${BURST_SIZE.toLocaleString("en-US")} distinct searches: ≥ ${DISTINCT_SERVED * 100} % served`,
    measured: `${many.served.toLocaleString("en-US")} of ${many.sent.toLocaleString("en-US")} served, p99 ${fmt(many.servedMs.p99, 0)} ms`,
    met: share(many) >= DISTINCT_SERVED,
  });
  part.check({
    target: `${BURST_SIZE.toLocaleString("en-US")} distinct searches: p99 ≤ ${fmt(DISTINCT_P99_MS / 1000, 0)} s`,
    measured: `p99 ${fmt(many.servedMs.p99, 0)} ms`,
    met: many.servedMs.p99 <= DISTINCT_P99_MS,
  });
  const productMs = summarize(beside.productMs);
  const checkoutMs = summarize(beside.checkoutMs);
  part.check({
    target: "during the distinct searches: product pages and checkouts answered (p99 reported)",
    measured: `${beside.productMs.length} product pages, p50 ${fmt(productMs.p50, 0)} / p99 ${fmt(productMs.p99, 0)} ms; ${beside.checkoutMs.length} checkouts, p50 ${fmt(checkoutMs.p50, 0)} / p99 ${fmt(checkoutMs.p99, 0)} ms; failed ${beside.productFailed + beside.checkoutFailed}`,
    met: beside.productMs.length > 0 && beside.checkoutMs.length > 0 && beside.productFailed + beside.checkoutFailed === 0,
  });
  const broken = runs.reduce((s, b) => s + b.broken + Object.values(b.socketErrors).reduce((x, n) => x + n, 0), 0);
  part.check({
    target: "bursts: no 500, every refusal a 503 with Retry-After",
    measured: broken ? `${broken} broken answer(s)` : "0 broken answers",
    met: broken === 0,
  });
  for (const b of runs) {
    if (b.broken) part.note(`${b.label}: ${b.broken} answer(s) neither 200 nor 503 with Retry-After (${JSON.stringify(b.brokenStatuses)}).`);
    const lost = Object.values(b.socketErrors).reduce((x, n) => x + n, 0);
    if (lost) part.note(`${b.label}: ${lost} request(s) got no answer (${JSON.stringify(b.socketErrors)}).`);
  }

  part.md.push(
    `${BURST_SIZE.toLocaleString("en-US")} requests sent at the same moment, each on its own connection (as many different visitors would), at pages nobody had asked for in this run. **Served**: answered 200. **Refused**: 503 with Retry-After from admission control, past its queue's bounds (docs/decisions/0016). **Broken**: anything else (a 500 would count here). Times run from sending the request to its last byte; the served column's percentiles are over the served requests, the last column over every answer.`,
    "",
    table(
      ["Burst", "Served", "Refused (503)", "Broken", "No answer", "Served p50 (ms)", "Served p99 (ms)", "All p99 (ms)", "Page cache"],
      runs.map((b) => [
        b.label,
        `${b.served} (${fmt((b.served / b.sent) * 100, 1)} %)`,
        b.refused,
        b.broken,
        Object.values(b.socketErrors).reduce((x, n) => x + n, 0),
        fmt(b.servedMs.p50, 0),
        fmt(b.servedMs.p99, 0),
        fmt(b.allMs.p99, 0),
        Object.entries(b.pageCache)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ") || "—",
      ]),
    ),
    "",
    `**Alongside the ${terms.length.toLocaleString("en-US")} different searches**, from 250 ms after they were sent until the last answer, one loop asked for product pages one after another (rendered: a cookie the shop does not know) and another placed whole checkouts (create, pay on the test provider's form, verify; time to the verdict). Searches wait in a lane of their own in admission control, which gives three turns of four to other requests while both wait (docs/decisions/0016), and works on at most a few searches at once (\`REQUEST_SEARCH_CONCURRENCY\`, docs/decisions/0047):`,
    "",
    table(
      ["During the search burst", "Answered", "Failed", "p50 (ms)", "p95 (ms)", "p99 (ms)", "max (ms)"],
      [
        ["Product page (rendered)", beside.productMs.length, beside.productFailed, fmt(productMs.p50, 0), fmt(productMs.p95, 0), fmt(productMs.p99, 0), fmt(productMs.max, 0)],
        ["Checkout (create, pay, verify)", beside.checkoutMs.length, beside.checkoutFailed, fmt(checkoutMs.p50, 0), fmt(checkoutMs.p95, 0), fmt(checkoutMs.p99, 0), fmt(checkoutMs.max, 0)],
      ],
    ),
    "",
    `Targets: ${mark(share(oneUrl) >= ONE_URL_SERVED)} one URL ${ONE_URL_SERVED * 100} % served; ${mark(share(many) >= DISTINCT_SERVED)} distinct searches ≥ ${DISTINCT_SERVED * 100} % served; ${mark(broken === 0)} no broken answer.`,
  );
  part.data = { burstSize: BURST_SIZE, runs, alongside: { product: productMs, checkout: checkoutMs, productFailed: beside.productFailed, checkoutFailed: beside.checkoutFailed } };
  return part.result();
}
