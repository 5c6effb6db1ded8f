import { asc, eq } from "drizzle-orm";
import { type Db, ERASED_NAME, reviews } from "../../platform/index.server";
import { lockProduct, markProductPageChanged, recomputeProductRating } from "./rating.server";

/**
 * An erased account's reviews (docs/rules/personal-data.md): the person chose to delete them, or to
 * keep them signed 'A customer' (the words and stars stay, the name and the link to the account go).
 * In the erasure's transaction; each product is locked before its rating is counted again, in id
 * order so two erasures never wait on each other crosswise.
 */
export async function eraseReviewsOf(tx: Db, userId: string, choice: "delete" | "keep"): Promise<{ reviews: number }> {
  const rows = await tx
    .select({ id: reviews.id, productId: reviews.productId })
    .from(reviews)
    .where(eq(reviews.userId, userId))
    .orderBy(asc(reviews.productId));
  if (rows.length === 0) return { reviews: 0 };
  const productIds = [...new Set(rows.map((r) => r.productId))];
  for (const productId of productIds) await lockProduct(tx, productId);
  if (choice === "delete") {
    await tx.delete(reviews).where(eq(reviews.userId, userId));
    for (const productId of productIds) await recomputeProductRating(tx, productId);
  } else {
    await tx.update(reviews).set({ authorName: ERASED_NAME, userId: null, updatedAt: new Date() }).where(eq(reviews.userId, userId));
  }
  // A kept review's new signature changes no product column: tell the page cache.
  for (const productId of productIds) await markProductPageChanged(tx, productId);
  return { reviews: rows.length };
}
