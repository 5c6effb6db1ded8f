import { and, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { type Db, getEnv, products, publicUrl, queueMail } from "../../platform/index.server";

/**
 * Low stock (docs/rules/analytics.md, Low stock), in one place: which products need restocking
 * (the dashboard's count, the products list's `stock=low` filter and the stock report agree because
 * they all use `needsRestock`), and the mail about a crossing. The crossing itself is marked by the
 * sale that takes the stock (settlement/stock.server.ts) and cleared by the trigger on products
 * (migration 0017) when the stock rises above the threshold.
 */

export type LowStockAlert = { productId: string; name: string; sku: string; stock: number; threshold: number };

/**
 * An active product with counted stock at or below its own threshold, or the shop's default when it
 * has none. Written as two branches, each matching a partial index (products_low_stock_default_idx,
 * products_low_stock_own_idx), so a shop of 100,000 products never scans them all.
 */
export function needsRestock(): SQL {
  // Literal conditions, not parameters: the planner must see they imply the indexes' predicates.
  return and(
    sql`${products.active}`,
    sql`not ${products.unlimitedStock}`,
    or(
      and(isNull(products.lowStockThreshold), lte(products.stockQuantity, sql`shop_low_stock_threshold()`)),
      and(isNotNull(products.lowStockThreshold), lte(products.stockQuantity, products.lowStockThreshold)),
    ),
  )!;
}

/** How many products need restocking, counted up to `cap` (the dashboard says "1,000+" beyond). */
export async function countLowStock(db: Db, cap = 1000): Promise<{ count: number; capped: boolean }> {
  const result = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${products} where ${needsRestock()} limit ${cap + 1}) low`,
  );
  const n = result.rows[0]?.n ?? 0;
  return { count: Math.min(n, cap), capped: n > cap };
}

export function lowStockMail(alert: LowStockAlert) {
  const link = `${publicUrl()}/admin/products?stock=low`;
  const left = alert.stock === 1 ? "1 unit" : `${alert.stock} units`;
  const text = [
    `"${alert.name}"${alert.sku ? ` (SKU ${alert.sku})` : ""} is running low: ${left} left after the latest sale.`,
    `Its low-stock threshold is ${alert.threshold}.`,
    "",
    `Restock it, or see every product that needs restocking: ${link}`,
    "",
    "You will not be mailed about this product again until its stock has risen above the threshold and fallen back.",
  ].join("\n");
  return { subject: `Low stock: ${alert.name} (${left} left)`, text };
}

/**
 * Records the mail to the shop's address (SHOP_EMAIL) about each product that crossed, in the
 * sale's transaction, the one that marked the crossing: the mark and its mail commit together, so
 * a crash after the commit cannot leave a product marked alerted with no mail. Each mail's job
 * sends it after the commit.
 */
export async function queueLowStockAlerts(tx: Db, alerts: LowStockAlert[]): Promise<void> {
  for (const alert of alerts) await queueMail(tx, { to: getEnv().SHOP_EMAIL, ...lowStockMail(alert), kind: "low-stock" });
}
