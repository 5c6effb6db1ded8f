// Sales figures for a range of UTC days, read from the roll-ups (docs/rules/analytics.md, What
// counts as a sale). The roll-ups are kept exact by triggers on orders and order lines
// (migration 0018, docs/decisions/0019): nothing here reads the orders themselves, so a year of
// figures costs a few hundred rows per question.
import { sql } from "drizzle-orm";
import { addDays, daysOf, parseDay, type DayRange } from "~/lib/date-range";
import type { Db } from "../db/client.server";

/** Sales of one UTC day: orders that count, added on the day they were paid. */
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

/**
 * The range cut into whole calendar months (read from the monthly roll-up) and the days before
 * and after them (read from the daily one): a 12-month range reads ~11 months of monthly rows
 * and at most two partial months of daily rows.
 */
export function splitIntoMonths(range: DayRange): { months: [string, string] | null; days: [string, string][] } {
  const start = new Date(parseDay(range.start)!);
  const end = new Date(parseDay(range.end)!);
  const firstWhole =
    start.getUTCDate() === 1 ? range.start : isoDay(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const endIsMonthEnd = addDays(range.end, 1).endsWith("-01");
  const lastWholeEnd = endIsMonthEnd ? range.end : isoDay(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 0));
  if (firstWhole > lastWholeEnd) return { months: null, days: [[range.start, range.end]] };
  const lastWholeMonth = `${lastWholeEnd.slice(0, 7)}-01`;
  const days: [string, string][] = [];
  if (range.start < firstWhole) days.push([range.start, addDays(firstWhole, -1)]);
  if (lastWholeEnd < range.end) days.push([addDays(lastWholeEnd, 1), range.end]);
  return { months: [firstWhole, lastWholeMonth], days };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A condition on `column` true for the listed day spans (false when there are none). */
function inSpans(column: ReturnType<typeof sql.raw>, spans: [string, string][]) {
  if (spans.length === 0) return sql`false`;
  return sql.join(
    spans.map(([a, b]) => sql`${column} between ${a}::date and ${b}::date`),
    sql` or `,
  );
}

type ProductRow = { product_id: string; name: string; category: string; units: string | number; revenue_cents: string | number };

/** Products sold in the range: revenue and units, by revenue (or units) descending, then name. */
export async function salesByProduct(db: Db, range: DayRange, opts: SalesRanking = {}): Promise<ProductSales[]> {
  const { months, days } = splitIntoMonths(range);
  const inMonths = months ? sql`month between ${months[0]}::date and ${months[1]}::date` : sql`false`;
  const order = opts.by === "units" ? sql`units desc, revenue_cents desc` : sql`revenue_cents desc, units desc`;
  const result = await db.execute<ProductRow>(sql`
    with parts as (
      select product_id, name, category, units, revenue_cents, month as period
        from sales_monthly_products where ${inMonths}
      union all
      select product_id, name, category, units, revenue_cents, day
        from sales_daily_products where ${inSpans(sql.raw("day"), days)}
    )
    select product_id,
      -- The name and category of the latest period the product sold in.
      (max(array[period::text, name]))[2] as name,
      (max(array[period::text, category]))[2] as category,
      sum(units)::bigint as units,
      sum(revenue_cents)::bigint as revenue_cents
    from parts
    group by product_id
    having sum(units) <> 0 or sum(revenue_cents) <> 0
    order by ${order}, name, product_id
    ${opts.limit === undefined ? sql`` : sql`limit ${opts.limit}`}`);
  return result.rows.map((r) => ({
    productId: r.product_id,
    name: r.name,
    category: r.category,
    units: Number(r.units),
    revenueCents: Number(r.revenue_cents),
  }));
}

type CategoryRow = { category: string; units: string | number; revenue_cents: string | number };

/** Categories sold in the range (the product's category when the order was counted). */
export async function salesByCategory(db: Db, range: DayRange, opts: SalesRanking = {}): Promise<CategorySales[]> {
  const order = opts.by === "units" ? sql`units desc, revenue_cents desc` : sql`revenue_cents desc, units desc`;
  const result = await db.execute<CategoryRow>(sql`
    select category, sum(units)::bigint as units, sum(revenue_cents)::bigint as revenue_cents
    from sales_daily_categories
    where day between ${range.start}::date and ${range.end}::date
    group by category
    having sum(units) <> 0 or sum(revenue_cents) <> 0
    order by ${order}, category
    ${opts.limit === undefined ? sql`` : sql`limit ${opts.limit}`}`);
  return result.rows.map((r) => ({ category: r.category, units: Number(r.units), revenueCents: Number(r.revenue_cents) }));
}
