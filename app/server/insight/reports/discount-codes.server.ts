import { sql } from "drizzle-orm";
import { addDays, type DayRange } from "~/lib/date-range";
import { type Db, orders } from "../../platform/index.server";

export type DiscountCodeSales = { code: string; orders: number; discountCents: number; revenueCents: number };

type Row = { code: string; orders: number; discount: string | number; revenue: string | number };

/**
 * Each discount code used by orders that count (docs/rules/analytics.md: paid, neither cancelled
 * nor refunded), by the UTC day they were paid: how many orders, the discount they got off their
 * lines (free-shipping codes take nothing off the lines: their gift is the shipping) and those
 * orders' revenue. Most used first. Read through orders_discounted_idx: only orders with a code.
 */
export async function discountCodeSales(db: Db, range: DayRange): Promise<DiscountCodeSales[]> {
  const from = `${range.start}T00:00:00Z`;
  const until = `${addDays(range.end, 1)}T00:00:00Z`;
  const result = await db.execute<Row>(sql`
    select ${orders.discountCode} as code, count(*)::int as orders,
      sum(${orders.discountCents})::bigint as discount, sum(${orders.totalAmountCents})::bigint as revenue
    from ${orders}
    where ${orders.discountCode} is not null and ${orders.paymentStatus} in ('paid', 'partially_refunded') and ${orders.status} <> 'cancelled'
      and ${orders.paidAt} >= ${from} and ${orders.paidAt} < ${until}
    group by ${orders.discountCode}
    order by orders desc, code`);
  return result.rows.map((r) => ({ code: r.code, orders: r.orders, discountCents: Number(r.discount), revenueCents: Number(r.revenue) }));
}
