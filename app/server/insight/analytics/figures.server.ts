// The Analytics page's figures for a range and its previous period (docs/rules/analytics.md),
// all read from roll-ups: sales (./sales.server.ts), new and returning customers
// (first_orders_daily, repeat_orders_daily), the funnel (visits_daily) and searches
// (search_terms_daily). Each question is one small query; they run side by side.
import { sql } from "drizzle-orm";
import type {
  AnalyticsFigures,
  AnalyticsView,
  ComparedFigure,
  FunnelStep,
  SearchTermCount,
  TopCategory,
  TopProduct,
} from "~/lib/analytics-view";
import { chartBucket, percentChange, type DateRange, type DayRange } from "~/lib/date-range";
import { bucketSales } from "~/lib/sales-chart";
import type { Db } from "../../platform/index.server";
import { dateArray, inSpans, rangeCover } from "./range-cover.server";
import { averageOrder, netSalesByDay, netSalesTotals, salesByCategory, salesByDay, salesByProduct, type SalesDay } from "./sales.server";

export const TOP_ROWS = 10;

export type CustomerCounts = { newCustomers: number; returningCustomers: number };

/**
 * New customers: their first counted order falls in the range. Returning: a counted order in
 * the range and a first one before it. Each counted order is rolled up with the day of the
 * same customer's previous counted order, so a returning customer is exactly one order in the
 * range whose previous order was before the range (their first order in it): no distinct count
 * over the orders is needed (docs/decisions/0019).
 */
export async function customerCounts(db: Db, range: DayRange): Promise<CustomerCounts> {
  return (await customerCountsOf(db, [range]))[0]!;
}

async function customerCountsOf(db: Db, ranges: DayRange[]): Promise<CustomerCounts[]> {
  const columns = ranges.map(
    (r, i) => sql`
      (select coalesce(sum(customers), 0)::int from first_orders_daily
        where day between ${r.start}::date and ${r.end}::date) as ${sql.raw(`new_${i}`)},
      (select coalesce(sum(orders), 0)::int from repeat_orders_daily
        where day between ${r.start}::date and ${r.end}::date and previous_day < ${r.start}::date) as ${sql.raw(`returning_${i}`)}`,
  );
  const result = await db.execute<Record<string, number>>(sql`select ${sql.join(columns, sql`, `)}`);
  const row = result.rows[0]!;
  return ranges.map((_, i) => ({ newCustomers: Number(row[`new_${i}`]), returningCustomers: Number(row[`returning_${i}`]) }));
}

export type FunnelCounts = {
  visitors: number;
  productViewers: number;
  cartAdders: number;
  checkoutStarters: number;
};

/** Visitors reaching each step, summed over the range's days (a visitor counts once a day per step). */
export async function funnelCounts(db: Db, range: DayRange): Promise<FunnelCounts> {
  const result = await db.execute<{ visitors: number; product_viewers: number; cart_adders: number; checkout_starters: number }>(sql`
    select coalesce(sum(visitors), 0)::bigint as visitors,
      coalesce(sum(product_viewers), 0)::bigint as product_viewers,
      coalesce(sum(cart_adders), 0)::bigint as cart_adders,
      coalesce(sum(checkout_starters), 0)::bigint as checkout_starters
    from visits_daily
    where day between ${range.start}::date and ${range.end}::date`);
  const r = result.rows[0]!;
  return {
    visitors: Number(r.visitors),
    productViewers: Number(r.product_viewers),
    cartAdders: Number(r.cart_adders),
    checkoutStarters: Number(r.checkout_starters),
  };
}

/** Percent lost from one step to the next, one decimal; null when the step before had nobody. */
export function dropPercent(before: number, after: number): number | null {
  if (before === 0) return null;
  return Math.round(((before - after) / before) * 1000) / 10;
}

export function funnelSteps(counts: FunnelCounts, paidOrders: number): FunnelStep[] {
  const steps: Omit<FunnelStep, "dropPercent">[] = [
    { key: "visitors", label: "Visitors", count: counts.visitors },
    { key: "productViewers", label: "Viewed a product", count: counts.productViewers },
    { key: "cartAdders", label: "Added to cart", count: counts.cartAdders },
    { key: "checkoutStarters", label: "Started checkout", count: counts.checkoutStarters },
    { key: "paidOrders", label: "Paid orders", count: paidOrders },
  ];
  return steps.map((s, i) => ({ ...s, dropPercent: i === 0 ? null : dropPercent(steps[i - 1]!.count, s.count) }));
}

/**
 * The most searched terms, and the terms whose searches most often found nothing: whole months
 * from search_terms_monthly, the rest of the range from search_terms_daily.
 */
export async function searchTerms(db: Db, range: DayRange, limit = TOP_ROWS): Promise<{ top: SearchTermCount[]; empty: SearchTermCount[] }> {
  const cover = rangeCover(range);
  const result = await db.execute<{ term: string; searches: number; empty_searches: number; top_rank: number; empty_rank: number }>(sql`
    with parts as (
      select term, searches, empty_searches from search_terms_monthly where month = any (${dateArray(cover.months)})
      union all
      select term, searches, empty_searches from search_terms_daily where ${inSpans(sql.raw("day"), cover.addDays)}
      union all
      select term, -searches, -empty_searches from search_terms_daily where ${inSpans(sql.raw("day"), cover.subtractDays)}
    ), terms as (
      select term, sum(searches)::bigint as searches, sum(empty_searches)::bigint as empty_searches
      from parts
      group by term
    ), ranked as (
      select term, searches, empty_searches,
        row_number() over (order by searches desc, term) as top_rank,
        row_number() over (order by empty_searches desc, term) as empty_rank
      from terms
    )
    select term, searches, empty_searches, top_rank, empty_rank from ranked
    where (top_rank <= ${limit} and searches > 0) or (empty_rank <= ${limit} and empty_searches > 0)`);
  const rows = result.rows.map((r) => ({
    term: r.term,
    searches: Number(r.searches),
    empty: Number(r.empty_searches),
    topRank: Number(r.top_rank),
    emptyRank: Number(r.empty_rank),
  }));
  return {
    top: rows
      .filter((r) => r.topRank <= limit && r.searches > 0)
      .sort((a, b) => a.topRank - b.topRank)
      .map((r) => ({ term: r.term, count: r.searches })),
    empty: rows
      .filter((r) => r.emptyRank <= limit && r.empty > 0)
      .sort((a, b) => a.emptyRank - b.emptyRank)
      .map((r) => ({ term: r.term, count: r.empty })),
  };
}

function compared(current: number | null, previous: number | null): ComparedFigure {
  // No average order value on one side (no orders): nothing to compare.
  return { current, previous, change: current === null || previous === null ? null : percentChange(current, previous) };
}

/** Sums of a run of days (the range's totals, read with the chart's days in the same query). */
function totalsOf(days: SalesDay[]) {
  const t = { orders: 0, revenueCents: 0, units: 0 };
  for (const d of days) {
    t.orders += d.orders;
    t.revenueCents += d.revenueCents;
    t.units += d.units;
  }
  return { ...t, averageOrderCents: averageOrder(t.revenueCents, t.orders) };
}

/** Everything the Analytics page shows for a range: eight small queries, side by side. */
export async function analyticsView(db: Db, range: DateRange): Promise<AnalyticsView> {
  // The previous period ends the day before the range starts: one read of sales_daily covers both.
  const both: DayRange = { start: range.previous.start, end: range.end, days: range.previous.days + range.days };
  const [allDays, [customers, previousCustomers], byRevenue, byUnits, categoriesByRevenue, categoriesByUnits, visits, searches, net, previousNet, netDays] =
    await Promise.all([
      salesByDay(db, both),
      customerCountsOf(db, [range, range.previous]),
      salesByProduct(db, range, { limit: TOP_ROWS }),
      salesByProduct(db, range, { limit: TOP_ROWS, by: "units" }),
      salesByCategory(db, range, { limit: TOP_ROWS }),
      salesByCategory(db, range, { limit: TOP_ROWS, by: "units" }),
      funnelCounts(db, range),
      searchTerms(db, range),
      netSalesTotals(db, range),
      netSalesTotals(db, range.previous),
      netSalesByDay(db, range),
    ]);
  const days = allDays.slice(range.previous.days);
  const totals = totalsOf(days);
  const previousTotals = totalsOf(allDays.slice(0, range.previous.days));
  const figures: AnalyticsFigures = {
    revenueCents: compared(totals.revenueCents, previousTotals.revenueCents),
    orders: compared(totals.orders, previousTotals.orders),
    averageOrderCents: compared(totals.averageOrderCents, previousTotals.averageOrderCents),
    units: compared(totals.units, previousTotals.units),
    newCustomers: compared(customers!.newCustomers, previousCustomers!.newCustomers),
    returningCustomers: compared(customers!.returningCustomers, previousCustomers!.returningCustomers),
    refundedCents: compared(net.refundedCents, previousNet.refundedCents),
    netSalesCents: compared(net.netCents, previousNet.netCents),
  };
  const product = (p: TopProduct): TopProduct => ({ productId: p.productId, name: p.name, category: p.category, units: p.units, revenueCents: p.revenueCents });
  const category = (c: TopCategory): TopCategory => ({ category: c.category, units: c.units, revenueCents: c.revenueCents });
  const bucket = chartBucket(range);
  return {
    range,
    figures,
    // Gross, refunds (each on the day it succeeded) and net per bar.
    chart: { bucket, points: bucketSales(netDays.map((d) => ({ day: d.day, revenueCents: d.grossCents, orders: d.orders, refundedCents: d.refundedCents })), bucket) },
    topProducts: { byRevenue: byRevenue.map(product), byUnits: byUnits.map(product) },
    topCategories: { byRevenue: categoriesByRevenue.map(category), byUnits: categoriesByUnits.map(category) },
    funnel: funnelSteps(visits, totals.orders),
    searches,
  };
}
