import type { ReviewStatus } from "./reviews-view";

/**
 * What the product page and its action say about reviewing (docs/rules/after-sale.md, Reviews).
 * Apart from reviews-view.ts, which the admin and the review form share: the product page's
 * browser code then carries these two lines in its own chunk instead of loading that module.
 */
export const ONLY_BUYERS = "Only customers who bought this item can review it.";
export const REVIEW_RECEIVED = "Thank you! Your review will appear once the shop has approved it.";

/**
 * The shopper's own review, in words: the product page's loader sends the text (so the page's
 * browser code carries none of the three).
 */
export function ownReviewText(status: ReviewStatus): string {
  if (status === "pending") return "Thank you for your review. It will appear here once the shop has approved it.";
  if (status === "approved") return "Thank you for your review.";
  return "You have already reviewed this item.";
}
