import { and, eq, sql } from "drizzle-orm";
import { type Db, logProductPageChange, products, reviews } from "../../platform/index.server";

/**
 * The product's rating and review count as its approved reviews make them (docs/rules/after-sale.md,
 * Reviews). Called in the transaction that changed which reviews are approved, after the product
 * row was locked (lockProduct), so two approvals at once count each other. With no approved
 * review left the product shows 0 reviews: an imported rating is not brought back.
 */
export async function recomputeProductRating(tx: Db, productId: string) {
  const [figures] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      average: sql<number | null>`round(avg(${reviews.rating})::numeric, 2)::real`,
    })
    .from(reviews)
    .where(and(eq(reviews.productId, productId), eq(reviews.status, "approved")));
  const count = figures?.count ?? 0;
  const rating = count > 0 ? Number(figures!.average) : 0;
  await tx.update(products).set({ rating, reviewCount: count }).where(eq(products.id, productId));
  return { rating, reviewCount: count };
}

/** Locks the product row for the rest of the transaction: reviews of one product are moderated one at a time. */
export async function lockProduct(tx: Db, productId: string) {
  await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for("update");
}

/**
 * Tells the page cache that this product's page changed (a review shown, hidden or answered).
 * The products trigger already marks every page when the rating or count changes; a reply, or an
 * approval that leaves both figures as they were (an imported 4.0 of 1 review replaced by one
 * 4-star review), changes no product column, so it is logged here, in the same transaction.
 */
export async function markProductPageChanged(tx: Db, productId: string) {
  await logProductPageChange(tx, productId);
}
