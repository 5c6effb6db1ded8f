/**
 * The surrogate keys (Fastly, Varnish: `Surrogate-Key`; Cloudflare: `Cache-Tag`) of the storefront
 * pages a CDN may keep, and what the change log's rows purge (docs/decisions/0037). Both sides
 * use one vocabulary:
 *
 * - `shop`: every storefront page. Purged when the log cannot say what changed (a truncate, an
 *   old row) or after an outage longer than the log's hour.
 * - `settings`: every storefront page too (the header, footer, theme, hero, the free-shipping
 *   line and the withdrawal link come from site settings and shipping rates).
 * - `listing`: the pages that list products (home, /shop with any search, filter or sort).
 * - `products`: every product page (a category's rename shows on them); `product:<id>`: one.
 * - `blog`: the blog's list pages; `posts`: every post page; `post:<slug>`: one post's page.
 *
 * The pages are the page cache's (app/server/platform/http/page-cache.server.ts, CACHEABLE), with
 * their `.data` requests: the same loaders, so the same keys.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A slug as the blog allows it (docs/rules/blog.md): safe inside a header and a ban's regex. */
const SLUG = /^[a-z0-9-]{1,200}$/;

/** The keys of a storefront page a CDN may keep, by its path; null: not such a page. */
export function surrogateKeysOf(path: string): string[] | null {
  const every = ["shop", "settings"];
  if (/^\/(?:_root\.data)?$/.test(path) || /^\/shop(?:\.data)?$/.test(path)) return [...every, "listing"];
  if (/^\/(?:cart|contact)(?:\.data)?$/.test(path)) return every;
  if (/^\/blog(?:\.data)?$/.test(path)) return [...every, "blog"];
  const product = /^\/product\/([^/]+?)(?:\.data)?$/.exec(path);
  if (product) return UUID.test(product[1]!) ? [...every, "products", `product:${product[1]!.toLowerCase()}`] : null;
  const post = /^\/blog\/([^/]+?)(?:\.data)?$/.exec(path);
  if (post && post[1] !== "rss.xml") return SLUG.test(post[1]!) ? [...every, "posts", `post:${post[1]}`] : null;
  return null;
}

/** What one tag may look like: the change log's triggers and the keys above make nothing else. */
export const TAG = /^[a-z]+(?::[a-z0-9-]{1,200})?$/;
