import { and, eq, gte, isNull, sql } from "drizzle-orm";
import { type Db, products } from "../../platform/index.server";
import type { LowStockAlert } from "./low-stock.server";

/**
 * The stock level of a product row, which the catalogue owns: a sale takes from it and a
 * cancelled paid order gives back, by asking here. The sale's rules (what can be bought, the order
 * of lines, all or nothing) stay with the commerce area that sells (docs/decisions/0004).
 */

export type TakenUnits = { taken: true; lowStock: LowStockAlert | null } | { taken: false; unlimited: boolean };

/**
 * Takes `quantity` units with a conditional UPDATE, never below zero, in the caller's transaction.
 * Not taken when the product keeps no count (unlimited) or has too few.
 */
export async function takeProductUnits(tx: Db, productId: string, quantity: number): Promise<TakenUnits> {
  const took = await tx
    .update(products)
    .set({ stockQuantity: sql`${products.stockQuantity} - ${quantity}`, updatedAt: new Date() })
    .where(and(eq(products.id, productId), eq(products.unlimitedStock, false), gte(products.stockQuantity, quantity)))
    .returning({
      id: products.id,
      name: products.name,
      sku: products.sku,
      stock: products.stockQuantity,
      threshold: sql<number>`coalesce(${products.lowStockThreshold}, shop_low_stock_threshold())`,
      alertedAt: products.lowStockAlertedAt,
    });
  if (took.length) return { taken: true, lowStock: await markLowStock(tx, took[0]!) };
  const [p] = await tx.select({ unlimited: products.unlimitedStock }).from(products).where(eq(products.id, productId));
  return { taken: false, unlimited: p?.unlimited ?? false };
}

/** Gives back units a paid sale took (its order was cancelled). Unlimited products keep no count. */
export async function giveBackProductUnits(tx: Db, productId: string, quantity: number): Promise<void> {
  await tx
    .update(products)
    .set({ stockQuantity: sql`${products.stockQuantity} + ${quantity}`, updatedAt: new Date() })
    .where(and(eq(products.id, productId), eq(products.unlimitedStock, false)));
}

/**
 * A sale took this product to or below its threshold (docs/rules/analytics.md, Low stock): marks
 * the crossing, once. The row is already locked by this transaction's stock update, and the
 * update is conditional, so of two sales crossing together only the first marks it (and mails).
 * The mark is cleared by a trigger on products when the stock rises above the threshold again.
 */
async function markLowStock(
  tx: Db,
  p: { id: string; name: string; sku: string; stock: number; threshold: number; alertedAt: Date | null },
): Promise<LowStockAlert | null> {
  if (p.alertedAt !== null || p.stock > Number(p.threshold)) return null;
  const marked = await tx
    .update(products)
    .set({ lowStockAlertedAt: sql`now()` })
    .where(and(eq(products.id, p.id), isNull(products.lowStockAlertedAt)))
    .returning({ id: products.id });
  return marked.length ? { productId: p.id, name: p.name, sku: p.sku, stock: p.stock, threshold: Number(p.threshold) } : null;
}
