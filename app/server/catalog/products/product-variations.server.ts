import { and, asc, eq, sql } from "drizzle-orm";
import type { AttachedVariation } from "~/lib/catalog-view";
import { ProductVariationField } from "~/lib/product-input";
import { type Db, productVariations, variationTypes, variationValues } from "../../platform/index.server";
import { CatalogInputError, pgErrorCode } from "./admin-errors.server";
import { recordPrices } from "./price-history.server";

const FOREIGN_KEY_VIOLATION = "23503";

/** A product's active variations with their value and type (docs/rules/catalogue-data.md). */
export async function listProductVariations(db: Db, productId: string): Promise<AttachedVariation[]> {
  return db
    .select({
      id: productVariations.id,
      variationValueId: productVariations.variationValueId,
      typeName: variationTypes.name,
      value: variationValues.value,
      priceAdjustmentCents: productVariations.priceAdjustmentCents,
      stockQuantity: productVariations.stockQuantity,
      skuSuffix: productVariations.skuSuffix,
    })
    .from(productVariations)
    .innerJoin(variationValues, eq(variationValues.id, productVariations.variationValueId))
    .innerJoin(variationTypes, eq(variationTypes.id, variationValues.variationTypeId))
    .where(and(eq(productVariations.productId, productId), eq(productVariations.active, true)))
    .orderBy(asc(variationTypes.name), asc(variationValues.value));
}

/**
 * Attaches a value with the specified defaults (no price adjustment, no stock, no suffix). A value
 * removed earlier (soft, active false) comes back fresh; one already attached is refused.
 */
export async function attachVariation(db: Db, productId: string, variationValueId: string): Promise<string> {
  try {
    const rows = await db.transaction(async (tx) => {
      const attached = await tx
        .insert(productVariations)
      .values({ productId, variationValueId, priceAdjustmentCents: 0, stockQuantity: 0, skuSuffix: "" })
      .onConflictDoUpdate({
        target: [productVariations.productId, productVariations.variationValueId],
        set: { active: true, priceAdjustmentCents: 0, stockQuantity: 0, skuSuffix: "" },
          setWhere: sql`${productVariations.active} = false`,
        })
        .returning({ id: productVariations.id });
      // A variation's price starts its history when it is attached (again).
      if (attached.length) await recordPrices(tx, [productId]);
      return attached;
    });
    if (rows.length === 0) throw new CatalogInputError("This variation is already added to the product", "conflict", "variationValueId");
    return rows[0]!.id;
  } catch (err) {
    if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw new CatalogInputError("Product or variation value not found", "not_found");
    throw err;
  }
}

/** One field at a time: price adjustment, stock or SKU suffix (docs/rules/admin.md, Edit Product dialog). */
export async function updateProductVariation(db: Db, productId: string, id: string, change: unknown): Promise<void> {
  const parsed = ProductVariationField.parse(change);
  const set =
    parsed.field === "priceAdjustment"
      ? { priceAdjustmentCents: parsed.value }
      : parsed.field === "stockQuantity"
        ? { stockQuantity: parsed.value }
        : { skuSuffix: parsed.value };
  const rows = await db.transaction(async (tx) => {
    const updated = await tx
      .update(productVariations)
      .set(set)
      .where(and(eq(productVariations.id, id), eq(productVariations.productId, productId), eq(productVariations.active, true)))
      .returning({ id: productVariations.id });
    // A new adjustment is a new price for this variation; other fields change none and add no row.
    if (updated.length && parsed.field === "priceAdjustment") await recordPrices(tx, [productId]);
    return updated;
  });
  if (rows.length === 0) throw new CatalogInputError("Variation not found", "not_found");
}

/** Soft removal (docs/rules/catalogue-data.md): active false, so orders and history that name it stay intact. */
export async function removeProductVariation(db: Db, productId: string, id: string): Promise<void> {
  const rows = await db
    .update(productVariations)
    .set({ active: false })
    .where(and(eq(productVariations.id, id), eq(productVariations.productId, productId), eq(productVariations.active, true)))
    .returning({ id: productVariations.id });
  if (rows.length === 0) throw new CatalogInputError("Variation not found", "not_found");
}
