import { asc, desc, eq, sql } from "drizzle-orm";
import { blogPosts, type Db, products } from "../../platform/index.server";
import { absoluteUrl } from "./seo.server";

/** The sitemap protocol allows 50,000 URLs per file; bigger shops get a sitemap index. */
export const SITEMAP_MAX_URLS = 50_000;

/** Pages every shop has, in the order a visitor meets them. */
export const FIXED_PAGES = ["/", "/shop", "/blog", "/contact", "/privacy", "/accessibility"] as const;

type Entry = { loc: string; lastmod?: Date };

function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);
}

function urlset(entries: Entry[]): string {
  const urls = entries.map((e) => {
    const lastmod = e.lastmod ? `<lastmod>${e.lastmod.toISOString()}</lastmod>` : "";
    return `<url><loc>${escapeXml(absoluteUrl(e.loc))}</loc>${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

function sitemapIndex(locs: string[]): string {
  const items = locs.map((loc) => `<sitemap><loc>${escapeXml(absoluteUrl(loc))}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join("\n")}\n</sitemapindex>\n`;
}

async function pageEntries(db: Db): Promise<Entry[]> {
  const posts = await db
    .select({ slug: blogPosts.slug, updatedAt: blogPosts.updatedAt })
    .from(blogPosts)
    .where(eq(blogPosts.published, true))
    .orderBy(desc(blogPosts.createdAt))
    .limit(SITEMAP_MAX_URLS - FIXED_PAGES.length);
  return [
    ...FIXED_PAGES.map((loc) => ({ loc })),
    ...posts.map((p) => ({ loc: `/blog/${encodeURIComponent(p.slug)}`, lastmod: p.updatedAt })),
  ];
}

async function productEntries(db: Db, offset: number, limit: number): Promise<Entry[]> {
  const rows = await db
    .select({ id: products.id, updatedAt: products.updatedAt })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(asc(products.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ loc: `/product/${r.id}`, lastmod: r.updatedAt }));
}

export type SitemapPart = { part: "pages" } | { part: "products"; page: number } | { part: "all" };

/**
 * The XML for /sitemap.xml: one urlset (fixed pages, published posts, active products) while
 * it fits in 50,000 URLs; otherwise an index of `?part=pages` and `?part=products&page=N`.
 * Returns null for a part that does not exist.
 */
export async function renderSitemap(db: Db, which: SitemapPart): Promise<string | null> {
  if (which.part === "pages") return urlset(await pageEntries(db));
  if (which.part === "products") {
    const entries = await productEntries(db, (which.page - 1) * SITEMAP_MAX_URLS, SITEMAP_MAX_URLS);
    return entries.length || which.page === 1 ? urlset(entries) : null;
  }
  const [pages, [count]] = await Promise.all([
    pageEntries(db),
    db.select({ n: sql<number>`count(*)::int` }).from(products).where(eq(products.active, true)),
  ]);
  const productCount = count?.n ?? 0;
  if (pages.length + productCount <= SITEMAP_MAX_URLS) {
    return urlset([...pages, ...(await productEntries(db, 0, productCount))]);
  }
  const productParts = Math.ceil(productCount / SITEMAP_MAX_URLS);
  return sitemapIndex([
    "/sitemap.xml?part=pages",
    ...Array.from({ length: productParts }, (_, i) => `/sitemap.xml?part=products&page=${i + 1}`),
  ]);
}
