import { sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { discountCodes, discountUses, orders } from "../db/schema";

/**
 * Figures for the reports screen (docs/rules/admin.md, Discounts: "Reports"). Days are UTC
 * calendar days ('2026-05-01'), as every admin screen shows time in UTC. `from` is inclusive and
 * `to` exclusive; only days with something to report are listed, oldest first.
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
  /** The tax of the orders paid that day and still paid (see taxCollectedPerDay). */
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
 * Per UTC day of payment: the tax of orders whose payment_status is 'paid'. Refunded orders are
 * left out: the tax went back to the customer with the refund, so it was not collected (a
 * refund is always the whole order's). Unpaid, failed and expired orders never paid any. A paid
 * order the shop cancelled without refunding stays 'paid', and its tax counts.
 */
export async function taxCollectedPerDay(db: Db, { from, to }: Range): Promise<TaxDay[]> {
  const day = utcDay(orders.paidAt);
  const rows = await db
    .select({
      day,
      tax: sql<string>`coalesce(sum(${orders.taxCents}), 0)::text`,
      orders: sql<number>`count(*)::int`,
    })
    .from(orders)
    .where(
      sql`${orders.paymentStatus} = 'paid' and ${orders.paidAt} >= ${from.toISOString()} and ${orders.paidAt} < ${to.toISOString()}`,
    )
    .groupBy(day)
    .orderBy(day);
  return rows.map((r) => ({ day: r.day, taxCents: Number(r.tax), orders: r.orders }));
}
