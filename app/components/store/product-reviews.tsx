import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/lean/badge";
import { ONLY_BUYERS, REVIEW_RECEIVED } from "~/lib/review-texts";
import type { ProductReviewsPage, ReviewAbility, ReviewResult, ShownReview } from "~/lib/reviews-view";
import { Rating } from "./rating";

/**
 * Only a signed-in buyer who has not reviewed yet is shown the form, so its code (and the label
 * and input primitives) loads for them alone. The server renders it in full, and it posts as a
 * plain form until its code has hydrated.
 */
const ReviewForm = lazy(() => import("./review-form").then((m) => ({ default: m.ReviewForm })));

/** The product page's reviews (docs/rules/after-sale.md, Reviews): the approved ones, paged, and who may write one. */
export function ProductReviews({
  productId,
  shopName,
  page,
  ability,
  ownReview,
  result,
}: {
  productId: string;
  shopName: string;
  page: Omit<ProductReviewsPage, "reviews"> & { reviews: ShownReview[] };
  ability: ReviewAbility;
  /** The state of the shopper's own review, in words (ownReviewText, from the loader), when they wrote one. */
  ownReview?: string | null;
  result: ReviewResult | undefined;
}) {
  const pageLink = (n: number) => `/product/${productId}${n > 1 ? `?reviews=${n}` : ""}#reviews`;
  return (
    <section id="reviews" aria-labelledby="reviews-title" className="mt-12 grid gap-6 border-t pt-8">
      {/* The product's rating and count sit under its name above; not repeated here. */}
      <h2 id="reviews-title" className="text-2xl font-bold tracking-tight">
        Customer Reviews
      </h2>
      <ReviewInvitation productId={productId} ability={ability} ownReview={ownReview} result={result} />
      {page.reviews.length === 0 ? (
        <p className="text-muted-foreground">No reviews yet.</p>
      ) : (
        <ol className="grid gap-6" aria-label="Reviews, newest first">
          {page.reviews.map((r) => (
            <li key={r.id}>
              <ReviewItem review={r} shopName={shopName} />
            </li>
          ))}
        </ol>
      )}
      {page.pages > 1 ? (
        <nav aria-label="Review pages" className="flex items-center justify-between gap-4 text-sm">
          {page.page > 1 ? (
            <Link to={pageLink(page.page - 1)} preventScrollReset className="font-medium text-primary hover:underline">
              Newer reviews
            </Link>
          ) : (
            <span />
          )}
          <span className="text-muted-foreground">
            Page {page.page} of {page.pages}
          </span>
          {page.page < page.pages ? (
            <Link to={pageLink(page.page + 1)} preventScrollReset className="font-medium text-primary hover:underline">
              Older reviews
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </section>
  );
}

function ReviewInvitation({
  productId,
  ability,
  ownReview,
  result,
}: {
  productId: string;
  ability: ReviewAbility;
  ownReview?: string | null;
  result: ReviewResult | undefined;
}) {
  if (result?.ok) {
    return (
      <p role="status" className="rounded-lg border bg-muted/50 p-4 text-sm">
        {REVIEW_RECEIVED}
      </p>
    );
  }
  switch (ability.kind) {
    case "can_review":
      return (
        <Suspense fallback={null}>
          <ReviewForm productId={productId} result={result} />
        </Suspense>
      );
    case "reviewed":
      return <p className="rounded-lg border bg-muted/50 p-4 text-sm">{ownReview}</p>;
    case "signed_out":
      return (
        <p className="text-sm text-muted-foreground">
          {ONLY_BUYERS}{" "}
          <Link to={`/auth?redirectTo=${encodeURIComponent(`/product/${productId}#reviews`)}`} className="font-medium text-primary hover:underline">
            Sign in to write a review
          </Link>
        </p>
      );
    default:
      return <p className="text-sm text-muted-foreground">{ONLY_BUYERS}</p>;
  }
}

/** One review: every text shown as text (React escapes it), never as markup. */
function ReviewItem({ review, shopName }: { review: ShownReview; shopName: string }) {
  return (
    <article className="grid gap-2" aria-labelledby={`review-${review.id}`}>
      <div className="flex flex-wrap items-center gap-2">
        <Rating value={review.rating} showCount={false} />
        <h3 id={`review-${review.id}`} className="font-semibold">
          {review.title}
        </h3>
      </div>
      <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <span>{review.authorName}</span>
        <span aria-hidden>·</span>
        <time dateTime={review.createdAt}>{review.day}</time>
        <Badge variant="success">Verified purchase</Badge>
      </p>
      {review.body ? <p className="leading-relaxed whitespace-pre-line">{review.body}</p> : null}
      {review.reply ? (
        <div className="ml-4 rounded-md border-l-4 border-primary bg-muted/50 p-3 text-sm">
          <p className="font-medium">Reply from {shopName}</p>
          <p className="mt-1 whitespace-pre-line">{review.reply}</p>
        </div>
      ) : null}
    </article>
  );
}
