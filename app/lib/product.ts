/** Browser-safe product helpers shared by the storefront pages, the cart and the server. */

/** Shown when a product has no usable image (docs/rules/catalogue-data.md, Product). */
export const FALLBACK_PRODUCT_IMAGE = "/images/product-placeholder.svg";

/** The home featured list shows 15 and each 'load more' adds 15 (docs/rules/storefront.md, Home). */
export const FEATURED_PAGE_SIZE = 15;
/** /shop pages its grid 24 at a time, so a large catalogue stays fast (docs/rules/storefront.md). */
export const SHOP_PAGE_SIZE = 24;
/** A no-JavaScript "Load More" link renders every page up to this one in a single document. */
export const MAX_RENDERED_PAGES = 20;
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

export const SHOP_SORTS = [
  { value: "featured", label: "Featured" },
  { value: "name", label: "Name A-Z" },
  { value: "price-low", label: "Price: Low to High" },
  { value: "price-high", label: "Price: High to Low" },
  { value: "rating", label: "Highest Rated" },
] as const;
export type ShopSort = (typeof SHOP_SORTS)[number]["value"];
export const DEFAULT_SORT: ShopSort = "featured";

export function isShopSort(value: unknown): value is ShopSort {
  return SHOP_SORTS.some((s) => s.value === value);
}

/** What a product card shows; prices are integer cents. */
export type ProductCardData = {
  id: string;
  name: string;
  priceCents: number;
  originalPriceCents: number | null;
  imageUrl: string;
  rating: number;
  reviewCount: number;
  colors: string[];
  /** A CSS colour for each of `colors`, in the same order (worked out on the server: server/catalog/swatches.server.ts). */
  swatches: string[];
  unlimitedStock: boolean;
  stockQuantity: number;
};

export type ProductDetailData = ProductCardData & {
  description: string;
  category: string;
  sku: string;
  updatedAt: string;
};

const HTTP_URL = /https?:\/\/[^\s"'<>|]+/i;

/**
 * `image_url` may hold several addresses in one string (docs/rules/catalogue-data.md); the first http(s) URL wins,
 * then a path on this site (uploads are served from /media/...), then the fallback image.
 */
export function firstImageUrl(imageUrl: string | null | undefined): string {
  const raw = (imageUrl ?? "").trim();
  if (!raw) return FALLBACK_PRODUCT_IMAGE;
  const match = HTTP_URL.exec(raw);
  if (match) {
    // Lists are separated by ", " or ";" — a comma inside a URL (image CDNs use them) stays.
    const url = match[0].split(/,(?=https?:\/\/)/i)[0]!.replace(/[,;]+$/, "");
    return url;
  }
  const local = raw.split(/[\s,;|]+/).find((part) => part.startsWith("/") && !part.startsWith("//"));
  return local ?? FALLBACK_PRODUCT_IMAGE;
}

/** Add to Cart is disabled when stock is not unlimited and the quantity is 0 or missing (docs/rules/storefront.md). */
export function canAddToCart(p: { unlimitedStock: boolean; stockQuantity: number | null | undefined }): boolean {
  return p.unlimitedStock || (typeof p.stockQuantity === "number" && p.stockQuantity > 0);
}

/** The original price is struck through only when it exceeds the price (docs/rules/storefront.md). */
export function isOnSale(p: { priceCents: number; originalPriceCents: number | null }): boolean {
  return p.originalPriceCents !== null && p.originalPriceCents > p.priceCents;
}

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

/** A positive page number from the URL; anything else is page 1. */
export function parsePage(value: string | null, max = Number.MAX_SAFE_INTEGER): number {
  if (!value || !/^\d{1,6}$/.test(value)) return 1;
  return Math.min(Math.max(1, Number(value)), max);
}
