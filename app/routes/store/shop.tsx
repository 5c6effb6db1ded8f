import type { ComponentProps } from "react";
import { data, redirect, useNavigate } from "react-router";
import { LoadMoreButton, useLoadMore } from "~/components/store/load-more";
import { ProductGrid } from "~/components/store/product-grid";
import { kept } from "~/components/kept";
import type { ShopFiltersForm as DrawnFilters } from "~/components/store/shop-filters";
import { shopFilterEvents } from "~/components/store/shop-filter-events";
import { Button } from "~/components/ui/lean/button";
import { groupDigits } from "~/lib/money";
import {
  DEFAULT_SORT,
  MAX_RENDERED_PAGES,
  parsePage,
  SHOP_PAGE_SIZE,
  shopHref,
  shopSearchParams,
  type ShopFilters,
} from "~/lib/product";
import { seoMeta, brandFrom } from "~/lib/seo";
import { SEARCH_RESULTS_HEADER } from "~/server/insight/index.server";
import { listShopProducts, parseShopFilters } from "~/server/catalog/index.server";
import { storefrontDb } from "~/server/platform/http/index.server";
import { shopCategoryNames, shopListingReads } from "~/routes/_edge/remembered.server";
import { absoluteUrl } from "~/server/content/index.server";
import type { Route } from "./+types/shop";

/**
 * The filter form the server drew is kept as drawn (components/kept.tsx): its events are handled
 * around it, and its code loads once the filters change (the form is then drawn afresh).
 */
const ShopFiltersForm = kept<ComponentProps<typeof DrawnFilters>>(
  () => import("~/components/store/shop-filters").then((m) => m.ShopFiltersForm),
  ({ categories, onChange }) => shopFilterEvents(categories, onChange),
);

const OWN_PARAMS = ["search", "category", "sort", "page"] as const;

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const db = storefrontDb();
  const categories = await shopCategoryNames();
  const filters = parseShopFilters(url.searchParams, categories);
  const page = parsePage(url.searchParams.get("page"), MAX_RENDERED_PAGES);

  // The GET form without JavaScript sends `category=all`, `sort=featured`, padded terms; garbage
  // values fall back to defaults. Either way, answer with the canonical URL (docs/rules/storefront.md).
  const canonical = shopSearchParams(filters, page);
  if (OWN_PARAMS.some((k) => url.searchParams.get(k) !== canonical.get(k))) {
    const target = new URLSearchParams(url.searchParams);
    for (const k of OWN_PARAMS) target.delete(k);
    for (const [k, v] of canonical) target.set(k, v);
    const qs = target.toString();
    throw redirect(qs ? `/shop?${qs}` : "/shop");
  }

  const result = await listShopProducts(db, filters, { offset: 0, limit: page * SHOP_PAGE_SIZE }, shopListingReads);
  return data(
    {
      filters,
      categories,
      page,
      result,
      // Listing pages are canonical per category; search results and sort orders are not.
      canonical: absoluteUrl(shopHref({ search: "", category: filters.category, sort: DEFAULT_SORT })),
    },
    // What the search found, for the visit counter's search terms (kept with a cached page too).
    filters.search ? { headers: { [SEARCH_RESULTS_HEADER]: String(result.total) } } : undefined,
  );
}

export function headers({ parentHeaders, loaderHeaders }: Route.HeadersArgs) {
  const headers = new Headers(parentHeaders);
  const found = loaderHeaders.get(SEARCH_RESULTS_HEADER);
  if (found !== null) headers.set(SEARCH_RESULTS_HEADER, found);
  return headers;
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const brand = brandFrom(matches);
  const filters = data?.filters;
  const title = filters?.search
    ? `Search results for “${filters.search.slice(0, 60)}” — ${brand}`
    : filters?.category
      ? `${filters.category} — Shop All Products — ${brand}`
      : `Shop All Products — ${brand}`;
  return seoMeta({
    title,
    description: filters?.category
      ? `Shop ${filters.category.toLowerCase()} at ${brand}: browse, search and sort the collection.`
      : `Browse every product at ${brand}: bedding, furniture, decor and accessories. Search, filter by category and sort.`,
    canonical: data?.canonical,
    siteName: brand,
    noindex: Boolean(filters?.search),
  });
};

function countText(total: number, capped: boolean): string {
  if (capped) return `${groupDigits(total)}+ products found`;
  return `${groupDigits(total)} ${total === 1 ? "product" : "products"} found`;
}

function isFiltered(f: ShopFilters) {
  return Boolean(f.search) || f.category !== null || f.sort !== DEFAULT_SORT;
}

/** The product listing, /shop (docs/rules/storefront.md). */
export default function Shop({ loaderData }: Route.ComponentProps) {
  const { filters, categories, result, page } = loaderData;
  const navigate = useNavigate();
  const query = shopSearchParams(filters).toString();
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Shop All Products</h1>
      {/* Keys differ between siblings: a duplicate key leaves stale elements behind. */}
      <ShopFiltersForm
        key={`filters?${query}`}
        filters={filters}
        categories={categories}
        onChange={(next) => navigate(shopHref(next))}
      />
      <div className="mt-6 mb-4 flex flex-wrap items-center justify-between gap-3">
        <p role="status" className="text-sm text-muted-foreground">
          {countText(result.total, result.totalIsCapped)}
        </p>
        {isFiltered(filters) ? (
          // A GET form to plain /shop: a real button that works before JavaScript loads.
          <form method="get" action="/shop" onSubmit={(e) => (e.preventDefault(), navigate("/shop"))}>
            <Button type="submit" variant="ghost" size="sm">
              Clear Filters
            </Button>
          </form>
        ) : null}
      </div>
      <ShopResults key={`results?${query}`} filters={filters} initial={result.items} hasMore={result.hasMore} page={page} />
    </div>
  );
}

function ShopResults({
  filters,
  initial,
  hasMore,
  page,
}: {
  filters: ShopFilters;
  initial: Route.ComponentProps["loaderData"]["result"]["items"];
  hasMore: boolean;
  page: number;
}) {
  const params = shopSearchParams(filters);
  const list = useLoadMore({ initial, hasMore, params, nextPage: page + 1 });
  const filtered = Boolean(filters.search) || filters.category !== null;
  return (
    <>
      <h2 className="sr-only">Products</h2>
      <ProductGrid
        products={list.items}
        eagerCount={4}
        empty={filtered ? "No products match your search or filters." : undefined}
      />
      {list.hasMore ? (
        <LoadMoreButton
          action="/shop"
          params={params}
          nextPage={list.nextPage}
          loading={list.loading}
          onLoadMore={list.loadMore}
        />
      ) : null}
    </>
  );
}
