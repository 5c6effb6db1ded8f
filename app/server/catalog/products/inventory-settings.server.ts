import { and, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { INVENTORY_SETTING_KEY } from "~/lib/low-stock";
import { type Db, products, saveSetting } from "../../platform/index.server";

/**
 * The shop's default low-stock threshold (docs/rules/analytics.md, Low stock), kept in the
 * `inventory` row of site_settings beside the storefront's five keys. The database reads it too:
 * shop_low_stock_threshold() (migration 0017) is what the stock triggers and the low-stock queries
 * use, so there is one reading of the setting, with the same fallback.
 */
export async function getLowStockDefault(db: Db): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`select shop_low_stock_threshold() as n`);
  return Number(result.rows[0]?.n);
}

/**
 * Saves the default, in the caller's transaction. Products that follow the default and were
 * alerted but are now above it end their crossing, as a restock would (the next fall mails again).
 */
export async function saveLowStockDefault(tx: Db, threshold: number): Promise<void> {
  await saveSetting(tx, INVENTORY_SETTING_KEY, { low_stock_threshold: threshold });
  await tx
    .update(products)
    .set({ lowStockAlertedAt: null })
    .where(and(isNotNull(products.lowStockAlertedAt), isNull(products.lowStockThreshold), gt(products.stockQuantity, threshold)));
}

