import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { hasMarkup, REVIEW_BODY_MAX, REVIEW_REPLY_MAX, REVIEW_TITLE_MAX } from "./reviews-view";

/** Control characters become spaces and runs of spaces one: a title is one line. */
const oneLine = (v: string) =>
  v
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
// NUL cannot be stored in PostgreSQL text; newlines are kept in a text.
const cleanText = (v: string) => v.replace(/\u0000/g, "").replace(/\r\n?/g, "\n").trim();

const NO_MARKUP = "Reviews are plain text: please remove the HTML tags (the parts in < >).";
const RATING = "Choose a rating from 1 to 5 stars.";

/**
 * A review as the product page's form posts it (docs/rules/after-sale.md, Reviews). Only these
 * fields are read: the author is always the signed-in shopper, whatever else the form carries.
 */
export const ReviewInput = z.object({
  rating: z
    .string({ error: RATING })
    .trim()
    .regex(/^[1-5]$/, RATING)
    .transform(Number),
  title: z
    .string({ error: "Give your review a title." })
    .transform(oneLine)
    .pipe(
      z
        .string()
        .min(1, "Give your review a title.")
        .max(REVIEW_TITLE_MAX, `The title must be at most ${REVIEW_TITLE_MAX} characters.`)
        .refine((v) => !hasMarkup(v), NO_MARKUP),
    ),
  body: z
    .string()
    .default("")
    .transform(cleanText)
    .pipe(
      z
        .string()
        .max(REVIEW_BODY_MAX, `Your review must be at most ${REVIEW_BODY_MAX.toLocaleString("en-US")} characters.`)
        .refine((v) => !hasMarkup(v), NO_MARKUP),
    ),
});
export type ReviewFields = z.output<typeof ReviewInput>;

/** The admin's reply under a review: plain text (shown escaped); empty removes the reply. */
export const ReviewReplyInput = z
  .string()
  .default("")
  .transform(cleanText)
  .pipe(z.string().max(REVIEW_REPLY_MAX, `A reply must be at most ${REVIEW_REPLY_MAX.toLocaleString("en-US")} characters.`));
