import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { blogPosts } from "~/server/platform/db/schema";
import { eq, sql } from "drizzle-orm";
import { HTML_PAGE, SVG_IMAGE } from "../factories/images";
import { makePost, makePosts } from "../factories/posts";
import { asAdmin } from "../factories/users";
import { XSS_PAYLOADS } from "../integration/blog-xss-payloads";
import { useShop } from "./harness";
import { hydrated, scriptsRefusedByCsp, seeToast, slow } from "./page-helpers";

/** Inside `root`, everything that could run script; empty when safe. Runs in the page. */
function unsafeIn(page: Page, selector: string) {
  return page.locator(selector).evaluate((root) => {
    const bad: string[] = [];
    for (const el of [root, ...root.querySelectorAll("*")]) {
      const tag = el.tagName.toLowerCase();
      // Our own icons are inline SVG (lucide); any other SVG is not.
      if (tag === "svg" && !el.classList.contains("lucide")) bad.push("<svg>");
      if (["script", "style", "math", "object", "embed", "form", "input", "meta", "link", "base", "template"].includes(tag)) {
        bad.push(`<${tag}>`);
      }
      for (const attr of el.getAttributeNames()) {
        if (attr.startsWith("on") || attr === "srcdoc" || attr === "srcset") bad.push(`${tag}[${attr}]`);
      }
      const href = el.getAttribute("href");
      if (href !== null && !/^(https?:|mailto:|tel:|\/[^/]|#)/i.test(href.trim())) bad.push(`href=${href}`);
      if (tag === "iframe" && !/^https:\/\/(www\.youtube\.com\/embed\/|player\.vimeo\.com\/video\/)/.test(el.getAttribute("src") ?? "")) {
        bad.push(`iframe ${el.getAttribute("src")}`);
      }
      if (tag === "img" && /^(data|javascript):/i.test(el.getAttribute("src") ?? "")) bad.push(`img ${el.getAttribute("src")}`);
      const style = el.getAttribute("style") ?? "";
      if (/url\(|expression|position|binding/i.test(style)) bad.push(`style ${style}`);
    }
    return bad;
  });
}

describe("blog: storefront", { timeout: 120_000 }, () => {
  const shop = useShop();

  it("loads more on a blog of 30 posts, 12 at a time, featured first, at most 3 tags a card", async () => {
    const base = Date.parse("2026-03-01T12:00:00Z");
    await makePosts(shop.db, 30, (i) => ({
      title: `Paged post ${String(i + 1).padStart(2, "0")}`,
      createdAt: new Date(base + i * 60_000),
      featured: i === 0,
      tags: i === 29 ? ["one", "two", "three", "four", "five"] : ["one"],
    }));
    await makePost(shop.db, { title: "Hidden draft", published: false, createdAt: new Date(base + 3600_000) });

    const page = slow(await shop.newPage());
    await page.goto("/blog");
    const cards = page.locator("main article");
    await page.getByRole("heading", { level: 1, name: "Blog" }).waitFor();
    expect(await cards.count()).toBe(12);
    expect(await cards.first().getByRole("heading").innerText()).toBe("Paged post 01");
    expect(await cards.nth(1).getByRole("heading").innerText()).toBe("Paged post 30");
    expect(await cards.nth(1).getByText(/^(one|two|three|four|five)$/).count()).toBe(3);

    const more = page.getByRole("button", { name: "Load More Posts" });
    // The button works through the page's script, which starts after the first paint.
    await hydrated(page);
    await more.click();
    await page.waitForFunction(() => document.querySelectorAll("main article").length === 24);
    await more.click();
    await page.waitForFunction(() => document.querySelectorAll("main article").length === 30);
    await more.waitFor({ state: "detached" });
    const titles = await cards.getByRole("heading").allInnerTexts();
    expect(new Set(titles).size).toBe(30);
    expect(titles).not.toContain("Hidden draft");

    // Without the page's script (not yet run, or none), the button opens the list's next page.
    const context = await page.context().browser()!.newContext({ baseURL: shop.baseUrl, javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.goto("/blog");
    await plain.getByRole("button", { name: "Load More Posts" }).click();
    await plain.waitForURL((u) => u.pathname === "/blog" && u.search === "?page=2");
    const second = await plain.locator("main article").getByRole("heading").allInnerTexts();
    expect(second).toHaveLength(12);
    expect(second.filter((t) => titles.slice(12, 24).includes(t))).toHaveLength(12);
    await context.close();
  });

  it("serves a post with its <title>, description, canonical link, Open Graph and JSON-LD; 404 'Post Not Found' otherwise", async () => {
    await makePost(shop.db, {
      slug: "seo-post",
      title: "The SEO post",
      excerpt: "Excerpt text",
      metaTitle: "Meta title here",
      metaDescription: "Meta description here",
      featuredImageUrl: "/media/blog-images/1.png",
      tags: ["care"],
    });
    await makePost(shop.db, { slug: "a-draft", published: false });
    const res = await fetch(`${shop.baseUrl}/blog/seo-post`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<title>Meta title here — Linen &amp; Loft</title>");
    expect(html).toContain('<meta name="description" content="Meta description here"/>');
    expect(html).toContain(`<link rel="canonical" href="${shop.baseUrl}/blog/seo-post"/>`);
    expect(html).toContain(`<meta property="og:image" content="${shop.baseUrl}/media/blog-images/1.png"/>`);
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html);
    expect(JSON.parse(ld![1]!)).toMatchObject({ "@type": "BlogPosting", headline: "The SEO post", description: "Meta description here" });
    expect(html).toContain('href="/blog"');

    for (const slug of ["a-draft", "never-existed"]) {
      const missing = await fetch(`${shop.baseUrl}/blog/${slug}`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain("Post Not Found");
    }
    const feed = await fetch(`${shop.baseUrl}/blog/rss.xml`);
    expect(feed.headers.get("content-type")).toContain("application/rss+xml");
    expect(await feed.text()).toContain(`<link>${shop.baseUrl}/blog/seo-post</link>`);
  });

  it("never loads Quill or its stylesheet on the storefront", async () => {
    const post = await makePost(shop.db, { slug: "no-quill" });
    const page = slow(await shop.newPage());
    const loaded: string[] = [];
    page.on("request", (r) => loaded.push(r.url()));
    await page.goto("/blog");
    await page.goto(`/blog/${post.slug}`);
    await page.waitForLoadState("networkidle");
    expect(loaded.filter((u) => /\/assets\/.*quill/i.test(u)), loaded.join("\n")).toEqual([]);
    expect(loaded.some((u) => /\/assets\//.test(u))).toBe(true);
    const sheets = await page.evaluate(() => [...document.styleSheets].map((s) => [...s.cssRules].map((r) => r.cssText).join("\n")).join("\n"));
    expect(sheets).not.toContain(".ql-snow");
    expect(sheets).toContain(".post-content");

    // The same check sees Quill where it belongs: the admin editor.
    const admin = slow(await asAdmin(shop));
    const adminLoaded: string[] = [];
    admin.on("request", (r) => adminLoaded.push(r.url()));
    await admin.goto("/admin/blog/new");
    await admin.locator(".ql-editor").waitFor();
    expect(adminLoaded.some((u) => /\/assets\/.*quill/i.test(u))).toBe(true);
  });

  it("renders none of the XSS payloads on the storefront or in the admin preview", async () => {
    // Written straight to the table, past the save-time sanitizer: rendering must still be safe.
    const content = XSS_PAYLOADS.map((p) => `<p>before</p>${p.replace(/\u0000/g, "")}`).join("\n");
    const evil = XSS_PAYLOADS[0]!;
    const post = await makePost(shop.db, {
      slug: "xss-everything",
      title: `Title ${evil}`,
      excerpt: `Excerpt ${evil}`,
      tags: [evil, `<img src=x onerror="window.__xss=1">`],
      metaTitle: `</title><script>window.__xss=1</script>`,
      metaDescription: `"><script>window.__xss=1</script>`,
      content,
    });

    const page = slow(await shop.newPage());
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`/blog/${post.slug}`);
    await page.getByRole("heading", { level: 1, name: `Title ${evil}` }).waitFor();
    await page.locator(".post-content").hover();
    expect(await unsafeIn(page, ".post-content")).toEqual([]);
    expect(await unsafeIn(page, "main")).toEqual([]);
    expect(await page.title()).toContain("</title><script>");
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    // Every script the server sends is ours (allowed by the policy: the rendering's nonce, or
    // its hash when the page comes from the page cache) or the JSON-LD data block; fetched twice
    // so both the fresh rendering and the cached one are checked (the browser's visit above
    // cached it: a touch of the post makes the next one fresh).
    await shop.db.update(blogPosts).set({ updatedAt: sql`now()` }).where(eq(blogPosts.id, post.id));
    for (const expected of ["miss", "hit"]) {
      const res = await fetch(`${shop.baseUrl}/blog/${post.slug}`);
      expect(res.headers.get("x-page-cache")).toBe(expected);
      const html = await res.text();
      expect([...html.matchAll(/<script\b([^>]*)>/gi)].length).toBeGreaterThan(0);
      const refused = scriptsRefusedByCsp(html, res.headers.get("content-security-policy") ?? "");
      expect(refused.filter((attrs) => !attrs.includes('type="application/ld+json"'))).toEqual([]);
    }

    const admin = slow(await asAdmin(shop));
    admin.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await admin.goto(`/admin/blog/${post.id}/edit`);
    await admin.locator(".ql-editor").waitFor();
    expect(await unsafeIn(admin, ".ql-editor")).toEqual([]);
    await admin.getByRole("button", { name: "Preview" }).click();
    const preview = admin.getByRole("article", { name: "Post preview" });
    await preview.locator(".post-content").waitFor();
    await preview.hover();
    expect(await unsafeIn(admin, "[aria-label='Post preview']")).toEqual([]);
    expect(await admin.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});

describe("blog: admin messages", { timeout: 120_000 }, () => {
  const shop = useShop();

  it("shows dates like 'Nov 22, 2026', and says 'Failed to update post' / 'Failed to delete post' for a post deleted elsewhere", async () => {
    const post = await makePost(shop.db, { title: "Gone soon", createdAt: new Date("2026-11-22T15:00:00Z") });
    const page = slow(await asAdmin(shop));
    await page.goto("/admin/blog");
    const card = page.getByRole("listitem").filter({ hasText: "Gone soon" });
    await card.getByText("Nov 22, 2026").waitFor();
    await shop.db.delete(blogPosts).where(eq(blogPosts.id, post.id));
    await page.getByRole("button", { name: 'Unpublish "Gone soon"' }).click();
    await seeToast(page, "Failed to update post");
    await page.getByRole("button", { name: 'Delete "Gone soon"' }).click();
    await page.getByRole("alertdialog", { name: "Delete Post" }).getByRole("button", { name: "Delete", exact: true }).click();
    await seeToast(page, "Failed to delete post");
  });

  it("says 'Failed to fetch posts' when the list cannot be read", async () => {
    const page = slow(await asAdmin(shop));
    await shop.db.execute(sql`alter table blog_posts rename to blog_posts_away`);
    try {
      await page.goto("/admin/blog");
      await seeToast(page, "Failed to fetch posts");
      await page.getByRole("alert").getByText("Failed to fetch posts").waitFor();
    } finally {
      await shop.db.execute(sql`alter table blog_posts_away rename to blog_posts`);
    }
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("heading", { name: "Blog Management" }).waitFor();
    await page.getByRole("alert").waitFor({ state: "detached" });
  });

  it("fits a 360 px wide screen: the blog, a post and the editor", async () => {
    await makePost(shop.db, { slug: "narrow", content: `<p class="ql-indent-8">${"word ".repeat(50)}</p><pre>${"x".repeat(300)}</pre>` });
    const page = slow(await asAdmin(shop));
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ["/blog", "/blog/narrow", "/admin/blog", "/admin/blog/new"]) {
      await page.goto(path);
      if (path.endsWith("/new")) await page.locator(".ql-editor").waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(360);
    }
  });

  it("says 'Failed to load post for editing' and returns to the list", async () => {
    const page = slow(await asAdmin(shop));
    await page.goto("/admin/blog/00000000-0000-4000-8000-000000000000/edit");
    await seeToast(page, "Failed to load post for editing");
    await page.waitForURL((u) => u.pathname === "/admin/blog");
    await page.getByRole("heading", { name: "Blog Management" }).waitFor();
  });

  it("says 'You must be logged in to save posts' when the session ended, and keeps the text", async () => {
    const page = slow(await asAdmin(shop));
    await page.goto("/admin/blog/new");
    await page.locator(".ql-editor").click();
    await page.keyboard.type("Words worth keeping");
    await page.getByLabel("Title *").fill("Signed out while writing");
    await page.context().clearCookies();
    await page.getByRole("button", { name: "Save Post" }).click();
    await seeToast(page, "You must be logged in to save posts");
    expect(await page.locator(".ql-editor").innerText()).toContain("Words worth keeping");
    expect(await shop.db.select().from(blogPosts).where(eq(blogPosts.title, "Signed out while writing"))).toEqual([]);
  });

  it("says 'A post with this slug already exists', then 'Failed to save post' when the post was deleted meanwhile", async () => {
    await makePost(shop.db, { slug: "taken-slug" });
    const mine = await makePost(shop.db, { slug: "mine", title: "Mine" });
    const page = slow(await asAdmin(shop));
    await page.goto(`/admin/blog/${mine.id}/edit`);
    await page.locator(".ql-editor").waitFor();
    await page.getByLabel("URL Slug *").fill("Taken Slug");
    await page.getByRole("button", { name: "Save Post" }).click();
    await seeToast(page, "A post with this slug already exists");
    await shop.db.delete(blogPosts).where(eq(blogPosts.id, mine.id));
    await page.getByLabel("URL Slug *").fill("mine-again");
    await page.getByRole("button", { name: "Save Post" }).click();
    await seeToast(page, "Failed to save post");
    await page.getByRole("heading", { name: "Edit Post" }).waitFor();
  });

  it("says 'Failed to upload image' for an SVG or a page pretending to be an image", async () => {
    const page = slow(await asAdmin(shop));
    await page.goto("/admin/blog/new");
    for (const [name, mimeType, buffer] of [
      ["logo.svg", "image/svg+xml", SVG_IMAGE],
      ["photo.png", "image/png", HTML_PAGE],
    ] as const) {
      const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Upload Image" }).click()]);
      await chooser.setFiles({ name, mimeType, buffer });
      await seeToast(page, "Failed to upload image");
    }
    expect(await page.getByRole("img", { name: "Featured image preview" }).count()).toBe(0);
  });

  it("accepts 1 MB of content from the editor and refuses 20 MB with a clear message", async () => {
    const page = slow(await asAdmin(shop));
    await page.goto("/admin/blog/new");
    const editor = page.locator(".ql-editor");
    await editor.waitFor();
    await page.getByLabel("Title *").fill("A very long read");
    const paragraph = `<p>${"Linen breathes and softens with every wash. ".repeat(40)}</p>`;
    const big = paragraph.repeat(Math.ceil((1024 * 1024) / paragraph.length));
    await editor.evaluate((root, html) => {
      const data = new DataTransfer();
      data.setData("text/html", html);
      data.setData("text/plain", "x");
      root.focus();
      root.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }, big);
    await page.waitForFunction(() => (document.querySelector(".ql-editor")?.textContent?.length ?? 0) > 1_000_000);
    await page.getByRole("button", { name: "Save Post" }).click();
    await seeToast(page, "Post created successfully");
    const [row] = await shop.db.select().from(blogPosts).where(eq(blogPosts.slug, "a-very-long-read"));
    expect(row!.content.length).toBeGreaterThan(1024 * 1024);

    // 20 MB straight at the server (past the editor's own check): refused while it is read.
    const res = await page.request.post("/admin/blog/new.data", {
      headers: { "content-type": "application/json", origin: shop.baseUrl },
      data: JSON.stringify({ intent: "save", title: "Huge", slug: "huge", content: `<p>${"x".repeat(20 * 1024 * 1024)}</p>` }),
    });
    const text = await res.text();
    expect(text).toContain("This post is too large to save (the limit is 5 MB)");
    expect(await shop.db.select().from(blogPosts).where(eq(blogPosts.slug, "huge"))).toEqual([]);
  }, 120_000);
});
