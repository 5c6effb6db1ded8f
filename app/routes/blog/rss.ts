import { listPostsForFeed, loadSiteSettings } from "~/server/content/index.server";
import { getDb, publicUrl, storefrontDb } from "~/server/platform/http/index.server";

function xml(text: string) {
  return (
    text
      // Characters XML 1.0 forbids would make the whole feed unreadable.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

/** RSS 2.0 feed of the newest published posts (docs/rules/blog.md). */
export async function loader() {
  const db = getDb();
  const [posts, settings] = await Promise.all([listPostsForFeed(storefrontDb(), 20), loadSiteSettings(db)]);
  const origin = publicUrl();
  const brand = settings.site_branding.logo_text;
  const items = posts
    .map((p) => {
      const link = `${origin}/blog/${encodeURIComponent(p.slug)}`;
      return [
        "    <item>",
        `      <title>${xml(p.title)}</title>`,
        `      <link>${xml(link)}</link>`,
        `      <guid isPermaLink="true">${xml(link)}</guid>`,
        `      <pubDate>${new Date(p.createdAt).toUTCString()}</pubDate>`,
        `      <description>${xml(p.excerpt)}</description>`,
        ...p.tags.map((t) => `      <category>${xml(t)}</category>`),
        "    </item>",
      ].join("\n");
    })
    .join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${xml(`${brand} Blog`)}</title>
    <link>${xml(`${origin}/blog`)}</link>
    <description>${xml(`Sleep advice, bedding care guides and home ideas from ${brand}.`)}</description>
    <language>en-us</language>
    <atom:link href="${xml(`${origin}/blog/rss.xml`)}" rel="self" type="application/rss+xml" />
${items}
  </channel>
</rss>
`;
  return new Response(body, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
