import { inArray, sql, type SQL } from "drizzle-orm";
import { BulkEditInput, MAX_PRICE_CENTS } from "~/lib/product-input";
import { type Db, products } from "../../platform/index.server";
import { CatalogInputError, CHECK_VIOLATION, pgErrorCode } from "./admin-errors.server";
import { touchedAt } from "./admin-products.server";
import { assertCategoryUsable } from "./categories.server";
import { recordPrices } from "./price-history.server";

/** The price after a bulk adjustment, in SQL so every row uses its own current price. */
function adjustedPrice(adj: NonNullable<BulkEditInput["priceAdjustment"]>): SQL<number> {
  return adj.type === "amount"
    ? sql<number>`(${products.priceCents} + ${adj.value})`
    : sql<number>`round(${products.priceCents}::numeric * (10000 + ${adj.value}) / 10000)::int`;
}

/**
 * A stock change is made over the stock the owner saw (`stockSeen`, from the list they loaded):
 * when a selected product's stock moved since (sold, or saved by someone else), setting it would
 * undo those sales, so nothing is changed and the owner is told how many sold.
 */
async function assertStockAsSeen(tx: Db, ids: string[], seen: Record<string, number | null>) {
  const rows = await tx
    .select({ id: products.id, stock: products.stockQuantity, unlimited: products.unlimitedStock })
    .from(products)
    .where(inArray(products.id, ids))
    .for("update");
  let sold = 0;
  let moved = 0;
  for (const row of rows) {
    if (!(row.id in seen)) continue;
    const was = seen[row.id];
    const now = row.unlimited ? null : row.stock;
    if (was === now) continue;
    moved++;
    if (was !== null && now !== null && now < was) sold += was - now;
  }
  if (moved > 0) {
    const what = sold > 0 ? `${sold} sold since you loaded this list.` : "Stock changed since you loaded this list.";
    throw new CatalogInputError(`${what} Nothing was changed: reload the list to see the stock now, then set it again.`, "stale", "stockQuantity");
  }
}

/**
 * Bulk Edit: only the fields given are applied, to every selected product, in one transaction.
 * A price change that would take any selected product below $0 (or above the maximum) changes nothing.
 */
export async function bulkUpdateProducts(db: Db, raw: unknown): Promise<{ updated: number }> {
  const input = BulkEditInput.parse(raw);
  return db.transaction(async (tx) => {
    if (input.category !== undefined) await assertCategoryUsable(tx, input.category);
    const selected = inArray(products.id, input.ids);
    let newPrice: SQL<number> | undefined;
    if (input.priceAdjustment) {
      newPrice = adjustedPrice(input.priceAdjustment);
      const [bad] = (
        await tx.execute<{ negative: number; tooHigh: number }>(
          sql`select count(*) filter (where ${newPrice} < 0)::int as "negative",
                     count(*) filter (where ${newPrice} > ${MAX_PRICE_CENTS})::int as "tooHigh"
              from ${products} where ${selected}`,
        )
      ).rows;
      if (bad && bad.negative > 0) {
        throw new CatalogInputError(
          `This adjustment would make the price of ${bad.negative} ${bad.negative === 1 ? "product" : "products"} negative. Nothing was changed.`,
          "bad_input",
          "priceAdjustment",
        );
      }
      if (bad && bad.tooHigh > 0) {
        throw new CatalogInputError("This adjustment would make a price higher than $1,000,000.00. Nothing was changed.", "bad_input", "priceAdjustment");
      }
    }
    if (input.stockSeen && (input.stockQuantity !== undefined || input.unlimitedStock !== undefined)) await assertStockAsSeen(tx, input.ids, input.stockSeen);
    const set: Record<string, unknown> = { updatedAt: touchedAt };
    if (input.category !== undefined) set.category = input.category;
    if (newPrice) set.priceCents = newPrice;
    else if (input.exactPrice !== undefined) set.priceCents = input.exactPrice;
    if (input.originalPrice !== undefined) set.originalPriceCents = input.originalPrice;
    if (input.unlimitedStock !== undefined) set.unlimitedStock = input.unlimitedStock;
    // Unlimited stock is saved with a quantity of 0, whichever of the two fields changed (docs/rules/admin.md).
    if (input.unlimitedStock === true) set.stockQuantity = 0;
    else if (input.stockQuantity !== undefined) {
      set.stockQuantity =
        input.unlimitedStock === false
          ? input.stockQuantity
          : sql`case when ${products.unlimitedStock} then 0 else ${input.stockQuantity}::int end`;
    }
    if (input.weightGrams !== undefined) set.weightGrams = input.weightGrams;
    if (input.active !== undefined) set.active = input.active;
    if (input.featured !== undefined) set.featured = input.featured;
    try {
      const rows = await tx.update(products).set(set).where(selected).returning({ id: products.id });
      await recordPrices(tx, rows.map((r) => r.id));
      return { updated: rows.length };
    } catch (err) {
      if (pgErrorCode(err) === CHECK_VIOLATION) {
        throw new CatalogInputError("This change would make a price or stock negative. Nothing was changed.", "bad_input");
      }
      throw err;
    }
  });
}
