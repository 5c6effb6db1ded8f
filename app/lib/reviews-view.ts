/**
 * Reviews from verified buyers (docs/rules/after-sale.md, Reviews): the limits and texts the
 * product page, its action and the admin share, and the shapes the pages are given. Plain
 * TypeScript without zod, so the product page's browser code stays lean (the schema is in
 * review-input.ts).
 */

export const REVIEW_TITLE_MAX = 120;
export const REVIEW_BODY_MAX = 2000;
export const REVIEW_REPLY_MAX = 2000;
/** Approved reviews per page on the product page, newest first. */
export const REVIEWS_PER_PAGE = 5;

// The texts the product page shows (ONLY_BUYERS, REVIEW_RECEIVED) are in review-texts.ts, so the
// page's browser code does not load this module (a chunk of its own, shared with the admin).

export type ReviewStatus = "pending" | "approved" | "hidden";

/** One approved review as the product page shows it: the author's first name and initial only. */
export type PublicReview = {
  id: string;
  authorName: string;
  rating: number;
  title: string;
  body: string;
  reply: string | null;
  /** ISO 8601. */
  createdAt: string;
};

/** A review as the product page prints it: `day` is createdAt in words ('November 22, 2026'), made by its loader. */
export type ShownReview = PublicReview & { day: string };

export type ProductReviewsPage = {
  reviews: PublicReview[];
  /** Approved reviews of the product. */
  total: number;
  page: number;
  pages: number;
};

/**
 * What the product page offers the visitor: a sign-in link, the refusal, the form, or the state
 * of the review already written. Decided per signed-in shopper, never cached for another.
 */
export type ReviewAbility =
  | { kind: "signed_out" }
  | { kind: "not_bought" }
  | { kind: "can_review" }
  | { kind: "reviewed"; status: ReviewStatus };

/** The answer to a review posted on the product page. */
export type ReviewResult =
  | { ok: true; message: string }
  | { ok: false; message: string; fieldErrors?: Partial<Record<"rating" | "title" | "body", string>>; values?: { rating: string; title: string; body: string } };

/** One review in the admin's list. */
export type AdminReview = PublicReview & {
  status: ReviewStatus;
  productId: string;
  productName: string;
  authorEmail: string | null;
  orderNumber: string | null;
};

export const REVIEW_FILTERS = ["pending", "approved", "hidden", "all"] as const;
export type ReviewFilter = (typeof REVIEW_FILTERS)[number];

/**
 * Whether text carries markup: reviews are plain text, so a tag or comment is refused with a
 * message. Browsers end a tag's name at a slash as at a space (`<svg/onload=…>`), and read a tag
 * with attributes even when its `>` never comes, so both count as markup; a lone `<` ("I <3",
 * "< $100") does not.
 */
export function hasMarkup(text: string): boolean {
  return /<\/?[a-z][a-z0-9-]*(?:[\s/][^<>]*)?>|<!--|<\s*script\b|<\s*\/\s*[a-z]|<[a-z][a-z0-9-]*[\s/][^<>]*=/i.test(text);
}

/** "Casey Customer" → "Casey C.": enough to be a person, not enough to find one. */
export function publicAuthorName(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "Customer";
  const first = parts[0]!.slice(0, 40);
  const last = parts.length > 1 ? ` ${parts[parts.length - 1]!.charAt(0).toUpperCase()}.` : "";
  return first + last;
}
