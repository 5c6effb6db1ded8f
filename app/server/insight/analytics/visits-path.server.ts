/**
 * Which GET requests are storefront page views, and of which page (docs/rules/analytics.md,
 * Visits). Pure functions of the request's path and headers, so the middleware decides before
 * the answer is known and the answer only has to confirm it (200, HTML or navigation data).
 */

/** Longer paths are cut here: a 5,000-character URL never becomes a 5,000-character row. */
export const MAX_PATH_LENGTH = 200;

/** Not storefront pages: the admin, APIs and resources, files, the test payment page, health checks. */
const NOT_PAGES = /^\/(?:admin|api|resources|media|assets|resized|pay|healthz|readyz|__manifest)(?:[/.]|$)/i;
/** A file (robots.txt, sitemap.xml, /blog/rss.xml, favicon.ico…), not a page. */
const FILE = /\.[a-z0-9]{1,8}$/i;
const PRODUCT_PAGE = /^\/product\/[^/]+$/;

export type PageView = {
  /** The page's path, without query string, at most MAX_PATH_LENGTH characters. */
  path: string;
  /** A client-side navigation's data request (`/shop.data`, `/_root.data` for the home page). */
  data: boolean;
};

/**
 * The page a GET request would be a view of, or null when it is not a storefront page. A
 * client-side navigation fetches `<path>.data` instead of the page (`/_root.data` for `/`); it
 * is a view of `<path>`.
 */
export function pageViewOf(pathname: string): PageView | null {
  let path = pathname;
  let data = false;
  if (path === "/_root.data") {
    path = "/";
    data = true;
  } else if (path.endsWith(".data")) {
    path = path.slice(0, -".data".length);
    data = true;
    if (!path.startsWith("/") || path === "/") return null;
  }
  if (NOT_PAGES.test(path) || FILE.test(path)) return null;
  return { path: capPath(path), data };
}

export function capPath(path: string): string {
  return path.length > MAX_PATH_LENGTH ? path.slice(0, MAX_PATH_LENGTH) : path;
}

export const isProductPage = (path: string) => PRODUCT_PAGE.test(path);
export const isCheckoutPage = (path: string) => path === "/checkout";

/** React Router's own parameters on a data request, which are not part of the page's address. */
const ROUTER_PARAMS = ["_routes", "index"];

/** A query string without React Router's parameters, its keys in a stable order. */
function pageQuery(search: string): string {
  const params = new URLSearchParams(search);
  for (const p of ROUTER_PARAMS) params.delete(p);
  params.sort();
  return params.toString();
}

/**
 * Whether a navigation data request only reloads the page already shown: React Router fetches
 * `<path>.data` again after an action or a revalidation, and the browser's Referer (sent in full
 * to the same origin: Referrer-Policy strict-origin-when-cross-origin) is then that same page.
 * A navigation comes from another page, or from the same path with another query (a search).
 */
export function isSamePageReload(view: PageView, search: string, referer: string | undefined, host: string | undefined): boolean {
  if (!referer || !host) return false;
  let from: URL;
  try {
    from = new URL(referer);
  } catch {
    return false;
  }
  if (from.host !== host) return false;
  return capPath(from.pathname) === view.path && pageQuery(from.search) === pageQuery(search);
}

/** `<link rel=prefetch>` and speculative loads say so; a prefetch is not a view. */
export function isPrefetch(headers: Record<string, string | string[] | undefined>): boolean {
  const purpose = headers["sec-purpose"] ?? headers["purpose"];
  return typeof purpose === "string" && /prefetch|prerender/i.test(purpose);
}
