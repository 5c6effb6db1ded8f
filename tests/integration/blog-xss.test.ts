import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as editor from "~/routes/admin/blog/editor";
import * as blogPost from "~/routes/blog/post";
import { sanitizePostHtml } from "~/server/content/blog/sanitize.server";
import { blogPosts } from "~/server/platform/db/schema";
import { useTestDatabase } from "../setup/database";
import { makeAdmin, requestAs, type TestUser } from "../factories/users";
import { args, outcome } from "./blog-helpers";
import { findUnsafe, XSS_PAYLOADS } from "./blog-xss-payloads";

const t = useTestDatabase();
let admin: TestUser;
beforeAll(async () => {
  admin = await makeAdmin(t.db);
});

async function action(body: Record<string, unknown>) {
  const request = await requestAs(t.db, admin, "/admin/blog/new", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return outcome(await editor.action(args(request)));
}

describe("XSS payloads through save and render", () => {
  it("has at least 30 payloads, and the checker catches every one of them raw", () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(30);
    // Proves the checker can see danger: unsanitized, each payload is flagged.
    for (const payload of XSS_PAYLOADS) expect(findUnsafe(payload), payload).not.toEqual([]);
  });

  it.each(XSS_PAYLOADS.map((p, i) => [i, p] as const))("payload %i is stored and rendered harmless", async (i, payload) => {
    const slug = `xss-${i}`;
    const saved = await action({
      intent: "save",
      title: `Title ${payload}`.slice(0, 200),
      slug,
      excerpt: payload,
      content: `<p>Before</p>${payload}<p>After</p>`,
      tags: [payload.slice(0, 50), "safe"],
      metaTitle: payload.slice(0, 60),
      metaDescription: payload.slice(0, 160),
      published: true,
    });
    expect(saved.data, payload).toMatchObject({ ok: true });

    const [row] = await t.db.select().from(blogPosts).where(eq(blogPosts.slug, slug));
    expect(findUnsafe(row!.content), `stored: ${row!.content}`).toEqual([]);
    // (An unclosed <style> or <textarea> swallows what follows it, so only "Before" is certain.)
    expect(row!.content).toContain("<p>Before</p>");

    const page = await outcome(await blogPost.loader(args(new Request(`http://localhost:3000/blog/${slug}`), { slug })));
    expect(page.status).toBe(200);
    expect(findUnsafe(page.data.post.content), `rendered: ${page.data.post.content}`).toEqual([]);

    const preview = await action({ intent: "preview", content: payload });
    expect(findUnsafe(preview.data.preview), `preview: ${preview.data.preview}`).toEqual([]);
  });

  it("keeps what the editor makes: formats, colours, alignment, safe links, images and embeds", () => {
    const quill = [
      `<h1>One</h1><h6>Six</h6>`,
      `<p class="ql-align-center ql-direction-rtl ql-indent-2">x</p>`,
      `<p><strong>b</strong><em>i</em><u>u</u><s>s</s><sub>2</sub><sup>3</sup></p>`,
      `<p><span style="color: rgb(230, 0, 0); background-color: rgb(255, 255, 0);">c</span></p>`,
      `<blockquote>q</blockquote><pre>\nconst a = 1;\n</pre>`,
      `<ol><li>1</li></ol><ul><li class="ql-indent-1">b</li></ul>`,
      `<p><a href="https://example.com" rel="noopener noreferrer" target="_blank">l</a><a href="mailto:a@example.com">m</a><a href="tel:+15551234">t</a></p>`,
      `<p><img src="/media/blog-images/1732262400000.png"></p>`,
      `<iframe class="ql-video" frameborder="0" allowfullscreen="true" src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>`,
    ].join("");
    const out = sanitizePostHtml(quill);
    for (const piece of [
      "<h1>One</h1>",
      "<h6>Six</h6>",
      `<p class="ql-align-center ql-direction-rtl ql-indent-2">x</p>`,
      "<sub>2</sub><sup>3</sup>",
      `style="color:rgb(230, 0, 0);background-color:rgb(255, 255, 0)"`,
      "<blockquote>q</blockquote>",
      "<pre>\nconst a = 1;\n</pre>",
      `<li class="ql-indent-1">b</li>`,
      `<a href="https://example.com" target="_blank" rel="noopener noreferrer">l</a>`,
      `<a href="mailto:a@example.com">m</a>`,
      `<a href="tel:+15551234">t</a>`,
      `<img src="/media/blog-images/1732262400000.png" />`,
      `src="https://www.youtube.com/embed/dQw4w9WgXcQ"`,
    ]) {
      expect(out).toContain(piece);
    }
    expect(sanitizePostHtml(out)).toBe(out);
  });

  it("turns YouTube and Vimeo page links in frames into embed addresses", () => {
    expect(sanitizePostHtml(`<iframe src="https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1"></iframe>`)).toContain(
      `src="https://www.youtube.com/embed/dQw4w9WgXcQ"`,
    );
    expect(sanitizePostHtml(`<iframe src="https://youtu.be/dQw4w9WgXcQ"></iframe>`)).toContain(
      `src="https://www.youtube.com/embed/dQw4w9WgXcQ"`,
    );
    expect(sanitizePostHtml(`<iframe src="https://vimeo.com/76979871"></iframe>`)).toContain(
      `src="https://player.vimeo.com/video/76979871"`,
    );
  });
});
