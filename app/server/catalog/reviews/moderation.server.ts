import { count, desc, eq } from "drizzle-orm";
import type { AdminReview, ReviewFilter, ReviewStatus } from "~/lib/reviews-view";
import { isUuid } from "~/lib/uuid";
import { type Db, orders, products, reviews, user } from "../../platform/index.server";
import { lockProduct, markProductPageChanged, recomputeProductRating } from "./rating.server";
import { ReviewError } from "./review-error.server";

/** The admin's side of reviews (/admin/reviews; docs/rules/after-sale.md, Reviews): list, approve, hide, reply. */

export const ADMIN_REVIEWS_PAGE_SIZE = 20;
export const REVIEW_NOT_FOUND = "This review no longer exists.";

export async function listAdminReviews(
  db: Db,
  query: { filter: ReviewFilter; page: number },
): Promise<{ reviews: AdminReview[]; total: number; page: number; pages: number; pendingCount: number }> {
  const where = query.filter === "all" ? undefined : eq(reviews.status, query.filter);
  const [[counted], [pending]] = await Promise.all([
    db.select({ n: count() }).from(reviews).where(where),
    db.select({ n: count() }).from(reviews).where(eq(reviews.status, "pending")),
  ]);
  const total = counted?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_REVIEWS_PAGE_SIZE));
  const page = Math.min(query.page, pages);
  const rows = await db
    .select({
      id: reviews.id,
      status: reviews.status,
      productId: reviews.productId,
      productName: products.name,
      authorName: reviews.authorName,
      authorEmail: user.email,
      orderNumber: orders.orderNumber,
      rating: reviews.rating,
      title: reviews.title,
      body: reviews.body,
      reply: reviews.reply,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .innerJoin(products, eq(products.id, reviews.productId))
    .leftJoin(user, eq(user.id, reviews.userId))
    .leftJoin(orders, eq(orders.id, reviews.orderId))
    .where(where)
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(ADMIN_REVIEWS_PAGE_SIZE)
    .offset((page - 1) * ADMIN_REVIEWS_PAGE_SIZE);
  return {
    reviews: rows.map((r) => ({ ...r, status: r.status as ReviewStatus, createdAt: r.createdAt.toISOString() })),
    total,
    page,
    pages,
    pendingCount: pending?.n ?? 0,
  };
}

export type ModerationResult = { from: ReviewStatus; to: ReviewStatus };

const reviewGone = () => new ReviewError(REVIEW_NOT_FOUND, "not_found");

/**
 * Approves or hides a review. In one transaction with the product row locked: the status, the
 * product's rating and count when the set of approved reviews changed, and the product page's
 * entry in the storefront change log. Throws ReviewError (not_found) for a review that is gone.
 */
export async function setReviewStatus(db: Db, reviewId: string, to: "approved" | "hidden"): Promise<ModerationResult> {
  if (!isUuid(reviewId)) throw reviewGone();
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ productId: reviews.productId }).from(reviews).where(eq(reviews.id, reviewId));
    if (!found) throw reviewGone();
    await lockProduct(tx, found.productId);
    const [current] = await tx.select({ status: reviews.status }).from(reviews).where(eq(reviews.id, reviewId)).for("update");
    if (!current) throw reviewGone();
    const from = current.status as ReviewStatus;
    if (from === to) return { from, to };
    await tx.update(reviews).set({ status: to, updatedAt: new Date() }).where(eq(reviews.id, reviewId));
    // Hiding a pending review changes nothing shoppers see (an imported rating stays).
    if (from === "approved" || to === "approved") {
      await recomputeProductRating(tx, found.productId);
      await markProductPageChanged(tx, found.productId);
    }
    return { from, to };
  });
}

/** The shop's reply under a review (plain text); an empty reply removes it. Throws ReviewError (not_found) for a review that is gone. */
export async function replyToReview(db: Db, reviewId: string, reply: string): Promise<void> {
  if (!isUuid(reviewId)) throw reviewGone();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(reviews)
      .set({ reply: reply || null, repliedAt: reply ? new Date() : null, updatedAt: new Date() })
      .where(eq(reviews.id, reviewId))
      .returning({ productId: reviews.productId, status: reviews.status });
    if (!row) throw reviewGone();
    if (row.status === "approved") await markProductPageChanged(tx, row.productId);
  });
}
