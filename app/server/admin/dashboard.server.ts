import { and, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { DashboardActivity, DashboardStats } from "~/lib/dashboard-view";
import { formatMoney } from "~/lib/money";
import type { Db } from "../db/client.server";
import { orders, products } from "../db/schema";

export async function getDashboardStats(db: Db): Promise<DashboardStats> {
  const [productCounts, orderTotals] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*)::int`,
        active: sql<number>`(count(*) filter (where ${products.active}))::int`,
      })
      .from(products),
    db
      .select({
        count: sql<number>`count(*)::int`,
        // A sum of int is a bigint, which the driver returns as text.
        revenue: sql<string>`coalesce(sum(${orders.totalAmountCents}), 0)::text`,
      })
      .from(orders)
      .where(and(eq(orders.paymentStatus, "paid"), ne(orders.status, "cancelled"))),
  ]);
  return {
    totalProducts: productCounts[0]?.total ?? 0,
    activeProducts: productCounts[0]?.active ?? 0,
    totalOrders: orderTotals[0]?.count ?? 0,
    revenueCents: Number(orderTotals[0]?.revenue ?? 0),
  };
}

/** The newest products added and orders paid, newest first. */
export async function getRecentActivity(db: Db, limit = 5): Promise<DashboardActivity[]> {
  const [newProducts, paidOrders] = await Promise.all([
    db
      .select({ name: products.name, category: products.category, at: products.createdAt })
      .from(products)
      // "nulls last" as in products_created_idx: the index is walked, not 100,000 rows sorted.
      .orderBy(sql`${products.createdAt} desc nulls last`)
      .limit(limit),
    db
      .select({ number: orders.orderNumber, totalCents: orders.totalAmountCents, at: orders.paidAt })
      .from(orders)
      .where(and(eq(orders.paymentStatus, "paid"), isNotNull(orders.paidAt)))
      // Newest orders through orders_created_idx (paid_at has no index); shown by when they were paid.
      .orderBy(sql`${orders.createdAt} desc nulls last`)
      .limit(limit),
  ]);
  const items: (DashboardActivity & { time: number })[] = [
    ...newProducts.map((p) => ({
      kind: "product" as const,
      title: `Product added: ${p.name}`,
      detail: p.category,
      at: p.at.toISOString(),
      time: p.at.getTime(),
    })),
    ...paidOrders.map((o) => ({
      kind: "order" as const,
      title: `Order ${o.number} paid`,
      detail: formatMoney(o.totalCents),
      at: o.at!.toISOString(),
      time: o.at!.getTime(),
    })),
  ];
  return items
    .sort((a, b) => b.time - a.time)
    .slice(0, limit)
    .map(({ time: _time, ...item }) => item);
}
