import { sql } from "drizzle-orm";
import type { DayRange } from "~/lib/date-range";
import { salesByDay } from "../analytics/sales.server";
import { type Db, discountCodes, discountUses, orders } from "../../platform/index.server";

/**
 * Figures for the reports screen (docs/rules/admin.md, Discounts: "Reports"). Days are UTC
 * calendar days ('2026-05-01'), as every admin screen shows time in UTC. For discount uses `from`
 * is inclusive and `to` exclusive; only days with something to report are listed, oldest first.
 */

export type DiscountUsesDay = {
  /** 'YYYY-MM-DD' (UTC): the day the order using the code was placed. */
  day: string;
  codeId: string;
  code: string;
  /** Uses held by unpaid orders or kept by paid ones; uses given back (the order closed unpaid) are left out. */
  uses: number;
  /** What those uses took off their orders (0 for free shipping codes, which take nothing off the lines). */
  amountCents: number;
};

export type TaxDay = {
  /** 'YYYY-MM-DD' (UTC): the day the payment was confirmed (`paid_at`). */
  day: string;
  /** The tax of the orders paid that day that count: paid, neither cancelled nor refunded (see taxCollectedPerDay). */
  taxCents: number;
  orders: number;
};

type Range = { from: Date; to: Date };

const utcDay = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** Per UTC day and code: the uses held or kept (not released) and the amount they gave. */
export async function discountUsesPerDay(db: Db, { from, to }: Range): Promise<DiscountUsesDay[]> {
  const day = utcDay(discountUses.createdAt);
  const rows = await db
    .select({
      day,
      codeId: discountUses.codeId,
      code: discountCodes.code,
      uses: sql<number>`count(*)::int`,
      // A sum of int is a bigint, which the driver returns as text.
      amount: sql<string>`coalesce(sum(${discountUses.amountCents}), 0)::text`,
    })
    .from(discountUses)
    .innerJoin(discountCodes, sql`${discountCodes.id} = ${discountUses.codeId}`)
    .where(
      sql`${discountUses.state} in ('held', 'kept') and ${discountUses.createdAt} >= ${from.toISOString()} and ${discountUses.createdAt} < ${to.toISOString()}`,
    )
    .groupBy(day, discountUses.codeId, discountCodes.code)
    .orderBy(day, discountCodes.code);
  return rows.map((r) => ({ day: r.day, codeId: r.codeId, code: r.code, uses: r.uses, amountCents: Number(r.amount) }));
}

/**
 * Tax collected per UTC day of payment: the tax of the orders that were paid that day and are
 * neither cancelled nor refunded. The sales roll-up keeps every paid order on its paid day (gross;
 * each refund counts on its own day), but a refunded order's tax went back with the money and a
 * paid order the shop cancelled is not a sale, so their tax is taken off the roll-up's here.
 * Days of the range (first and last included) with such orders, oldest first.
 */
export async function taxCollectedPerDay(db: Db, range: DayRange): Promise<TaxDay[]> {
  const [days, gone] = await Promise.all([salesByDay(db, range), taxGoneBack(db, range)]);
  return days
    .map((d) => {
      const back = gone.get(d.day);
      return { day: d.day, taxCents: d.taxCents - (back?.taxCents ?? 0), orders: d.orders - (back?.orders ?? 0) };
    })
    .filter((d) => d.orders > 0);
}

/** Per UTC paid day: the orders paid then and cancelled or refunded since, and their tax. */
async function taxGoneBack(db: Db, range: DayRange): Promise<Map<string, { orders: number; taxCents: number }>> {
  const day = utcDay(orders.paidAt);
  const rows = await db
    .select({ day, orders: sql<number>`count(*)::int`, tax: sql<string>`coalesce(sum(${orders.taxCents}), 0)::text` })
    .from(orders)
    .where(
      sql`${orders.paymentStatus} in ('paid', 'partially_refunded', 'refunded') and (${orders.status} = 'cancelled' or ${orders.paymentStatus} = 'refunded')
        and ${orders.paidAt} >= (${range.start}::date)::timestamp at time zone 'UTC' and ${orders.paidAt} < (${range.end}::date + 1)::timestamp at time zone 'UTC'`,
    )
    .groupBy(day);
  return new Map(rows.map((r) => [r.day, { orders: r.orders, taxCents: Number(r.tax) }]));
}
