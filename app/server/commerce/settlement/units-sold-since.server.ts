import { sql } from "drizzle-orm";
import type { Db } from "../../platform/index.server";

/**
 * The units sales took from each product's stock after a given time, net of what cancelled sales
 * gave back after it: a paid order takes its lines' stock when it is paid (`paid_at`), a
 * cancelled one returns it once (`stock_released_at`). Lines that took no stock (unlimited) do not
 * count. The catalogue asks this through a callback when a re-imported file's stock was counted
 * at a known time (docs/rules/catalogue-data.md, "Stock in a re-imported export").
 */
export async function unitsSoldSince(db: Db, asked: { productId: string; since: Date }[]): Promise<Map<string, number>> {
  if (asked.length === 0) return new Map();
  const result = await db.execute<{ product_id: string; sold: number }>(sql`
    select a.product_id,
           (coalesce(sum(i.quantity) filter (where o.paid_at > a.since), 0)
            - coalesce(sum(i.quantity) filter (where o.stock_released_at > a.since), 0))::int as sold
    from unnest(${sql.param(asked.map((a) => a.productId))}::uuid[], ${sql.param(asked.map((a) => a.since.toISOString()))}::timestamptz[])
           as a(product_id, since)
    join order_items i on i.product_id = a.product_id and i.stock_tracked
    join orders o on o.id = i.order_id
    where o.paid_at is not null and (o.paid_at > a.since or o.stock_released_at > a.since)
    group by a.product_id`);
  return new Map(result.rows.map((r) => [r.product_id, Number(r.sold)]));
}
