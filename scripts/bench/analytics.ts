import os from "node:os";
import { customerListSearch, DEFAULT_CUSTOMER_SORT, type CustomerSort } from "../../app/lib/customers-view";
import { addDays, readDateRange } from "../../app/lib/date-range";
import type { Database } from "../../app/server/platform/db/client.server";
import { fillAnalytics, sizesFor, type AnalyticsData } from "./analytics-data";
import { diagnose, type Diagnosis } from "./analytics-diagnose";
import type { BenchContext } from "./context";
import { getText, request, signIn } from "./http";
import { Part, mark, table, type PartResult } from "./part";
import { fmt, summarize, type Percentiles } from "./stats";

export const TITLE = "Owner's pages on a big shop";
/** Each analytics and report page for a 12-month range (docs/decisions/0019-analytics-roll-ups.md). */
export const OWNER_PAGE_P95_MS = 200;
/** The customers list with a search (bench/README.md, Owner's pages on a big shop). */
export const CUSTOMER_SEARCH_P95_MS = 100;

/** Until the reports page names its reports, these are asked for (the list in docs/rules/analytics.md, Reports). */
const FALLBACK_REPORTS = ["sales-by-day", "sales-by-product", "sales-by-category", "discounts-tax", "stock", "newsletter"];

type Group = "Analytics" | "Report page" | "Report CSV" | "Dashboard" | "Customers";

type Route = {
  group: Group;
  label: string;
  paths: string[];
  targetMs?: number;
  /** What a 200 must carry to count as the real page (not a placeholder or another page). */
  expect?: (status: number, contentType: string, body: string) => string | null;
  requests: number;
  warmup: number;
  /** Why there is nothing to request when `paths` is empty. */
  missing?: string;
  /** The page's server work, run in process to find its slowest query when it is over budget. */
  work?: (db: Database) => Promise<unknown>;
};

type Row = {
  group: Group;
  label: string;
  example: string;
  stats?: Percentiles;
  kb?: number;
  errors?: number;
  skipped?: string;
  targetMs?: number;
  met?: boolean | null;
  diagnosis?: Diagnosis | { error: string };
};

const decode = (href: string) => href.replace(/&amp;/g, "&").replace(/&#x27;|&#39;/g, "'");
const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => decode(m[1]!));

/** A page that is still the "Coming Soon" placeholder is not built yet. */
function htmlPage(status: number, contentType: string, body: string): string | null {
  if (!contentType.includes("text/html")) return `answered ${contentType || "no content type"}, not a page`;
  if (/coming soon/i.test(body)) return "still says Coming Soon: not built yet";
  return status === 200 ? null : `answered ${status}`;
}

function csvFile(status: number, contentType: string, body: string): string | null {
  if (status !== 200) return `answered ${status}`;
  if (!/csv|octet-stream/.test(contentType) && !/^[^<\n]*,[^<\n]*\n/.test(body)) return `answered ${contentType}, not a CSV file`;
  return null;
}

/** The report names the reports page offers (its links, select options or radio buttons). */
export function reportNames(html: string): string[] {
  const names = new Set<string>();
  for (const m of decode(html).matchAll(/[?&]report=([a-z0-9-]+)/g)) names.add(m[1]!);
  const select = /<select[^>]*name="report"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? "";
  for (const m of select.matchAll(/<option[^>]*value="([a-z0-9-]+)"/g)) names.add(m[1]!);
  for (const m of html.matchAll(/<input[^>]*name="report"[^>]*>/g)) {
    const v = /value="([a-z0-9-]+)"/.exec(m[0])?.[1];
    if (v) names.add(v);
  }
  return [...names];
}

/** The CSV link a report's page shows for that report, if any. */
export function csvLink(html: string, report: string): string | null {
  return (
    hrefs(html).find((h) => h.includes(`report=${report}`) && /csv|export|download/i.test(h)) ??
    hrefs(html).find((h) => /\.csv|format=csv|\/export|download/i.test(h) && h.startsWith("/admin")) ??
    null
  );
}

async function page(ctx: BenchContext, cookie: string, path: string) {
  try {
    const res = await getText(ctx.shop.baseUrl + path, { cookie });
    return { status: res.status, type: String(res.headers["content-type"] ?? ""), body: res.body, location: String(res.headers.location ?? "") };
  } catch (err) {
    return { status: 0, type: "", body: (err as Error).message, location: "" };
  }
}

/** The loaders' own server functions, loaded only when a page needs explaining (a rename then fails one diagnosis, not the run). */
const server = {
  analytics: () => import("../../app/server/insight/analytics/figures.server"),
  reports: () => import("../../app/server/insight/reports/reports.server"),
  reportIds: () => import("../../app/lib/reports-view"),
  customers: () => import("../../app/server/people/customers/list.server"),
};

async function routesFor(ctx: BenchContext, cookie: string, data: AnalyticsData, part: Part): Promise<Route[]> {
  const range = `range=custom&from=${addDays(data.today, -364)}&to=${data.today}`;
  const dateRange = readDateRange(new URLSearchParams(range)).range;
  const analyticsWork = async (db: Database) => (await server.analytics()).analyticsView(db, dateRange);
  const n = ctx.opts.analyticsRequests;
  const w = ctx.opts.analyticsWarmup;
  const pageRoute = (group: Group, label: string, paths: string[], targetMs?: number): Route => ({
    group, label, paths, targetMs, requests: n, warmup: w, expect: htmlPage,
  });

  const routes: Route[] = [
    { ...pageRoute("Analytics", "/admin/analytics, 12 months (HTML)", [`/admin/analytics?${range}`], OWNER_PAGE_P95_MS), work: analyticsWork },
    {
      work: analyticsWork,
      group: "Analytics",
      label: "/admin/analytics.data, 12 months (client navigation)",
      paths: [`/admin/analytics.data?${range}`],
      targetMs: OWNER_PAGE_P95_MS,
      requests: n,
      warmup: w,
      expect: (status, _type, body) => (status !== 200 ? `answered ${status}` : /coming soon/i.test(body) ? "still says Coming Soon: not built yet" : null),
    },
  ];

  const reportsPage = await page(ctx, cookie, `/admin/reports?${range}`);
  let reports = reportNames(reportsPage.body);
  if (!reports.length) {
    reports = FALLBACK_REPORTS;
    part.note(`The reports page named no report (GET /admin/reports answered ${reportsPage.status}); asked for ${FALLBACK_REPORTS.join(", ")}.`);
  }
  for (const report of reports) {
    const path = `/admin/reports?report=${report}&${range}`;
    routes.push({
      ...pageRoute("Report page", `/admin/reports: ${report}, 12 months`, [path], OWNER_PAGE_P95_MS),
      work: async (db) => {
        const { isReportId } = await server.reportIds();
        if (!isReportId(report)) throw new Error(`"${report}" is not a report id of app/lib/reports-view.ts`);
        return (await server.reports()).reportTable(db, report, dateRange);
      },
    });
    const html = await page(ctx, cookie, path);
    const link = csvLink(html.body, report);
    routes.push({
      group: "Report CSV",
      label: `${report}.csv, 12 months`,
      paths: link ? [link] : [],
      missing: htmlPage(html.status, html.type, html.body) ?? "its page shows no CSV link",
      requests: Math.max(3, Math.round(n / 3)),
      warmup: 1,
      expect: csvFile,
    });
  }

  routes.push(pageRoute("Dashboard", "/admin (dashboard)", ["/admin"]));

  const list = (q: string, sort: CustomerSort) => `/admin/customers${customerListSearch({ q, sort, dir: "desc" })}`;
  routes.push(
    {
      ...pageRoute(
        "Customers",
        `/admin/customers, search for a misspelt surname (${data.typoSurnames.length} terms)`,
        data.typoSurnames.map((t) => list(t, DEFAULT_CUSTOMER_SORT)),
        CUSTOMER_SEARCH_P95_MS,
      ),
      work: async (db) => {
        const { listCustomers } = await server.customers();
        for (const q of data.typoSurnames.slice(0, 5)) await listCustomers(db, { q, sort: DEFAULT_CUSTOMER_SORT, dir: "desc", page: 1 });
      },
    },
    pageRoute("Customers", "/admin/customers sorted by total spent", [list("", "spent")]),
    pageRoute("Customers", "/admin/customers sorted by last order (its default)", [list("", "last_order")]),
  );
  return routes;
}

async function measure(ctx: BenchContext, cookie: string, route: Route): Promise<Row> {
  const row: Row = { group: route.group, label: route.label, example: route.paths[0] ?? "", targetMs: route.targetMs };
  if (!route.paths.length) return { ...row, skipped: route.missing ?? "nothing to request" };
  const first = await page(ctx, cookie, route.paths[0]!);
  if (first.status === 404) return { ...row, skipped: `GET ${route.paths[0]} answered 404: not built yet` };
  if (first.status >= 300 && first.status < 400) return { ...row, skipped: `GET ${route.paths[0]} answered ${first.status} → ${first.location}` };
  const wrong = route.expect?.(first.status, first.type, first.body);
  if (wrong) return { ...row, skipped: `GET ${route.paths[0]} ${wrong}` };

  const base = ctx.shop.baseUrl;
  const times: number[] = [];
  let bytes = 0;
  let errors = 0;
  for (let i = 0; i < route.warmup + route.requests; i++) {
    const path = route.paths[i % route.paths.length]!;
    const res = await request(base + path, { headers: { cookie }, timeoutMs: 60_000 });
    if (res.status !== 200) errors++;
    if (i >= route.warmup) {
      times.push(res.ms);
      bytes += res.bytes;
    }
  }
  const stats = summarize(times);
  const met = route.targetMs === undefined ? null : stats.p95 <= route.targetMs && errors === 0;
  return { ...row, stats, kb: Math.round(bytes / times.length / 102.4) / 10, errors, met };
}

function worstCheck(part: Part, rows: Row[], group: Group[], target: string) {
  const all = rows.filter((r) => group.includes(r.group) && r.targetMs !== undefined);
  const done = all.filter((r) => r.stats);
  const worst = done.reduce<Row | undefined>((w, r) => (!w || r.stats!.p95 > w.stats!.p95 ? r : w), undefined);
  const missing = all.filter((r) => r.skipped).map((r) => r.label);
  part.check({
    target,
    measured: worst ? `worst p95 ${fmt(worst.stats!.p95)} ms (${worst.label})` : "not measured",
    met: done.some((r) => r.met === false) ? false : done.length && !missing.length ? true : null,
    note: missing.length ? `not measured: ${missing.join(", ")}` : undefined,
  });
}

/**
 * The owner's pages (Analytics, Reports and their CSV files, the dashboard, Customers) on a year
 * of a big shop's trade, through HTTP as a signed-in admin.
 */
export async function runAnalytics(ctx: BenchContext): Promise<PartResult> {
  const part = new Part("analytics", TITLE);
  const sizes = sizesFor(ctx.opts.analyticsOrders);
  ctx.log(`  loading ${sizes.orders.toLocaleString("en-US")} orders, ${sizes.customers.toLocaleString("en-US")} customers, a year of visits`);
  const data = await fillAnalytics(ctx.databaseUrl, sizes, ctx.log);
  ctx.log(`  loaded in ${data.seconds} s`);
  for (const n of data.notes) part.note(n, "partial");

  const cookie = await signIn(ctx.shop.baseUrl, ctx.admin.email, ctx.admin.password);
  const routes = await routesFor(ctx, cookie, data, part);
  // Anything else running on the machine shows in these times; the report says how busy it was.
  const loadBefore = os.loadavg()[0]!;
  const rows: Row[] = [];
  for (const route of routes) {
    ctx.log(`  ${route.label}`);
    const row = await measure(ctx, cookie, route);
    rows.push(row);
    if (row.skipped) part.note(`${row.label} skipped: ${row.skipped}.`, "partial");
    if (row.errors) part.note(`${row.label}: ${row.errors} of ${route.warmup + route.requests} requests did not answer 200.`, "partial");
    if (row.met === false && row.stats) part.note(`Over budget: ${row.label} p95 ${fmt(row.stats.p95)} ms (target ≤ ${row.targetMs} ms).`);
  }
  const loadAfter = os.loadavg()[0]!;
  // After every measurement, so explaining one page never disturbs the timing of another.
  for (const [i, row] of rows.entries()) {
    const work = routes[i]!.work;
    if (row.met !== false || !work) continue;
    ctx.log(`  explaining ${row.label}`);
    try {
      row.diagnosis = await diagnose(ctx.databaseUrl, work);
    } catch (err) {
      row.diagnosis = { error: (err as Error).message.split("\n")[0]! };
    }
  }
  if (!rows.some((r) => r.stats)) part.status = "skipped";

  worstCheck(part, rows, ["Analytics"], `Analytics page, 12-month range: p95 ≤ ${OWNER_PAGE_P95_MS} ms (${sizes.orders.toLocaleString("en-US")} orders)`);
  worstCheck(part, rows, ["Report page"], `Each report page, 12-month range: p95 ≤ ${OWNER_PAGE_P95_MS} ms`);
  worstCheck(part, rows, ["Customers"], `Customers list with a search: p95 ≤ ${CUSTOMER_SEARCH_P95_MS} ms (${sizes.customers.toLocaleString("en-US")} customers)`);

  part.data = { sizes, load: { seconds: data.seconds, steps: data.steps, counts: data.counts, rollups: data.rollups }, today: data.today, loadAverage: { before: loadBefore, after: loadAfter }, rows };
  const c = data.counts;
  const n = (v: number | undefined) => (v ?? 0).toLocaleString("en-US");
  part.md.push(
    `**Data** (generated in PostgreSQL on top of the catalogue, ${data.seconds} s): ${n(c.accounts)} customer accounts and the guests who ordered (${n(c.ordering_emails)} addresses on orders), ${n(c.orders)} orders over the ${sizes.days} days up to ${data.today} (${n(c.counted_orders)} paid and counted, ${n(c.refunded)} refunded, ${n(c.cancelled_paid)} cancelled while paid, ${n(c.discounted)} with a code), ${n(c.lines)} order lines, ${n(c.subscribers)} newsletter subscribers, ${sizes.days} days of visits with ${n(c.page_view_rows)} page-view rows and ${n(c.search_term_rows)} search-term rows (${n(c.empty_search_rows)} with searches that found nothing). Rows in the roll-ups after their rebuild: ${Object.entries(data.rollups).map(([t, v]) => `\`${t}\` ${n(v)}`).join(", ") || "none"}.`,
    "",
    table(["Load step", "s"], data.steps.map((s) => [s.step, fmt(s.seconds)])),
    "",
    `Sequential requests on one keep-alive connection as a signed-in admin (gzip accepted), time to the last byte in ms; ${ctx.opts.analyticsWarmup} warm-up then ${ctx.opts.analyticsRequests} measured per page (CSV files: 1 then ${Math.max(3, Math.round(ctx.opts.analyticsRequests / 3))}). Range: \`range=custom&from=${addDays(data.today, -364)}&to=${data.today}\` (365 days). The customer searches cycle through ${data.typoSurnames.length} common surnames with one letter changed (e.g. ${data.typoSurnames.slice(0, 4).map((t) => `"${t}"`).join(", ")}). Load average (1 min) ${fmt(loadBefore, 2)} before the requests, ${fmt(loadAfter, 2)} after.`,
    "",
    table(
      ["Page", "p50", "p95", "p99", "max", "KB (gzip)", "Target p95", "Met"],
      rows.map((r) =>
        r.stats
          ? [r.label, fmt(r.stats.p50), fmt(r.stats.p95), fmt(r.stats.p99), fmt(r.stats.max), fmt(r.kb), r.targetMs ? `≤ ${r.targetMs}` : "—", mark(r.met ?? null)]
          : [r.label, "—", "—", "—", "—", "—", r.targetMs ? `≤ ${r.targetMs}` : "—", `skipped: ${r.skipped}`],
      ),
    ),
  );
  const explained = rows.filter((r) => r.diagnosis);
  if (explained.length) {
    part.md.push(
      "",
      "**Why the pages over budget are slow.** Each one's server work (the functions its loader calls) run here in process on the same database, 5 times after one warm-up, every statement timed; the slowest statement is explained with `EXPLAIN (ANALYZE, BUFFERS)`.",
    );
    for (const r of explained) {
      const d = r.diagnosis!;
      if ("error" in d) {
        part.md.push("", `- ${r.label}: could not be explained (${d.error}).`);
        continue;
      }
      part.md.push(
        "",
        `- **${r.label}**: server work median ${fmt(d.serverMs)} ms, ${fmt(d.statements)} statements; the slowest took ${fmt(d.slowest?.ms)} ms (HTTP p95 ${fmt(r.stats?.p95)} ms).`,
      );
      if (d.slowest) {
        part.md.push(
          "",
          "<details><summary>Slowest statement and its plan</summary>",
          "",
          "```sql",
          d.slowest.sql.slice(0, 6000),
          `-- values: ${JSON.stringify(d.slowest.values).slice(0, 1000)}`,
          "```",
          "",
          "```",
          ...d.slowest.plan,
          "```",
          "",
          "</details>",
        );
      }
    }
  }
  return part.result();
}
