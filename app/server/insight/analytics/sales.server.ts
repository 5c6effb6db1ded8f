// Sales figures for a range of UTC days, read from the roll-ups (docs/rules/analytics.md, What
// counts as a sale). The roll-ups are kept exact by triggers on orders, order lines and the order
// ledger (migrations 0018 and 0033, docs/decisions/0019): nothing here reads the orders themselves,
// so a year of figures costs a few hundred rows per question.
import { sql, type SQL } from "drizzle-orm";
import { daysOf, type DayRange } from "~/lib/date-range";
import type { Db } from "../../platform/index.server";
import { dateArray, inSpans, monthOf, rangeCover } from "./range-cover.server";

/** Gross sales of one UTC day: the orders paid that day, kept there when refunded or cancelled later. */
export type SalesDay = {
  day: string;
  orders: number;
  /** What shoppers paid: lines − discount + shipping + tax added. */
  revenueCents: number;
  units: number;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  /** Orders that used a discount code. */
  discountedOrders: number;
};

export type SalesTotals = Omit<SalesDay, "day"> & {
  /** Revenue ÷ orders, rounded to the cent; null when there were no orders. */
  averageOrderCents: number | null;
};

export type ProductSales = {
  /** The nil UUID for lines whose product had been deleted when the order was counted. */
  productId: string;
  /** The product's name and category when it last sold in the range. */
  name: string;
  category: string;
  units: number;
  /** Line totals less each line's share of the order discount. */
  revenueCents: number;
};

export type CategorySales = { category: string; units: number; revenueCents: number };

export type SalesRanking = {
  /** How many rows (all when not given). */
  limit?: number;
  /** Revenue (the default) or units, descending; ties by name. */
  by?: "revenue" | "units";
};

export const DELETED_PRODUCTS_ID = "00000000-0000-0000-0000-000000000000";
export const DELETED_PRODUCTS_NAME = "Deleted products";

const ZERO_DAY: Omit<SalesDay, "day"> = {
  orders: 0,
  revenueCents: 0,
  units: 0,
  subtotalCents: 0,
  discountCents: 0,
  shippingCents: 0,
  taxCents: 0,
  discountedOrders: 0,
};

type SalesDayRow = {
  day: string;
  orders: number;
  revenue_cents: string | number;
  units: number;
  subtotal_cents: string | number;
  discount_cents: string | number;
  shipping_cents: string | number;
  tax_cents: string | number;
  discounted_orders: number;
};

function toSalesFigures(r: Omit<SalesDayRow, "day">): Omit<SalesDay, "day"> {
  return {
    orders: Number(r.orders),
    revenueCents: Number(r.revenue_cents),
    units: Number(r.units),
    subtotalCents: Number(r.subtotal_cents),
    discountCents: Number(r.discount_cents),
    shippingCents: Number(r.shipping_cents),
    taxCents: Number(r.tax_cents),
    discountedOrders: Number(r.discounted_orders),
  };
}

/** Every day of the range, first to last, days without sales as zeros. */
export async function salesByDay(db: Db, range: DayRange): Promise<SalesDay[]> {
  const result = await db.execute<SalesDayRow>(sql`
    select day::text as day, orders, revenue_cents, units, subtotal_cents, discount_cents, shipping_cents,
      tax_cents, discounted_orders
    from sales_daily
    where day between ${range.start}::date and ${range.end}::date`);
  const byDay = new Map(result.rows.map((r) => [r.day, toSalesFigures(r)]));
  return daysOf(range).map((day) => ({ day, ...(byDay.get(day) ?? ZERO_DAY) }));
}

/** The range's sums, and the average order value. */
export async function salesTotals(db: Db, range: DayRange): Promise<SalesTotals> {
  const result = await db.execute<Omit<SalesDayRow, "day">>(sql`
    select coalesce(sum(orders), 0)::int as orders,
      coalesce(sum(revenue_cents), 0)::bigint as revenue_cents,
      coalesce(sum(units), 0)::bigint as units,
      coalesce(sum(subtotal_cents), 0)::bigint as subtotal_cents,
      coalesce(sum(discount_cents), 0)::bigint as discount_cents,
      coalesce(sum(shipping_cents), 0)::bigint as shipping_cents,
      coalesce(sum(tax_cents), 0)::bigint as tax_cents,
      coalesce(sum(discounted_orders), 0)::int as discounted_orders
    from sales_daily
    where day between ${range.start}::date and ${range.end}::date`);
  const totals = toSalesFigures(result.rows[0]!);
  return { ...totals, averageOrderCents: averageOrder(totals.revenueCents, totals.orders) };
}

/** Revenue ÷ orders rounded to the cent (half up); null without orders. */
export function averageOrder(revenueCents: number, orders: number): number | null {
  return orders > 0 ? Math.round(revenueCents / orders) : null;
}

type ProductRow = { product_id: string; name: string; category: string; units: string | number; revenue_cents: string | number };
type RankedRow = ProductRow & { bound: string | number | null };

const toProductSales = (r: ProductRow): ProductSales => ({
  productId: r.product_id,
  name: r.name,
  category: r.category,
  units: Number(r.units),
  revenueCents: Number(r.revenue_cents),
});

/**
 * Products sold in the range: revenue and units, by revenue (or units) descending, then name.
 *
 * With a limit (the top 10 of the Analytics page, a report's first rows) it reads few rows even
 * on a big catalogue: every month the range touches gives its best K products (an index on the
 * monthly roll-up), their exact totals over the range are summed, and the answer is kept when
 * the last of them beats what any other product could have sold: at most the sum, over those
 * months, of each month's K-th best (a product outside a month's best K sold at most that much
 * in it). Sales are skewed in any real shop, so this holds; when it does not (flat sales) K
 * grows tenfold, then everything is summed (docs/decisions/0019).
 */
export async function salesByProduct(db: Db, range: DayRange, opts: SalesRanking = {}): Promise<ProductSales[]> {
  if (opts.limit !== undefined && opts.limit > 0) {
    for (const k of [Math.max(100, 5 * opts.limit), Math.max(1000, 50 * opts.limit)]) {
      const top = await topProductsByMonthBound(db, range, opts.limit, opts.by ?? "revenue", k);
      if (top) return top;
    }
  }
  return allProductSales(db, range, opts);
}

const metricColumn = (by: SalesRanking["by"]) => sql.raw(by === "units" ? "units" : "revenue_cents");
const orderOf = (by: SalesRanking["by"]) =>
  by === "units" ? sql`units desc, revenue_cents desc` : sql`revenue_cents desc, units desc`;

/**
 * Each listed product's units and revenue over the range (`products` is a query or CTE naming a
 * product_id column), through index-only reads of the product-first indexes.
 */
function productTotals(products: SQL, range: DayRange) {
  const cover = rangeCover(range);
  return sql`
    select c.product_id,
      coalesce(m.units, 0) + coalesce(a.units, 0) - coalesce(x.units, 0) as units,
      coalesce(m.revenue_cents, 0) + coalesce(a.revenue_cents, 0) - coalesce(x.revenue_cents, 0) as revenue_cents
    from (${products}) c
    left join lateral (
      select sum(s.units)::bigint as units, sum(s.revenue_cents)::bigint as revenue_cents
      from sales_monthly_products s
      where s.product_id = c.product_id and s.month = any (${dateArray(cover.months)})
    ) m on true
    left join lateral (
      select sum(d.units)::bigint as units, sum(d.revenue_cents)::bigint as revenue_cents
      from sales_daily_products d
      where d.product_id = c.product_id and (${inSpans(sql.raw("d.day"), cover.addDays)})
    ) a on true
    left join lateral (
      select sum(d.units)::bigint as units, sum(d.revenue_cents)::bigint as revenue_cents
      from sales_daily_products d
      where d.product_id = c.product_id and (${inSpans(sql.raw("d.day"), cover.subtractDays)})
    ) x on true`;
}

/** The name and category a product last sold under in the range (its latest daily row there). */
function latestName(range: DayRange) {
  return sql`
    left join lateral (
      select d.name, d.category from sales_daily_products d
      where d.product_id = t.product_id and d.day between ${range.start}::date and ${range.end}::date
      order by d.day desc limit 1
    ) n on true`;
}

/** The top `limit` products when the month bound proves them (see salesByProduct), else null. */
async function topProductsByMonthBound(
  db: Db,
  range: DayRange,
  limit: number,
  by: NonNullable<SalesRanking["by"]>,
  k: number,
): Promise<ProductSales[] | null> {
  const metric = metricColumn(by);
  // Exact totals cost a few index reads per product, and K products a month over a year are
  // thousands of candidates, so only those that could still make the top `limit` are summed:
  // what a candidate sold at least (its figures in the whole months of the range where it is
  // among the best) and at most (those of every month it is among the best, the K-th best's
  // elsewhere) are known from the best lists alone; one whose most is below the `limit`-th
  // largest least cannot be in the answer, not even tied.
  const result = await db.execute<RankedRow>(sql`
    with touched as (
      select m::date as month
      from generate_series(${monthOf(range.start)}::date, ${monthOf(range.end)}::date, interval '1 month') m
    ), best as materialized (
      select touched.month, t.product_id, t.v, t.n
      from touched
      cross join lateral (
        -- "nulls last" as the index is declared (the columns are never null), so the index is read in order.
        select s.product_id, s.${metric} as v, row_number() over (order by s.${metric} desc nulls last) as n
        from sales_monthly_products s
        where s.month = touched.month
        order by s.${metric} desc nulls last
        limit ${k}
      ) t
    ), kth as (
      -- A product outside a month's best K sold at most the K-th best's figure that month (0 when
      -- the month had fewer than K products: then every product that sold in it is among them).
      select month, v from best where n = ${k}
    ), bound as (
      select coalesce(sum(v), 0) as v from kth
    ), reach as materialized (
      select b.product_id,
        sum(b.v - coalesce(kth.v, 0)) + (select v from bound) as most,
        coalesce(sum(b.v) filter (
          where b.month >= ${range.start}::date
            and (b.month + interval '1 month' - interval '1 day')::date <= ${range.end}::date
        ), 0) as least
      from best b left join kth on kth.month = b.month
      group by b.product_id
    ), floor as (
      select coalesce((select least from reach order by least desc offset ${limit - 1} limit 1), 0) as v
    ), totals as (
      ${productTotals(sql`select product_id from reach where most >= (select v from floor)`, range)}
    ), top as (
      -- Ties at the last place come along, so the final order by name picks among all of them.
      select * from totals t where t.units <> 0 or t.revenue_cents <> 0
      order by ${orderOf(by)}
      fetch first ${limit} rows with ties
    )
    select t.product_id, n.name, n.category, t.units, t.revenue_cents,
      -- What a product outside every month's best K could have sold at most.
      (select v from bound) as bound
    from top t
    ${latestName(range)}
    order by ${orderOf(by)}, n.name, t.product_id
    limit ${limit}`);
  const rows = result.rows;
  const bound = Number(rows[0]?.bound ?? 0);
  // No month had K products: every product that sold is a candidate, so the answer is complete.
  if (bound === 0) return rows.map(toProductSales);
  const last = rows[limit - 1];
  if (!last) return null;
  return Number(by === "units" ? last.units : last.revenue_cents) > bound ? rows.map(toProductSales) : null;
}

/** Every product's totals over the range, summed (the reports' full lists; the fallback of the top). */
async function allProductSales(db: Db, range: DayRange, opts: SalesRanking): Promise<ProductSales[]> {
  const cover = rangeCover(range);
  // The name and category come from the row of the latest period each product sold in, joined
  // back by hash (one probe per product into an index costs more at 100,000 products).
  const result = await db.execute<ProductRow>(sql`
    with parts as materialized (
      select product_id, units, revenue_cents, month as period, name, category
        from sales_monthly_products where month = any (${dateArray(cover.months)})
      union all
      select product_id, units, revenue_cents, day, name, category
        from sales_daily_products where ${inSpans(sql.raw("day"), cover.addDays)}
      union all
      select product_id, -units, -revenue_cents, null, null, null
        from sales_daily_products where ${inSpans(sql.raw("day"), cover.subtractDays)}
    ), totals as (
      select product_id, sum(units)::bigint as units, sum(revenue_cents)::bigint as revenue_cents, max(period) as latest
      from parts
      group by product_id
      having sum(units) <> 0 or sum(revenue_cents) <> 0
    ), top as (
      select * from totals t order by ${orderOf(opts.by)}
      ${opts.limit === undefined ? sql`` : sql`fetch first ${opts.limit} rows with ties`}
    )
    select t.product_id, p.name, p.category, t.units, t.revenue_cents
    from top t
    join parts p on p.product_id = t.product_id and p.period = t.latest
    order by ${orderOf(opts.by)}, p.name, t.product_id
    ${opts.limit === undefined ? sql`` : sql`limit ${opts.limit}`}`);
  return result.rows.map(toProductSales);
}

type CategoryRow = { category: string; units: string | number; revenue_cents: string | number };

/** Categories sold in the range (the product's category when the order was counted). */
export async function salesByCategory(db: Db, range: DayRange, opts: SalesRanking = {}): Promise<CategorySales[]> {
  const result = await db.execute<CategoryRow>(sql`
    select category, sum(units)::bigint as units, sum(revenue_cents)::bigint as revenue_cents
    from sales_daily_categories
    where day between ${range.start}::date and ${range.end}::date
    group by category
    having sum(units) <> 0 or sum(revenue_cents) <> 0
    order by ${orderOf(opts.by)}, category
    ${opts.limit === undefined ? sql`` : sql`limit ${opts.limit}`}`);
  return result.rows.map((r) => ({ category: r.category, units: Number(r.units), revenueCents: Number(r.revenue_cents) }));
}

/**
 * Gross, refunds and net of one UTC day (docs/rules/analytics.md, What counts as a sale; docs/money-path.md,
 * "Who reads the ledger"): gross is what the orders paid that day took (their revenue above), and
 * stays there whatever happens to them later; refunds are the order ledger's succeeded refunds of
 * paid orders, each on the UTC day it succeeded, however long after the sale, and a paid order's
 * cancellation as a refund of what was left of it, on the day it was cancelled; net is gross less
 * refunds, so a day with refunds and no sales is negative. A refund still pending or refused counts
 * nowhere; a refund of what was paid beyond an order's total gives back money that was never a
 * sale, so it is not a refund of sales either. Both are read from roll-ups (`sales_daily`,
 * `sales_refunds_daily`, migration 0033).
 */
export type NetSalesDay = { day: string; orders: number; grossCents: number; refunds: number; refundedCents: number; netCents: number };
export type NetSalesTotals = Omit<NetSalesDay, "day">;

type RefundDayRow = { day: string; refunds: number; refunded_cents: string | number };

/** The range's refunds by the UTC day they succeeded (or the paid order was cancelled). */
async function refundsByDay(db: Db, range: DayRange): Promise<Map<string, { refunds: number; refundedCents: number }>> {
  const result = await db.execute<RefundDayRow>(sql`
    select day::text as day, refunds, refunded_cents
    from sales_refunds_daily
    where day between ${range.start}::date and ${range.end}::date`);
  return new Map(result.rows.map((r) => [r.day, { refunds: Number(r.refunds), refundedCents: Number(r.refunded_cents) }]));
}

/** Every day of the range with its gross, refunds and net (days with neither as zeros). */
export async function netSalesByDay(db: Db, range: DayRange): Promise<NetSalesDay[]> {
  const [days, refunds] = await Promise.all([salesByDay(db, range), refundsByDay(db, range)]);
  return days.map((d) => {
    const r = refunds.get(d.day) ?? { refunds: 0, refundedCents: 0 };
    return { day: d.day, orders: d.orders, grossCents: d.revenueCents, refunds: r.refunds, refundedCents: r.refundedCents, netCents: d.revenueCents - r.refundedCents };
  });
}

/** The range's gross, refunds and net. */
export async function netSalesTotals(db: Db, range: DayRange): Promise<NetSalesTotals> {
  const [totals, refunds] = await Promise.all([salesTotals(db, range), refundsByDay(db, range)]);
  let count = 0;
  let refundedCents = 0;
  for (const r of refunds.values()) {
    count += r.refunds;
    refundedCents += r.refundedCents;
  }
  return { orders: totals.orders, grossCents: totals.revenueCents, refunds: count, refundedCents, netCents: totals.revenueCents - refundedCents };
}
