
/**
 * The /shop URL and the header's search (docs/rules/storefront.md): apart from ./product so the
 * header, on every page, carries only these.
 */

/** Longer search terms are cut here; a 1,000-character term still works. */
export const SEARCH_MAX_LENGTH = 1000;

/**
 * A search term as the shop uses it: control characters (a NUL byte, which PostgreSQL cannot
 * hold in text, tabs, line breaks) become spaces; trimmed; at most SEARCH_MAX_LENGTH characters.
 */
export function cleanSearchTerm(raw: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (raw ?? "").replace(/[\u0000-\u001f\u007f]+/g, " ").trim().slice(0, SEARCH_MAX_LENGTH);
}

/** /shop's orders (their labels are SHOP_SORTS in ./shop-sorts). */
export type ShopSort = "featured" | "name" | "price-low" | "price-high" | "rating";
export const DEFAULT_SORT: ShopSort = "featured";

export type ShopFilters = { search: string; category: string | null; sort: ShopSort };

/**
 * The /shop query string for these filters, written as docs/rules/storefront.md asks: `category` is
 * omitted for all categories and `sort` for the default (featured); an empty search is omitted.
 */
export function shopSearchParams(filters: ShopFilters, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.search) params.set("search", filters.search);
  if (filters.category) params.set("category", filters.category);
  if (filters.sort !== DEFAULT_SORT) params.set("sort", filters.sort);
  if (page > 1) params.set("page", String(page));
  return params;
}

export function shopHref(filters: ShopFilters, page = 1): string {
  const qs = shopSearchParams(filters, page).toString();
  return qs ? `/shop?${qs}` : "/shop";
}

/** The header's search target: trimmed and encoded; an empty or blank term goes to plain /shop. */
export function searchHref(term: string): string {
  return shopHref({ search: cleanSearchTerm(term), category: null, sort: DEFAULT_SORT });
}
