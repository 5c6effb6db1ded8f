import { sql } from "drizzle-orm";
import type { SoldSinceExportLine } from "~/lib/import-view";
import type { Db } from "../../platform/index.server";
import type { ProductDraft } from "./product-draft.server";

/**
 * A re-imported export's stock against the sales made since it was exported (docs/rules/catalogue-data.md,
 * "Stock in a re-imported export"): the file says 10, three sold since, so the shop has 7 and the
 * file's 10 would sell three units that are gone. The sales are the commerce area's; the routes
 * hand its count down as a `SalesSince` callback, so the catalogue never imports it.
 */

/** Units sales took from each product after a time, net of cancelled sales' returns (by product id). */
export type SalesSince = (db: Db, asked: { productId: string; since: Date }[]) => Promise<Map<string, number>>;

/** What the owner chose on the check screen: the file's stock less the sales since, or the file's as it is. */
export const STOCK_CHOICES = ["subtract", "file"] as const;
export type StockChoice = (typeof STOCK_CHOICES)[number];

type Counted = { draft: ProductDraft; productId: string; sold: number };

/**
 * The drafts of this batch whose product sold (or got back) units since the file's stock was read.
 * `lock`: the products are locked first (FOR UPDATE, in id order as a sale takes them, so the
 * two never deadlock), so no sale of them commits between the count and the write.
 */
async function countSales(db: Db, drafts: ProductDraft[], salesSince: SalesSince, lock: boolean): Promise<Counted[]> {
  // The last row of a SKU is the one that lands (an earlier one is updated by it).
  const bySku = new Map<string, ProductDraft>();
  for (const d of drafts) if (d.sku && d.stockCountedAt && !d.unlimitedStock) bySku.set(d.sku, d);
  if (bySku.size === 0) return [];
  const skus = [...bySku.keys()];
  const found = await db.execute<{ id: string; sku: string }>(
    sql`select id, sku from products where sku = any(${sql.param(skus)}::text[]) and not unlimited_stock order by id ${lock ? sql`for update` : sql``}`,
  );
  if (found.rows.length === 0) return [];
  const ids = new Map(found.rows.map((r) => [r.sku, r.id]));
  const sold = await salesSince(
    db,
    found.rows.map((r) => ({ productId: r.id, since: bySku.get(r.sku)!.stockCountedAt! })),
  );
  const out: Counted[] = [];
  for (const [sku, draft] of bySku) {
    const productId = ids.get(sku);
    const n = productId ? (sold.get(productId) ?? 0) : 0;
    if (productId && n !== 0) out.push({ draft, productId, sold: n });
  }
  return out;
}

/** The batch with each file stock less the sales since it was read (never below 0); the drafts are not changed. */
export async function lessSalesSinceExport(tx: Db, drafts: ProductDraft[], salesSince: SalesSince): Promise<ProductDraft[]> {
  const counted = await countSales(tx, drafts, salesSince, true);
  if (counted.length === 0) return drafts;
  const soldOf = new Map(counted.map((c) => [c.draft, c.sold]));
  return drafts.map((d) => {
    const sold = soldOf.get(d);
    return sold === undefined ? d : { ...d, stockQuantity: Math.max(0, d.stockQuantity - sold) };
  });
}

/** For the check screen: each product whose stock moved by sales since the file was exported. */
export async function salesSinceExportLines(db: Db, drafts: ProductDraft[], salesSince: SalesSince): Promise<SoldSinceExportLine[]> {
  return (await countSales(db, drafts, salesSince, false)).map((c) => ({
    sku: c.draft.sku,
    name: c.draft.name,
    fileStock: c.draft.stockQuantity,
    sold: c.sold,
    stockAfter: Math.max(0, c.draft.stockQuantity - c.sold),
  }));
}
