import type pg from "pg";
import { createDatabase, type Database } from "../../app/server/platform/db/client.server";

/**
 * Why an owner's page is over budget: its server work run in this process (the same functions
 * the page's loader calls, on the bench database), every statement timed, and the slowest one
 * explained with EXPLAIN (ANALYZE, BUFFERS), so whoever owns the page sees which query to fix.
 */

type Statement = { text: string; values: unknown[]; ms: number; run: number };

export type Diagnosis = {
  /** Median time of the whole server work, in ms, over the measured runs. */
  serverMs: number;
  statements: number;
  slowest: { sql: string; values: unknown[]; ms: number; plan: string[] } | null;
};

const RUNS = 5;

/** The statement as written, blank lines dropped (collapsing it onto one line would let an SQL comment swallow the rest). */
const tidy = (sql: string) =>
  sql
    .split("\n")
    .filter((l) => l.trim())
    .join("\n")
    .trim();
const SKIP = /^\s*(begin|commit|rollback|savepoint|release|set |select set_config)/i;

/** Times every statement the pool's clients run (pg calls back or returns a promise). */
function capture(db: Database, sink: Statement[], run: () => number) {
  db.$client.on("connect", (client: pg.PoolClient) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0] as string | { text?: string; values?: unknown[] };
      const text = typeof first === "string" ? first : (first?.text ?? "");
      const values = Array.isArray(args[1]) ? args[1] : typeof first === "object" ? (first?.values ?? []) : [];
      const started = performance.now();
      const n = run();
      const done = () => sink.push({ text, values, ms: performance.now() - started, run: n });
      const last = args[args.length - 1];
      if (typeof last === "function") {
        args[args.length - 1] = (err: unknown, res: unknown) => {
          done();
          (last as (e: unknown, r: unknown) => void)(err, res);
        };
        return original(...args);
      }
      const result = original(...args) as Promise<unknown> | undefined;
      result?.then(done, () => {});
      return result;
    };
  });
}

export async function diagnose(databaseUrl: string, work: (db: Database) => Promise<unknown>): Promise<Diagnosis> {
  const db = createDatabase(databaseUrl, 4);
  const log: Statement[] = [];
  let run = 0;
  capture(db, log, () => run);
  try {
    const totals: number[] = [];
    // Run 0 warms the caches and is not counted.
    for (run = 0; run <= RUNS; run++) {
      const started = performance.now();
      await work(db);
      if (run > 0) totals.push(performance.now() - started);
    }
    totals.sort((a, b) => a - b);
    const timed = log.filter((s) => s.run > 0 && !SKIP.test(s.text));
    // The statement (text and values) with the highest median over the runs.
    const groups = new Map<string, Statement[]>();
    for (const s of timed) {
      const key = s.text + JSON.stringify(s.values);
      groups.set(key, [...(groups.get(key) ?? []), s]);
    }
    const ranked = [...groups.values()]
      .map((g) => ({ s: g[0]!, ms: g.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(g.length / 2)]! }))
      .sort((a, b) => b.ms - a.ms);
    const top = ranked[0];
    let slowest: Diagnosis["slowest"] = null;
    if (top) {
      const client = await db.$client.connect();
      try {
        await client.query("begin");
        // The settings the page's own transaction made (e.g. a planner switch) hold for the plan too.
        const settings = new Map(log.filter((s) => s.run === 1 && /^\s*select set_config/i.test(s.text)).map((s) => [s.text + JSON.stringify(s.values), s]));
        for (const s of settings.values()) await client.query(s.text, s.values as unknown[]);
        const plan = await client.query<{ "QUERY PLAN": string }>(`explain (analyze, buffers) ${top.s.text}`, top.s.values as unknown[]);
        slowest = { sql: tidy(top.s.text), values: top.s.values, ms: Math.round(top.ms * 10) / 10, plan: plan.rows.map((r) => r["QUERY PLAN"]) };
      } catch (err) {
        slowest = { sql: tidy(top.s.text), values: top.s.values, ms: Math.round(top.ms * 10) / 10, plan: [`EXPLAIN failed: ${(err as Error).message}`] };
      } finally {
        await client.query("rollback").catch(() => {});
        client.release();
      }
    }
    return { serverMs: Math.round(totals[Math.floor(totals.length / 2)]! * 10) / 10, statements: timed.length / RUNS, slowest };
  } finally {
    await db.$client.end();
  }
}
