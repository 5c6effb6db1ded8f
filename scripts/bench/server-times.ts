import type { BenchContext } from "./context";
import { probe } from "./context";
import { request, signIn } from "./http";
import { Part, mark, table, type PartResult } from "./part";
import { fmt, summarize, type Percentiles } from "./stats";

export const STOREFRONT_P95_MS = 50;
export const ADMIN_P95_MS = 300;

/** Search terms by kind; the generated catalogue makes "specific" rare and "broad" common. */
export const SEARCH_TERMS = {
  specific: ["alpaca", "mohair", "teak"],
  broad: ["linen", "cotton"],
  typo: ["duvte", "blanket thorw", "pilow"],
};

type Route = {
  group: "Storefront" | "Page cache" | "Admin" | "Data request";
  label: string;
  paths: string[];
  headers?: Record<string, string>;
  targetMs?: number;
};

type Row = { label: string; group: string; example: string; stats?: Percentiles; kb?: number; errors?: number; skipped?: string; targetMs?: number; met?: boolean | null };

async function shopSorts(): Promise<{ sorts: string[]; note?: string }> {
  try {
    const mod = { ...(await import("../../app/lib/product")), ...(await import("../../app/lib/shop-sorts")) } as { SHOP_SORTS?: readonly { value: string }[]; DEFAULT_SORT?: string };
    const sorts = (mod.SHOP_SORTS ?? []).map((s) => s.value).filter((v) => v !== mod.DEFAULT_SORT);
    if (sorts.length) return { sorts };
  } catch {
    /* not there yet */
  }
  return { sorts: ["name", "price-low", "price-high", "rating"], note: "app/lib/shop-sorts.ts has no SHOP_SORTS: measured the sort values docs/rules/storefront.md names." };
}

/**
 * A cookie the shop does not know: enough to bypass the page cache (docs/decisions/0012), so the
 * storefront rows time a full rendering of every request.
 */
export const RENDER = { cookie: "bench-render=1" };

function routes(ctx: BenchContext, sorts: string[], adminCookie: string | null): Route[] {
  const q = (params: Record<string, string>) => `/shop?${new URLSearchParams(params)}`;
  const target = STOREFRONT_P95_MS;
  const products = ctx.samples.productIds.slice(0, 100);
  const slugs = ctx.samples.slugs.slice(0, 100);
  const rendered: Route[] = [
    { group: "Storefront", label: "/ (home)", paths: ["/"], targetMs: target },
    { group: "Storefront", label: "/shop", paths: ["/shop"], targetMs: target },
    { group: "Storefront", label: "/shop search, specific term", paths: SEARCH_TERMS.specific.map((s) => q({ search: s })), targetMs: target },
    { group: "Storefront", label: "/shop search, broad term", paths: SEARCH_TERMS.broad.map((s) => q({ search: s })), targetMs: target },
    { group: "Storefront", label: "/shop search, typo", paths: SEARCH_TERMS.typo.map((s) => q({ search: s })), targetMs: target },
    { group: "Storefront", label: "/shop?category=Bedding", paths: [q({ category: "Bedding" })], targetMs: target },
    ...sorts.map((sort): Route => ({ group: "Storefront", label: `/shop?sort=${sort}`, paths: [q({ sort })], targetMs: target })),
    { group: "Storefront", label: "/shop page 3", paths: [q({ page: "3" })], targetMs: target },
    { group: "Storefront", label: "/product/:id", paths: products.map((id) => `/product/${id}`), targetMs: target },
    { group: "Storefront", label: "/blog", paths: ["/blog"], targetMs: target },
    { group: "Storefront", label: "/blog/:slug", paths: slugs.map((s) => `/blog/${s}`), targetMs: target },
    { group: "Storefront", label: "/cart", paths: ["/cart"], targetMs: target },
  ];
  const list: Route[] = [
    ...rendered.map((r) => ({ ...r, headers: RENDER })),
    // The same pages as a visitor without cookies gets them after the first visit.
    { group: "Page cache", label: "/ (home), page cache", paths: ["/"] },
    { group: "Page cache", label: "/shop, page cache", paths: ["/shop"] },
    { group: "Page cache", label: "/product/:id, page cache", paths: products.map((id) => `/product/${id}`) },
    { group: "Data request", label: "/shop.data (client navigation)", paths: ["/shop.data"], headers: RENDER },
    { group: "Data request", label: "/shop.data, page cache", paths: ["/shop.data"] },
    { group: "Data request", label: "/api/cart/quote (3 lines)", paths: [0, 3, 6, 9].map((i) => `/api/cart/quote?lines=${products.slice(i, i + 3).map((id) => `${id}:1`).join(",")}`) },
  ];
  if (adminCookie) {
    list.push({ group: "Admin", label: "/admin/products (first page)", paths: ["/admin/products"], headers: { cookie: adminCookie }, targetMs: ADMIN_P95_MS });
  }
  return list;
}

async function measure(ctx: BenchContext, route: Route): Promise<Row> {
  const base = ctx.shop.baseUrl;
  const row: Row = { label: route.label, group: route.group, example: route.paths[0] ?? "", targetMs: route.targetMs };
  if (!route.paths.length) return { ...row, skipped: "nothing to request (no sample rows)" };
  const first = await probe(base + route.paths[0], { headers: route.headers });
  if (first.status === 404) return { ...row, skipped: `GET ${route.paths[0]} answered 404: not built yet` };
  if (first.status >= 300 || first.status === 0) {
    return { ...row, skipped: `GET ${route.paths[0]} answered ${first.status || first.body}${first.location ? ` → ${first.location}` : ""}` };
  }
  const times: number[] = [];
  let bytes = 0;
  let errors = 0;
  const total = ctx.opts.warmup + ctx.opts.requests;
  for (let i = 0; i < total; i++) {
    const path = route.paths[i % route.paths.length]!;
    const res = await request(base + path, { headers: route.headers });
    if (res.status !== 200) errors++;
    if (i >= ctx.opts.warmup) {
      times.push(res.ms);
      bytes += res.bytes;
    }
  }
  const stats = summarize(times);
  const met = route.targetMs === undefined ? null : stats.p95 < route.targetMs && errors === 0;
  return { ...row, stats, kb: Math.round(bytes / times.length / 102.4) / 10, errors, met };
}

export async function runServerTimes(ctx: BenchContext): Promise<PartResult> {
  const part = new Part("server", "Server response times");
  const { sorts, note } = await shopSorts();
  if (note) part.note(note);

  let adminCookie: string | null = null;
  try {
    adminCookie = await signIn(ctx.shop.baseUrl, ctx.admin.email, ctx.admin.password);
  } catch (err) {
    part.note(`Admin products table skipped: signing in failed (${(err as Error).message}).`, "partial");
  }

  const rows: Row[] = [];
  for (const route of routes(ctx, sorts, adminCookie)) {
    ctx.log(`  ${route.label}`);
    const row = await measure(ctx, route);
    rows.push(row);
    if (row.skipped) part.note(`${row.label} skipped: ${row.skipped}.`, "partial");
    if (row.errors) part.note(`${row.label}: ${row.errors} of ${ctx.opts.warmup + ctx.opts.requests} requests did not answer 200.`, "partial");
  }
  const measured = rows.filter((r) => r.stats);
  if (!measured.length) part.status = "skipped";

  for (const group of ["Storefront", "Admin"] as const) {
    const groupRows = rows.filter((r) => r.group === group);
    if (!groupRows.length) continue;
    const limit = group === "Admin" ? ADMIN_P95_MS : STOREFRONT_P95_MS;
    const done = groupRows.filter((r) => r.stats);
    const worst = done.reduce<Row | undefined>((w, r) => (!w || r.stats!.p95 > w.stats!.p95 ? r : w), undefined);
    const missing = groupRows.filter((r) => r.skipped).map((r) => r.label);
    part.check({
      target: group === "Admin" ? `Admin products first page p95 < ${limit} ms` : `Every storefront page p95 < ${limit} ms`,
      measured: worst ? `worst p95 ${fmt(worst.stats!.p95)} ms (${worst.label})` : "not measured",
      met: done.some((r) => r.met === false) ? false : done.length && !missing.length ? true : null,
      note: missing.length ? `not measured: ${missing.join(", ")}` : undefined,
    });
  }

  part.data = { requestsPerRoute: ctx.opts.requests, warmupPerRoute: ctx.opts.warmup, rows };
  part.md.push(
    `Sequential requests on one keep-alive connection (gzip accepted, as a browser does), ${ctx.opts.warmup} warm-up requests then ${ctx.opts.requests} measured per row; time from sending the request to the last byte of the response, in ms. Rows with several URLs cycle through them (different products, posts or search terms). The storefront rows send a cookie the shop does not know, which bypasses the page cache: every one of their requests is rendered afresh, the worst case the targets apply to. The "page cache" rows are what a visitor without cookies gets once a page has been rendered (docs/decisions/0012).`,
    "",
    table(
      ["Route", "p50", "p95", "p99", "max", "KB (gzip)", "Target p95", "Met"],
      rows.map((r) =>
        r.stats
          ? [r.label, fmt(r.stats.p50), fmt(r.stats.p95), fmt(r.stats.p99), fmt(r.stats.max), fmt(r.kb), r.targetMs ? `< ${r.targetMs}` : "—", mark(r.met ?? null)]
          : [r.label, "—", "—", "—", "—", "—", r.targetMs ? `< ${r.targetMs}` : "—", `skipped: ${r.skipped}`],
      ),
    ),
    "",
    `Search terms — specific: ${SEARCH_TERMS.specific.join(", ")}; broad: ${SEARCH_TERMS.broad.join(", ")}; typo: ${SEARCH_TERMS.typo.map((t) => `"${t}"`).join(", ")}.`,
  );
  return part.result();
}
