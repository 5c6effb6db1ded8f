import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import AdminBlog, * as adminList from "~/routes/admin/blog/index";
import { sql } from "drizzle-orm";
import { useTestDatabase } from "../setup/database";
import { makeAdmin, requestAs } from "../factories/users";
import { args } from "./blog-helpers";

const t = useTestDatabase();

describe("admin blog list: loading and failure", () => {
  it("shows the heading, 'New Post' and six placeholder cards while the posts load", () => {
    const pending = new Promise<never>(() => {});
    const Stub = createRoutesStub([{ id: "admin-blog", path: "/admin/blog", Component: AdminBlog }]);
    const html = renderToString(
      createElement(Stub, { initialEntries: ["/admin/blog"], hydrationData: { loaderData: { "admin-blog": { posts: pending } } } }),
    );
    expect(html).toContain("Blog Management");
    expect(html).toContain("Create and manage your blog posts");
    expect(html).toContain("New Post");
    expect(html).toContain('aria-label="Loading posts"');
    const grid = html.slice(html.indexOf('aria-label="Loading posts"'));
    expect(grid.match(/rounded-xl border/g)).toHaveLength(6);
  });

  it("rejects the streamed list with 'Failed to fetch posts' when the database cannot answer", async () => {
    const admin = await makeAdmin(t.db);
    const request = await requestAs(t.db, admin, "/admin/blog");
    await t.db.execute(sql`alter table blog_posts rename to blog_posts_away`);
    try {
      const { posts } = await adminList.loader(args(request));
      await expect(posts).rejects.toThrow("Failed to fetch posts");
    } finally {
      await t.db.execute(sql`alter table blog_posts_away rename to blog_posts`);
    }
  });
});
