import { and, count, desc, eq, inArray, ne } from "drizzle-orm";
import type { ReviewFields } from "~/lib/review-input";
import { ONLY_BUYERS } from "~/lib/review-texts";
import {
  publicAuthorName,
  REVIEWS_PER_PAGE,
  type ProductReviewsPage,
  type PublicReview,
  type ReviewAbility,
  type ReviewStatus,
} from "~/lib/reviews-view";
import { isUuid } from "~/lib/uuid";
import { type Db, orderItems, orders, products, reviews } from "../../platform/index.server";
import { ReviewError } from "./review-error.server";

/**
 * Reviews as the shopper meets them (docs/rules/after-sale.md, Reviews): who may write one, writing
 * it, and the approved reviews a product page lists. Moderation is in moderation.server.ts.
 */

export const ALREADY_REVIEWED = "You have already reviewed this item.";
export const PRODUCT_GONE = "This product is not available.";

/**
 * The shopper's order that makes them a verified buyer of the product: paid, not refunded, not
 * cancelled, theirs (orders.user_id; a guest order is nobody's), with a line for the product.
 */
export async function verifiedPurchase(db: Db, userId: string, productId: string): Promise<{ orderId: string } | null> {
  const [row] = await db
    .select({ orderId: orders.id })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(
      and(
        eq(orders.userId, userId),
        eq(orderItems.productId, productId),
        // A partial refund (one damaged pillowcase) leaves the rest bought.
        inArray(orders.paymentStatus, ["paid", "partially_refunded"]),
        ne(orders.status, "cancelled"),
      ),
    )
    .orderBy(desc(orders.paidAt), desc(orders.createdAt))
    .limit(1);
  return row ?? null;
}

async function ownReview(db: Db, userId: string, productId: string) {
  const [row] = await db
    .select({ id: reviews.id, status: reviews.status })
    .from(reviews)
    .where(and(eq(reviews.productId, productId), eq(reviews.userId, userId)));
  return row ?? null;
}

/** What the product page offers this visitor (null: signed out). */
export async function reviewAbility(db: Db, userId: string | null, productId: string): Promise<ReviewAbility> {
  if (!userId) return { kind: "signed_out" };
  const [own, purchase] = await Promise.all([ownReview(db, userId, productId), verifiedPurchase(db, userId, productId)]);
  if (own) return { kind: "reviewed", status: own.status as ReviewStatus };
  return purchase ? { kind: "can_review" } : { kind: "not_bought" };
}

export type SubmitReviewResult = { id: string };

const isUniqueViolation = (e: unknown) => {
  const err = e as { code?: string; cause?: { code?: string } };
  return (err.code ?? err.cause?.code) === "23505";
};

/**
 * Stores the shopper's review, pending until an admin approves it. The author is the signed-in
 * shopper passed here, never a field of the form. Refused: the product is gone, the shopper did
 * not buy it, or already reviewed it (also when two posts race: the unique index decides): each
 * a ReviewError.
 */
export async function submitReview(
  db: Db,
  author: { id: string; name: string },
  productId: string,
  input: ReviewFields,
): Promise<SubmitReviewResult> {
  if (!isUuid(productId)) throw new ReviewError(PRODUCT_GONE, "not_found");
  const [product] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, productId), eq(products.active, true)));
  if (!product) throw new ReviewError(PRODUCT_GONE, "not_found");
  if (await ownReview(db, author.id, productId)) throw new ReviewError(ALREADY_REVIEWED, "conflict");
  const purchase = await verifiedPurchase(db, author.id, productId);
  if (!purchase) throw new ReviewError(ONLY_BUYERS, "forbidden");
  try {
    const [row] = await db
      .insert(reviews)
      .values({
        productId,
        userId: author.id,
        orderId: purchase.orderId,
        authorName: publicAuthorName(author.name),
        rating: input.rating,
        title: input.title,
        body: input.body,
      })
      .returning({ id: reviews.id });
    return { id: row!.id };
  } catch (e) {
    if (isUniqueViolation(e)) throw new ReviewError(ALREADY_REVIEWED, "conflict");
    throw e;
  }
}

/** The `reviews` page number of the product page's URL; anything unusable is page 1. */
export function reviewsPageParam(params: URLSearchParams): number {
  const page = Math.floor(Number(params.get("reviews") ?? "1"));
  return Number.isFinite(page) && page >= 1 ? Math.min(page, 10_000) : 1;
}

/** A page of the product's approved reviews, newest first; a page past the end shows the last one. */
export async function listApprovedReviews(db: Db, productId: string, page: number): Promise<ProductReviewsPage> {
  const approved = and(eq(reviews.productId, productId), eq(reviews.status, "approved"));
  const [counted] = await db.select({ n: count() }).from(reviews).where(approved);
  const total = counted?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / REVIEWS_PER_PAGE));
  const current = Math.min(page, pages);
  if (total === 0) return { reviews: [], total, page: 1, pages };
  const rows = await db
    .select({
      id: reviews.id,
      authorName: reviews.authorName,
      rating: reviews.rating,
      title: reviews.title,
      body: reviews.body,
      reply: reviews.reply,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .where(approved)
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(REVIEWS_PER_PAGE)
    .offset((current - 1) * REVIEWS_PER_PAGE);
  return { reviews: rows.map(toPublicReview), total, page: current, pages };
}

function toPublicReview(r: Omit<PublicReview, "createdAt"> & { createdAt: Date }): PublicReview {
  return { ...r, createdAt: r.createdAt.toISOString() };
}
