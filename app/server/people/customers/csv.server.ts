import { sql } from "drizzle-orm";
import { csvCell } from "~/lib/csv";
import type { CustomerListQuery } from "~/lib/customers-view";
import type { Db } from "../../platform/index.server";
import { customerBatches, type CustomerExportRow } from "./list.server";

/**
 * total_spent is what the customer's paid orders came to (refunded or cancelled later included),
 * refunded what went back of it (a paid order's cancellation gives back all of it), net_spent the
 * difference: the list's Total spent (docs/rules/analytics.md, Customers), as the orders CSV has
 * total, refunded and net per order.
 */
const HEADER = ["name", "email", "type", "orders", "total_spent", "refunded", "net_spent", "last_order_at", "newsletter", "first_order_at", "customer_since"];

/** Dollars with 2 decimals and no $ sign, so a spreadsheet reads the cell as a number. */
const amount = (cents: number) => (cents / 100).toFixed(2);

type Money = { paidCents: number; refundedCents: number };

/**
 * What each listed customer's paid orders came to and what went back of it, by address (any case,
 * as the customers roll-up joins them), through the orders' lower(email) index: one query a batch.
 */
async function moneyOf(db: Db, rows: CustomerExportRow[]): Promise<Map<string, Money>> {
  const emails = [...new Set(rows.map((r) => r.email))];
  const result = await db.execute<{ email: string; paid: string | null; refunded: string | null }>(sql`
    select e.email, m.paid::text as paid, m.refunded::text as refunded
    from unnest(${sql.param(emails)}::text[]) as e(email)
    left join lateral (
      select sum(o.total_amount_cents) as paid,
        sum(case when o.status = 'cancelled' then o.total_amount_cents else least(o.refunded_cents, o.total_amount_cents) end) as refunded
      from orders o
      where lower(o.email) = lower(e.email) and o.payment_status in ('paid', 'partially_refunded', 'refunded')
    ) m on true`);
  return new Map(result.rows.map((r) => [r.email, { paidCents: Number(r.paid ?? 0), refundedCents: Number(r.refunded ?? 0) }]));
}

/**
 * The customers the list's search finds, in the list's order, as CSV text: one chunk per batch.
 * Every cell is quoted and one starting with = + - @ gets a leading ' (csvCell), so a name typed
 * at checkout such as "=HYPERLINK(…)" never runs as a formula in the admin's spreadsheet.
 */
export async function* customersCsvChunks(db: Db, query: Pick<CustomerListQuery, "q" | "sort" | "dir">): AsyncGenerator<string> {
  yield `${HEADER.join(",")}\r\n`;
  for await (const rows of customerBatches(db, query)) {
    const money = await moneyOf(db, rows);
    yield rows
      .map((r) => {
        const m = money.get(r.email) ?? { paidCents: 0, refundedCents: 0 };
        return (
          [
            r.name,
            r.email,
            r.hasAccount ? "account" : "guest",
            String(r.ordersCount),
            amount(m.paidCents),
            amount(m.refundedCents),
            amount(m.paidCents - m.refundedCents),
            r.lastOrderAt ?? "",
            r.subscribed ? "subscribed" : "",
            r.firstOrderAt ?? "",
            r.createdAt,
          ]
            .map(csvCell)
            .join(",") + "\r\n"
        );
      })
      .join("");
  }
}
