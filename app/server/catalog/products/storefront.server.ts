import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import {
  DEFAULT_SORT,
  firstImageUrl,
  cleanSearchTerm,
  type ProductCardData,
  type ProductDetailData,
  type ShopFilters,
  type ShopSort,
} from "~/lib/product";
import { isShopSort } from "~/lib/shop-sorts";
import type { ProductCardPage } from "~/lib/catalog-view";
import { categories, type Db, productCounts, products } from "../../platform/index.server";
import { cardColumns, countedPageOfMatches, listingPage, orderBy, type CardRow } from "./listing-queries.server";
import { allowsTypos, enableTypos, literalMatch, typoOnlyMatch } from "./storefront-search.server";
import { swatchFor } from "./swatches.server";
import { type LowestPrices, withLowestPrices } from "./price-history.server";

/**
 * The storefront's reads: the home featured list, the /shop listing with search, category and
 * sort, and the product page. Only active products, everywhere (docs/rules/storefront.md, Visibility).
 */

/** Above this many matches a search reports "1,000+" instead of counting every row. */
export const SEARCH_COUNT_CAP = 1000;
/** Typo matches join only a short literal result: they rescue a misspelling, not pad a long list. */
const TYPO_WHEN_FEWER_THAN = 100;
/** Typo matches are dearer to check (word similarity per row), so they are counted to a lower cap. */
export const TYPO_COUNT_CAP = 200;



/** Only what a card shows reaches the page; the image is resolved once, here. */
export function toProductCard(row: CardRow): ProductCardData {
  return {
    id: row.id,
    name: row.name,
    priceCents: row.priceCents,
    originalPriceCents: row.originalPriceCents,
    imageUrl: firstImageUrl(row.imageUrl),
    rating: row.rating,
    reviewCount: row.reviewCount,
    colors: row.colors,
    swatches: row.colors.map(swatchFor),
    unlimitedStock: row.unlimitedStock,
    stockQuantity: row.stockQuantity,
  };
}

const isActive = eq(products.active, true);

export type Page = { offset: number; limit: number };

/** The home list (docs/rules/storefront.md): active, featured first, then newest. One row past the page tells whether more exist. */
export async function listFeaturedProducts(db: Db, page: Page): Promise<ProductCardPage> {
  const rows = await db
    .select(cardColumns)
    .from(products)
    .where(isActive)
    .orderBy(...orderBy("featured", products))
    .limit(page.limit + 1)
    .offset(page.offset);
  return { items: await withLowestPrices(db, rows.slice(0, page.limit).map(toProductCard)), hasMore: rows.length > page.limit };
}

/** The /shop category dropdown: active categories by name. */
export async function listShopCategoryNames(db: Db): Promise<string[]> {
  const rows = await db
    .select({ name: categories.name })
    .from(categories)
    .where(eq(categories.active, true))
    .orderBy(asc(categories.name));
  return rows.map((r) => r.name);
}

/**
 * Reads search, category and sort from the URL. Unknown or garbage values fall back to the
 * defaults (never an error); a category matches an active category's name in any case.
 */
export function parseShopFilters(params: URLSearchParams, activeCategories: string[]): ShopFilters {
  const search = cleanSearchTerm(params.get("search"));
  const wanted = (params.get("category") ?? "").trim().toLowerCase();
  const category = activeCategories.find((c) => c.toLowerCase() === wanted) ?? null;
  const sortParam = params.get("sort");
  const sort = isShopSort(sortParam) ? sortParam : DEFAULT_SORT;
  return { search, category, sort };
}

/**
 * Active products per category, kept exact by triggers (migration 0005): a listing's "N products
 * found" without counting the catalogue. The table has a row per category, so it is read whole;
 * a page may take it from memory (app/routes/_edge/remembered.server.ts), since every change to
 * it (a product added, removed, switched on or off, moved) marks every listing changed.
 */
export type ActiveCounts = ReadonlyMap<string, number>;

export async function readActiveCounts(db: Db): Promise<ActiveCounts> {
  const rows = await db.select({ category: productCounts.category, n: productCounts.activeCount }).from(productCounts);
  return new Map(rows.map((r) => [r.category, r.n]));
}

function activeTotal(counts: ActiveCounts, category: string | null): number {
  if (category !== null) return counts.get(category) ?? 0;
  let total = 0;
  for (const n of counts.values()) total += n;
  return total;
}

/** What a listing may take from memory instead of the tables (app/routes/_edge/remembered.server.ts). */
export type ListingReads = { activeCounts?: () => Promise<ActiveCounts>; lowestPrices?: LowestPrices };

export type ShopPage = {
  items: ProductCardData[];
  /** Products found; with `totalIsCapped` it is a lower bound ("1,000+"). */
  total: number;
  totalIsCapped: boolean;
  hasMore: boolean;
};

/**
 * The /shop grid. Without a search: the chosen sort over active products (optionally one
 * category) and an exact count. With a search: products containing every word of the term
 * (name, category or description, case-insensitive, literal) come first; when they are few,
 * products matching with a typo follow (storefront-search.server.ts); each group in the chosen sort. A
 * search counts up to SEARCH_COUNT_CAP, so a term matching half the catalogue costs no more
 * than a narrow one.
 */
export async function listShopProducts(db: Db, filters: ShopFilters, page: Page, reads: ListingReads = {}): Promise<ShopPage> {
  const base = filters.category ? and(isActive, eq(products.category, filters.category))! : isActive;

  if (!filters.search) {
    const [rows, counts] = await Promise.all([
      listingPage(db, filters.category, filters.sort, page.offset, page.limit + 1),
      reads.activeCounts ? reads.activeCounts() : readActiveCounts(db),
    ]);
    return {
      items: await withLowestPrices(db, rows.slice(0, page.limit).map(toProductCard), reads.lowestPrices),
      total: activeTotal(counts, filters.category),
      totalIsCapped: false,
      hasMore: rows.length > page.limit,
    };
  }

  const term = filters.search;
  const want = page.limit + 1;
  // One transaction: the search's statements share one connection, taken from the pool once (a
  // search taking it again for each statement waits in the pool's queue each time when it is
  // busy). The lowest prices are read after it: a remembered read may take a connection of its
  // own, and one taken while this one is held can wait for ever on a busy pool.
  const { exact, typoTotal, rows } = await db.transaction(
    async (tx) => {
      const exact = await countedPageOfMatches(tx, base, literalMatch(term), filters.sort, { offset: page.offset, limit: want }, SEARCH_COUNT_CAP);
      const rows = [...exact.rows];
      if (exact.total >= TYPO_WHEN_FEWER_THAN || !allowsTypos(term)) return { exact, typoTotal: 0, rows };
      // The typo threshold and the planner setting hold for the rest of this transaction.
      await enableTypos(tx);
      const typos = await countedPageOfMatches(
        tx,
        base,
        typoOnlyMatch(term),
        filters.sort,
        { offset: Math.max(0, page.offset - exact.total), limit: Math.max(0, want - rows.length) },
        TYPO_COUNT_CAP,
      );
      rows.push(...typos.rows);
      return { exact, typoTotal: typos.total, rows };
    },
    { accessMode: "read only" },
  );
  const exactCapped = exact.total > SEARCH_COUNT_CAP;
  return {
    items: await withLowestPrices(db, rows.slice(0, page.limit).map(toProductCard), reads.lowestPrices),
    total: exactCapped ? SEARCH_COUNT_CAP : exact.total + Math.min(typoTotal, TYPO_COUNT_CAP),
    totalIsCapped: exactCapped || typoTotal > TYPO_COUNT_CAP,
    hasMore: rows.length > page.limit,
  };
}

// Any 8-4-4-4-12 hex id PostgreSQL accepts; anything else would be a database error, not a 404.
const ProductId = z.guid();

/** The product page's product (docs/rules/storefront.md): by id where active. Anything else (not an id, missing, inactive) is null. */
export async function getStorefrontProduct(db: Db, id: string): Promise<ProductDetailData | null> {
  if (!ProductId.safeParse(id).success) return null;
  const [row] = await db
    .select({
      ...cardColumns,
      description: products.description,
      category: products.category,
      sku: products.sku,
      updatedAt: products.updatedAt,
    })
    .from(products)
    .where(and(eq(products.id, id), isActive));
  if (!row) return null;
  const [card] = await withLowestPrices(db, [toProductCard(row)]);
  return {
    ...card!,
    description: row.description,
    category: row.category,
    sku: row.sku,
    updatedAt: row.updatedAt.toISOString(),
  };
}
