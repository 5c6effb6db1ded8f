import { and, desc, eq, sql } from "drizzle-orm";
import {
  BLOG_PAGE_SIZE,
  cleanTags,
  htmlHasContent,
  MESSAGES,
  slugify,
  type EditablePost,
} from "~/lib/blog";
import { PostInput } from "~/lib/blog-input";
import { blogPosts, type Db, DomainError } from "../../platform/index.server";
import { sanitizePostHtml } from "./sanitize.server";
import { isUuid } from "~/lib/uuid";

/** An expected refusal with the message the editor shows: bad input, or a conflict for a taken slug. */
export class PostInputError extends DomainError<"bad_input" | "conflict"> {
  constructor(message: string, kind: "bad_input" | "conflict" = "bad_input") {
    super(message, kind);
  }
}

const cardColumns = {
  id: blogPosts.id,
  title: blogPosts.title,
  slug: blogPosts.slug,
  excerpt: blogPosts.excerpt,
  featuredImageUrl: blogPosts.featuredImageUrl,
  tags: blogPosts.tags,
  featured: blogPosts.featured,
  createdAt: blogPosts.createdAt,
};

/** The storefront list (docs/rules/blog.md): featured first then newest, 12 a page. `hasMore` while a full page returns. */
export async function listPublishedPosts(db: Db, { page = 1 }: { page?: number } = {}) {
  const safePage = Number.isSafeInteger(page) && page > 0 ? page : 1;
  const posts = await db
    .select(cardColumns)
    .from(blogPosts)
    .where(eq(blogPosts.published, true))
    .orderBy(desc(blogPosts.featured), desc(blogPosts.createdAt), desc(blogPosts.id))
    .limit(BLOG_PAGE_SIZE)
    .offset((safePage - 1) * BLOG_PAGE_SIZE);
  return { posts, page: safePage, hasMore: posts.length === BLOG_PAGE_SIZE };
}
export type PostCardData = Awaited<ReturnType<typeof listPublishedPosts>>["posts"][number];

/** A published post by slug, its body sanitized again on the way out; null when missing or a draft. */
export async function getPublishedPostBySlug(db: Db, slug: string) {
  // eslint-disable-next-line no-control-regex
  if (!slug || slug.length > 200 || /[\u0000-\u001f\u007f]/.test(slug)) return null;
  const [post] = await db
    .select({
      ...cardColumns,
      content: blogPosts.content,
      metaTitle: blogPosts.metaTitle,
      metaDescription: blogPosts.metaDescription,
      updatedAt: blogPosts.updatedAt,
    })
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, slug), eq(blogPosts.published, true)));
  return post ? { ...post, content: sanitizePostHtml(post.content) } : null;
}

/** Newest published posts for the RSS feed. */
export async function listPostsForFeed(db: Db, limit = 20) {
  return db
    .select({
      title: blogPosts.title,
      slug: blogPosts.slug,
      excerpt: blogPosts.excerpt,
      createdAt: blogPosts.createdAt,
      tags: blogPosts.tags,
    })
    .from(blogPosts)
    .where(eq(blogPosts.published, true))
    .orderBy(desc(blogPosts.createdAt), desc(blogPosts.id))
    .limit(limit);
}

/** The admin list reads only these fields, newest first (docs/rules/blog.md, Admin list). */
export async function listAdminPosts(db: Db) {
  return db
    .select({
      id: blogPosts.id,
      title: blogPosts.title,
      slug: blogPosts.slug,
      excerpt: blogPosts.excerpt,
      featuredImageUrl: blogPosts.featuredImageUrl,
      published: blogPosts.published,
      featured: blogPosts.featured,
      tags: blogPosts.tags,
      createdAt: blogPosts.createdAt,
      updatedAt: blogPosts.updatedAt,
    })
    .from(blogPosts)
    .orderBy(desc(blogPosts.createdAt), desc(blogPosts.id));
}
export type AdminPostCard = Awaited<ReturnType<typeof listAdminPosts>>[number];


/** The full record for the editor, or null. */
export async function getPostForEdit(db: Db, id: string): Promise<EditablePost | null> {
  if (!isUuid(id)) return null;
  const [post] = await db
    .select({
      id: blogPosts.id,
      title: blogPosts.title,
      slug: blogPosts.slug,
      excerpt: blogPosts.excerpt,
      content: blogPosts.content,
      featuredImageUrl: blogPosts.featuredImageUrl,
      tags: blogPosts.tags,
      published: blogPosts.published,
      featured: blogPosts.featured,
      metaTitle: blogPosts.metaTitle,
      metaDescription: blogPosts.metaDescription,
    })
    .from(blogPosts)
    .where(eq(blogPosts.id, id));
  // The editor renders it too, so it gets the same treatment as the storefront.
  return post ? { ...post, content: sanitizePostHtml(post.content) } : null;
}

// PostgreSQL text cannot hold NUL, and no other control character belongs in a post.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

function withoutControlCharacters(value: unknown): unknown {
  if (typeof value === "string") return value.replace(CONTROL, "");
  if (Array.isArray(value)) return value.map(withoutControlCharacters);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutControlCharacters(v)]));
  }
  return value;
}

/** Validates and cleans what the editor sent: the save rules and the slug rule of docs/rules/blog.md. */
export function preparePost(raw: unknown) {
  const parsed = PostInput.safeParse(withoutControlCharacters(raw));
  if (!parsed.success) throw new PostInputError(parsed.error.issues[0]?.message ?? MESSAGES.saveFailed);
  const input = parsed.data;
  const title = input.title.trim();
  const content = sanitizePostHtml(input.content);
  if (!title || !htmlHasContent(content)) throw new PostInputError(MESSAGES.required);
  const slug = slugify(input.slug);
  if (!slug) throw new PostInputError(MESSAGES.emptySlug);
  return {
    title,
    slug,
    content,
    excerpt: input.excerpt.trim(),
    featuredImageUrl: input.featuredImageUrl,
    tags: cleanTags(input.tags),
    published: input.published,
    featured: input.featured,
    metaTitle: input.metaTitle.trim(),
    metaDescription: input.metaDescription.trim(),
  };
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

async function writing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw new PostInputError(MESSAGES.duplicateSlug, "conflict");
    throw err;
  }
}

/** The signed-in admin becomes the author (docs/rules/blog.md, Saving). */
export async function createPost(db: Db, raw: unknown, authorId: string) {
  const values = preparePost(raw);
  return writing(async () => {
    const [row] = await db
      .insert(blogPosts)
      .values({ ...values, authorId })
      .returning({ id: blogPosts.id, slug: blogPosts.slug });
    return row!;
  });
}

/** Null when the post no longer exists. */
export async function updatePost(db: Db, id: string, raw: unknown, authorId: string) {
  const values = preparePost(raw);
  if (!isUuid(id)) return null;
  return writing(async () => {
    const [row] = await db
      .update(blogPosts)
      .set({ ...values, authorId, updatedAt: sql`now()` })
      .where(eq(blogPosts.id, id))
      .returning({ id: blogPosts.id, slug: blogPosts.slug });
    return row ?? null;
  });
}

/** Returns false when the post does not exist. */
export async function setPostPublished(db: Db, id: string, published: boolean) {
  if (!isUuid(id)) return false;
  const rows = await db
    .update(blogPosts)
    .set({ published, updatedAt: sql`now()` })
    .where(eq(blogPosts.id, id))
    .returning({ id: blogPosts.id });
  return rows.length === 1;
}

/** Hard delete (docs/rules/blog.md). Returns false when the post does not exist. */
export async function deletePost(db: Db, id: string) {
  if (!isUuid(id)) return false;
  const rows = await db.delete(blogPosts).where(eq(blogPosts.id, id)).returning({ id: blogPosts.id });
  return rows.length === 1;
}
