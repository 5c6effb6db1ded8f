import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { EXCERPT_MAX, isSafeImageUrl, META_DESCRIPTION_MAX, META_TITLE_MAX, TITLE_MAX } from "./blog";

/** What a post save may carry (the blog domain module parses the editor's JSON with it). */
export const PostInput = z.object({
  title: z.string().max(TITLE_MAX, `The title can be at most ${TITLE_MAX} characters`).default(""),
  slug: z.string().max(1000).default(""),
  excerpt: z.string().max(EXCERPT_MAX, `The excerpt can be at most ${EXCERPT_MAX} characters`).default(""),
  content: z.string().default(""),
  featuredImageUrl: z
    .string()
    .trim()
    .max(2000)
    .nullable()
    .default(null)
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || isSafeImageUrl(v), "The featured image must be an uploaded image or a web address"),
  tags: z.array(z.string().max(500)).max(200).default([]),
  published: z.boolean().default(false),
  featured: z.boolean().default(false),
  metaTitle: z.string().max(META_TITLE_MAX, `Meta title can be at most ${META_TITLE_MAX} characters`).default(""),
  metaDescription: z
    .string()
    .max(META_DESCRIPTION_MAX, `Meta description can be at most ${META_DESCRIPTION_MAX} characters`)
    .default(""),
});
export type PostInput = z.input<typeof PostInput>;
