import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/blog";
import * as adminList from "~/routes/admin/blog/index";
import * as editor from "~/routes/admin/blog/editor";
import * as upload from "~/routes/admin/blog/upload";
import * as blogIndex from "~/routes/blog/index";
import * as blogPost from "~/routes/blog/post";
import * as rss from "~/routes/blog/rss";
import { blogPosts } from "~/server/platform/db/schema";
import { useTestDatabase } from "../setup/database";
import { makeBmp, makeIco, makePng, SVG_IMAGE } from "../factories/images";
import { makePost, makePosts } from "../factories/posts";
import { makeAdmin, makeCustomer, requestAs, type TestUser } from "../factories/users";
import { args, outcome, thrown } from "./blog-helpers";

const t = useTestDatabase();

let admin: TestUser;
beforeEach(async () => {
  await t.db.delete(blogPosts);
  admin ??= await makeAdmin(t.db);
});

const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

async function save(body: Record<string, unknown>, id?: string) {
  const path = id ? `/admin/blog/${id}/edit` : "/admin/blog/new";
  const request = await requestAs(t.db, admin, path, json({ intent: "save", ...body }));
  return outcome(await editor.action(args(request, id ? { id } : {})));
}

async function listAction(form: Record<string, string>) {
  const request = await requestAs(t.db, admin, "/admin/blog", { method: "POST", body: new URLSearchParams(form) });
  return outcome(await adminList.action(args(request)));
}

const postPage = async (slug: string) =>
  outcome(await blogPost.loader(args(new Request(`http://localhost:3000/blog/${slug}`), { slug })));

const valid = { title: "Morning Light", slug: "", content: "<p>Open the curtains.</p>" };

describe("storefront /blog", () => {
  it("lists only published posts, featured first then newest, 12 a page with hasMore", async () => {
    const base = Date.parse("2026-01-01T00:00:00Z");
    await makePosts(t.db, 30, (i) => ({
      title: `Post ${String(i).padStart(2, "0")}`,
      createdAt: new Date(base + i * 3600_000),
      featured: i === 3,
    }));
    await makePost(t.db, { title: "A draft", published: false, createdAt: new Date(base + 99 * 3600_000) });

    const page1 = await outcome(await blogIndex.loader(args(new Request("http://localhost:3000/blog"))));
    expect(page1.data.posts.map((p: { title: string }) => p.title).slice(0, 3)).toEqual(["Post 03", "Post 29", "Post 28"]);
    expect(page1.data.posts).toHaveLength(12);
    expect(page1.data.hasMore).toBe(true);
    // The card needs no body: the list never reads it.
    expect(Object.keys(page1.data.posts[0]).sort()).toEqual(
      ["createdAt", "excerpt", "featured", "featuredImageUrl", "id", "slug", "tags", "title"].sort(),
    );

    const page3 = await outcome(await blogIndex.loader(args(new Request("http://localhost:3000/blog?page=3"))));
    expect(page3.data.posts).toHaveLength(6);
    expect(page3.data.hasMore).toBe(false);
    const all = [page1, await outcome(await blogIndex.loader(args(new Request("http://localhost:3000/blog?page=2")))), page3]
      .flatMap((p) => p.data.posts.map((x: { title: string }) => x.title));
    expect(new Set(all).size).toBe(30);
    expect(all).not.toContain("A draft");
  });

  it("treats a nonsense page number as the first page", async () => {
    await makePosts(t.db, 2);
    const res = await outcome(await blogIndex.loader(args(new Request("http://localhost:3000/blog?page=-4x"))));
    expect(res.data.page).toBe(1);
    expect(res.data.posts).toHaveLength(2);
  });

  it("shows a published post by slug, its body sanitized again on the way out", async () => {
    await makePost(t.db, {
      slug: "old-row",
      title: "An old row",
      metaTitle: "Meta for old row",
      content: `<p>Kept</p><script>alert(1)</script><img src="x.png" onerror="alert(1)">`,
    });
    const res = await postPage("old-row");
    expect(res.status).toBe(200);
    expect(res.data.post.content).toBe("<p>Kept</p>");
    expect(res.data.post.metaTitle).toBe("Meta for old row");
  });

  it("answers 404 for a draft and for a missing slug", async () => {
    await makePost(t.db, { slug: "still-a-draft", published: false });
    expect((await postPage("still-a-draft")).status).toBe(404);
    expect((await postPage("no-such-post")).status).toBe(404);
    expect((await postPage("no-such-post")).data.post).toBeNull();
  });

  it("publishes an RSS feed of published posts with escaped text", async () => {
    await makePost(t.db, { slug: "feed-one", title: `Sheets & <script>alert("x")</script>`, tags: ["care"] });
    await makePost(t.db, { slug: "feed-draft", title: "Draft in feed", published: false });
    const res = (await rss.loader()) as Response;
    expect(res.headers.get("content-type")).toContain("application/rss+xml");
    const xml = await res.text();
    expect(xml).toContain("<rss version=\"2.0\"");
    expect(xml).toContain("<link>http://localhost:3000/blog/feed-one</link>");
    expect(xml).toContain("Sheets &amp; &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(xml).toContain("<category>care</category>");
    expect(xml).not.toContain("Draft in feed");
    expect(xml).not.toContain("<script>");
  });
});

describe("admin blog: access", () => {
  it("sends anonymous people to /auth and refuses customers on every loader and action", async () => {
    const customer = await makeCustomer(t.db);
    const post = await makePost(t.db);
    const calls: Array<[string, (r: Request) => Promise<unknown>]> = [
      ["/admin/blog", (r) => adminList.loader(args(r))],
      ["/admin/blog", (r) => adminList.action(args(r))],
      ["/admin/blog/new", (r) => editor.loader(args(r))],
      ["/admin/blog/new", (r) => editor.action(args(r))],
      [`/admin/blog/${post.id}/edit`, (r) => editor.loader(args(r, { id: post.id }))],
      [`/admin/blog/${post.id}/edit`, (r) => editor.action(args(r, { id: post.id }))],
    ];
    for (const [path, call] of calls) {
      const anon = await thrown(async () => call(await requestAs(t.db, null, path, json({ intent: "save", ...valid }))));
      expect(anon.status).toBe(302);
      expect(anon.location).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
      const asCustomer = await thrown(async () => call(await requestAs(t.db, customer, path, json({ intent: "save", ...valid }))));
      expect(asCustomer.status).toBe(403);
    }
    const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(blogPosts);
    expect(row!.n).toBe(1);
  });
});

describe("admin blog: list, publish, delete", () => {
  it("lists every post newest first with only the listed fields", async () => {
    await makePost(t.db, { title: "Older", createdAt: new Date("2026-01-01T00:00:00Z") });
    await makePost(t.db, { title: "Newer draft", published: false, createdAt: new Date("2026-02-01T00:00:00Z") });
    const res = await adminList.loader(args(await requestAs(t.db, admin, "/admin/blog")));
    const posts = await res.posts;
    expect(posts.map((p) => p.title)).toEqual(["Newer draft", "Older"]);
    expect(Object.keys(posts[0]!).sort()).toEqual(
      ["createdAt", "excerpt", "featured", "featuredImageUrl", "id", "published", "slug", "tags", "title", "updatedAt"].sort(),
    );
  });

  it("unpublishes (the page 404s at once), publishes again, and deletes", async () => {
    const post = await makePost(t.db, { slug: "toggled" });
    expect((await postPage("toggled")).status).toBe(200);

    const off = await listAction({ intent: "toggle-publish", id: post.id, published: "false" });
    expect(off.data).toEqual({ ok: true, message: "Post unpublished successfully" });
    expect((await postPage("toggled")).status).toBe(404);

    const on = await listAction({ intent: "toggle-publish", id: post.id, published: "true" });
    expect(on.data).toEqual({ ok: true, message: "Post published successfully" });
    expect((await postPage("toggled")).status).toBe(200);

    const del = await listAction({ intent: "delete", id: post.id });
    expect(del.data).toEqual({ ok: true, message: "Post deleted successfully" });
    expect((await postPage("toggled")).status).toBe(404);
    expect(await t.db.select().from(blogPosts).where(eq(blogPosts.id, post.id))).toEqual([]);
  });

  it("reports 'Failed to update post' and 'Failed to delete post' for a post that is gone", async () => {
    const gone = "6f1c7f0e-6a9b-4c7e-9d55-000000000000";
    expect(await listAction({ intent: "toggle-publish", id: gone, published: "true" })).toMatchObject({
      status: 404,
      data: { ok: false, error: "Failed to update post" },
    });
    expect(await listAction({ intent: "delete", id: gone })).toMatchObject({
      status: 404,
      data: { ok: false, error: "Failed to delete post" },
    });
    expect(await listAction({ intent: "delete", id: "not-a-uuid" })).toMatchObject({ data: { error: "Failed to delete post" } });
  });
});

describe("admin blog: the editor's loader", () => {
  it("loads the full record for editing", async () => {
    const post = await makePost(t.db, { metaTitle: "MT", metaDescription: "MD", tags: ["a", "b"] });
    const res = await outcome(await editor.loader(args(await requestAs(t.db, admin, `/admin/blog/${post.id}/edit`), { id: post.id })));
    expect(res.data.post).toMatchObject({ id: post.id, content: post.content, metaTitle: "MT", metaDescription: "MD", tags: ["a", "b"] });
  });

  it("says 'Failed to load post for editing' for a missing or malformed id", async () => {
    for (const id of ["6f1c7f0e-6a9b-4c7e-9d55-000000000000", "nope"]) {
      const res = await outcome(await editor.loader(args(await requestAs(t.db, admin, `/admin/blog/${id}/edit`), { id })));
      expect(res).toMatchObject({ status: 404, data: { post: null, loadError: "Failed to load post for editing" } });
    }
  });

  it("starts a new post empty", async () => {
    const res = await outcome(await editor.loader(args(await requestAs(t.db, admin, "/admin/blog/new"))));
    expect(res.data).toEqual({ post: null, loadError: null });
  });
});

describe("admin blog: saving", () => {
  it("creates a post: the admin is the author, unpublished and not featured unless set", async () => {
    const res = await save({ ...valid, slug: "morning-light", tags: [" sleep ", "", "Sleep", "light"] });
    expect(res.data).toMatchObject({ ok: true, message: "Post created successfully" });
    const [row] = await t.db.select().from(blogPosts).where(eq(blogPosts.slug, "morning-light"));
    expect(row).toMatchObject({
      title: "Morning Light",
      authorId: admin.id,
      published: false,
      featured: false,
      tags: ["sleep", "light"],
      content: "<p>Open the curtains.</p>",
    });
  });

  it("normalizes the slug: spaces, capitals, accents and symbols", async () => {
    const cases: Array<[string, string]> = [
      ["  Héllo Wörld!! 2026 ", "hello-world-2026"],
      ["Crème Brûlée -- Recipe", "creme-brulee-recipe"],
      ["UPPER_case & symbols/*?", "upper-case-symbols"],
      ["---lead-and-trail---", "lead-and-trail"],
    ];
    for (const [input, expected] of cases) {
      const res = await save({ ...valid, slug: input });
      expect(res.data).toMatchObject({ ok: true });
      const [row] = await t.db.select({ slug: blogPosts.slug }).from(blogPosts).where(eq(blogPosts.id, res.data.id));
      expect(row!.slug).toBe(expected);
    }
  });

  it("refuses a slug that is empty after normalization, clearly", async () => {
    for (const slug of ["", "!!!", "   ", "日本語"]) {
      const res = await save({ ...valid, slug });
      expect(res).toMatchObject({ status: 400, data: { ok: false, error: "The URL slug needs at least one letter or digit" } });
    }
  });

  it("says 'Title and content are required' for a blank title or an empty body", async () => {
    const bodies = [
      { ...valid, title: "   " },
      { ...valid, content: "" },
      { ...valid, content: "<p><br></p>" },
      { ...valid, content: "<p>&nbsp; </p>" },
      // Only something the sanitizer removes: nothing would be left to show.
      { ...valid, content: "<script>alert(1)</script>" },
    ];
    for (const body of bodies) {
      expect(await save({ ...body, slug: "x" })).toMatchObject({ status: 400, data: { error: MESSAGES.required } });
    }
  });

  it("says 'A post with this slug already exists' on create and on update", async () => {
    await makePost(t.db, { slug: "taken" });
    expect(await save({ ...valid, slug: "Taken" })).toMatchObject({ status: 409, data: { error: "A post with this slug already exists" } });
    const other = await makePost(t.db, { slug: "other" });
    expect(await save({ ...valid, slug: "taken" }, other.id)).toMatchObject({
      status: 409,
      data: { error: "A post with this slug already exists" },
    });
  });

  it("keeps meta title to 60 and meta description to 160 characters", async () => {
    expect(await save({ ...valid, slug: "m1", metaTitle: "x".repeat(60), metaDescription: "y".repeat(160) })).toMatchObject({
      data: { ok: true },
    });
    expect(await save({ ...valid, slug: "m2", metaTitle: "x".repeat(61) })).toMatchObject({
      status: 400,
      data: { error: "Meta title can be at most 60 characters" },
    });
    expect(await save({ ...valid, slug: "m3", metaDescription: "y".repeat(161) })).toMatchObject({
      status: 400,
      data: { error: "Meta description can be at most 160 characters" },
    });
  });

  it("refuses a featured image that is not an upload or a web address", async () => {
    for (const featuredImageUrl of ["javascript:alert(1)", "data:image/png;base64,AAAA", "//evil.example/x.png"]) {
      expect(await save({ ...valid, slug: "img", featuredImageUrl })).toMatchObject({ status: 400, data: { ok: false } });
    }
    expect(await save({ ...valid, slug: "img", featuredImageUrl: "/media/blog-images/1.png" })).toMatchObject({ data: { ok: true } });
  });

  it("updates a post: 'Post updated successfully', the editing admin becomes the author", async () => {
    const other = await makeAdmin(t.db);
    const post = await makePost(t.db, { slug: "to-edit", authorId: other.id });
    const res = await save({ ...valid, title: "Edited", slug: "to-edit", published: true, featured: true }, post.id);
    expect(res.data).toMatchObject({ ok: true, message: "Post updated successfully", id: post.id });
    const [row] = await t.db.select().from(blogPosts).where(eq(blogPosts.id, post.id));
    expect(row).toMatchObject({ title: "Edited", authorId: admin.id, published: true, featured: true });
    expect(row!.updatedAt.getTime()).toBeGreaterThan(post.updatedAt.getTime());
  });

  it("says 'Failed to save post' when the post being edited is gone or the body is not JSON", async () => {
    expect(await save({ ...valid, slug: "gone" }, "6f1c7f0e-6a9b-4c7e-9d55-000000000000")).toMatchObject({
      status: 404,
      data: { error: "Failed to save post" },
    });
    const request = await requestAs(t.db, admin, "/admin/blog/new", { method: "POST", body: "{not json" });
    expect(await outcome(await editor.action(args(request)))).toMatchObject({ status: 400, data: { error: "Failed to save post" } });
  });

  it("returns the sanitized preview without saving anything", async () => {
    const request = await requestAs(t.db, admin, "/admin/blog/new", json({ intent: "preview", content: `<p onclick="x()">Hi</p><script>1</script>` }));
    const res = await outcome(await editor.action(args(request)));
    expect(res.data).toEqual({ preview: "<p>Hi</p>" });
    expect(await t.db.select().from(blogPosts)).toEqual([]);
  });
});

describe("admin blog: size of a post", () => {
  it("accepts 1 MB of content", async () => {
    const paragraph = `<p>${"Linen breathes. ".repeat(60)}</p>`;
    const content = paragraph.repeat(Math.ceil((1024 * 1024) / paragraph.length));
    expect(content.length).toBeGreaterThan(1024 * 1024);
    const res = await save({ ...valid, slug: "big", content });
    expect(res.data).toMatchObject({ ok: true, message: "Post created successfully" });
    const [row] = await t.db.select({ n: sql<number>`length(content)` }).from(blogPosts).where(eq(blogPosts.slug, "big"));
    expect(row!.n).toBe(content.length);
  });

  it("refuses 20 MB with a clear message, whether or not the length is declared", async () => {
    const body = JSON.stringify({ intent: "save", ...valid, slug: "huge", content: `<p>${"x".repeat(20 * 1024 * 1024)}</p>` });
    for (const headers of <Record<string, string>[]>[
      { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      { "content-type": "application/json" },
    ]) {
      const request = await requestAs(t.db, admin, "/admin/blog/new", { method: "POST", headers, body });
      const res = await outcome(await editor.action(args(request)));
      expect(res).toMatchObject({ status: 413, data: { ok: false, error: "This post is too large to save (the limit is 5 MB)" } });
    }
    expect(await t.db.select().from(blogPosts)).toEqual([]);
  });

  it("stops reading a body with no length that never ends, and answers 413", async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(120);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const request = await requestAs(t.db, admin, "/admin/blog/new", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: endless,
      duplex: "half",
    } as RequestInit);
    expect(request.headers.get("content-length")).toBeNull();
    const res = await outcome(await editor.action(args(request)));
    expect(res).toMatchObject({ status: 413, data: { error: MESSAGES.tooLarge } });
    // It read past the limit only to drain a little, then gave up: bounded, not the whole stream.
    expect(pulled).toBeLessThan(40 * 1024 * 1024);
  });
});

describe("admin blog: image uploads", () => {
  async function send(name: string, type: string, bytes: Buffer) {
    const form = new FormData();
    form.append("file", new File([new Uint8Array(bytes)], name, { type }));
    const request = await requestAs(t.db, admin, "/admin/blog/upload", { method: "POST", body: form });
    return outcome(await upload.action(args(request)));
  }

  it("stores PNG, BMP and ICO images as blog-images/<ms timestamp>.<ext> and answers their URL", async () => {
    for (const [name, type, bytes] of [
      ["photo.png", "image/png", await makePng(40, 30)],
      ["old.bmp", "image/bmp", makeBmp(8, 8, [200, 30, 30])],
      ["icon.ico", "image/x-icon", makeIco(16, [0, 120, 200, 255])],
    ] as const) {
      const res = await send(name, type, bytes);
      expect(res.status, name).toBe(200);
      expect(res.data.url).toMatch(/^\/media\/blog-images\/\d{13}\.(png|jpg|gif|webp)$/);
    }
  });

  it("says 'Failed to upload image' with the reason for an SVG, a missing file or a GET", async () => {
    const svg = await send("x.svg", "image/svg+xml", SVG_IMAGE);
    expect(svg).toMatchObject({ status: 400, data: { error: "Failed to upload image" } });
    expect(svg.data.reason).toMatch(/SVG/);
    const request = await requestAs(t.db, admin, "/admin/blog/upload", { method: "POST", body: new FormData() });
    expect(await outcome(await upload.action(args(request)))).toMatchObject({ status: 400, data: { error: "Failed to upload image" } });
    const get = await outcome(await upload.loader(args(await requestAs(t.db, admin, "/admin/blog/upload"))));
    expect(get.status).toBe(405);
  });
});
