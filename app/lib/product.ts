/** Browser-safe product helpers shared by the storefront pages, the cart and the server. */

// The /shop URL helpers live in ./shop-url, which every page's header loads without the rest of this file.
export { cleanSearchTerm, DEFAULT_SORT, SEARCH_MAX_LENGTH, searchHref, shopHref, shopSearchParams, type ShopFilters, type ShopSort } from "./shop-url";

/** Shown when a product has no usable image (docs/rules/catalogue-data.md, Product). */
export const FALLBACK_PRODUCT_IMAGE = "/images/product-placeholder.svg";

/** The home featured list shows 15 and each 'load more' adds 15 (docs/rules/storefront.md, Home). */
export const FEATURED_PAGE_SIZE = 15;
/** /shop pages its grid 24 at a time, so a large catalogue stays fast (docs/rules/storefront.md). */
export const SHOP_PAGE_SIZE = 24;
/** A no-JavaScript "Load More" link renders every page up to this one in a single document. */
export const MAX_RENDERED_PAGES = 20;

// /shop's sort labels (SHOP_SORTS, isShopSort) are in ./shop-sorts: only /shop's filters and the server read them.

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
  /**
   * On a reduced product, its lowest price in the 30 days before the reduction began
   * (docs/rules/lowest-price.md); null or absent: no line is shown.
   */
  lowestPriceCents?: number | null;
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

/** A positive page number from the URL; anything else is page 1. */
export function parsePage(value: string | null, max = Number.MAX_SAFE_INTEGER): number {
  if (!value || !/^\d{1,6}$/.test(value)) return 1;
  return Math.min(Math.max(1, Number(value)), max);
}
