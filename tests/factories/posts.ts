import { randomBytes } from "node:crypto";
import type { Db } from "~/server/platform/db/client.server";
import { blogPosts } from "~/server/platform/db/schema";

export type PostRow = typeof blogPosts.$inferSelect;
export type PostOverrides = Partial<typeof blogPosts.$inferInsert>;

function postValues(overrides: PostOverrides): typeof blogPosts.$inferInsert {
  const suffix = randomBytes(4).toString("hex");
  return {
    title: `Test Post ${suffix}`,
    slug: `test-post-${suffix}`,
    excerpt: `An excerpt written for a test (${suffix}).`,
    content: `<p>Body of test post ${suffix}.</p>`,
    tags: [],
    featured: false,
    published: true,
    ...overrides,
  };
}

/**
 * One published, not featured post with a unique title and slug, inserted directly (trusted
 * content: it does not pass the sanitizer). `makePost(db, { published: false })` for a draft.
 */
export async function makePost(db: Db, overrides: PostOverrides = {}): Promise<PostRow> {
  const [row] = await db.insert(blogPosts).values(postValues(overrides)).returning();
  return row!;
}

/** Several posts in one insert; `overrides(i)` customises the i-th (0-based). */
export async function makePosts(db: Db, count: number, overrides: (i: number) => PostOverrides = () => ({})): Promise<PostRow[]> {
  if (count <= 0) return [];
  return db
    .insert(blogPosts)
    .values(Array.from({ length: count }, (_, i) => postValues(overrides(i))))
    .returning();
}
