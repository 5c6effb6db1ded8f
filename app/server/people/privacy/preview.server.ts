import { sql } from "drizzle-orm";
import type { Db } from "../../platform/index.server";

/** What an account's erasure would take, counted for the admin's confirmation (nothing is read but counts and dates). */
export type ErasurePreview = {
  addresses: number;
  sessions: number;
  reviews: number;
  newsletter: boolean;
  savedCartLines: number;
  orders: number;
  /** The day the last kept order's personal fields are erased (its placing plus the retention years); null without orders. */
  ordersKeptUntil: string | null;
  /** An unpaid, open checkout: the erasure would be refused now. */
  orderBeingPaid: boolean;
};

export async function erasurePreview(db: Db, userId: string, retentionYears: number): Promise<ErasurePreview | null> {
  const result = await db.execute<{
    email: string;
    addresses: number;
    sessions: number;
    reviews: number;
    newsletter: boolean;
    cart: number;
    orders: number;
    last_order: Date | string | null;
    being_paid: boolean;
  }>(sql`
    select u.email,
      (select count(*)::int from saved_addresses where user_id = u.id) as addresses,
      (select count(*)::int from sessions where user_id = u.id) as sessions,
      (select count(*)::int from reviews where user_id = u.id) as reviews,
      exists (select 1 from newsletter_subscriptions where lower(email) = lower(u.email)) as newsletter,
      (select count(*)::int from cart_lines where user_id = u.id) as cart,
      (select count(*)::int from orders where user_id = u.id) as orders,
      (select max(created_at) from orders where user_id = u.id) as last_order,
      exists (select 1 from orders where (user_id = u.id or lower(email) = lower(u.email))
              and payment_status = 'unpaid' and status <> 'cancelled') as being_paid
    from users u where u.id = ${userId}`);
  const r = result.rows[0];
  if (!r) return null;
  let until: string | null = null;
  if (r.last_order) {
    const d = new Date(r.last_order);
    d.setUTCFullYear(d.getUTCFullYear() + retentionYears);
    until = d.toISOString().slice(0, 10);
  }
  return {
    addresses: r.addresses,
    sessions: r.sessions,
    reviews: r.reviews,
    newsletter: r.newsletter,
    savedCartLines: r.cart,
    orders: r.orders,
    ordersKeptUntil: until,
    orderBeingPaid: r.being_paid,
  };
}
