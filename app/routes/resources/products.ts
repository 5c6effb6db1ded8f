import type { ProductCardPage } from "~/lib/catalog-view";
import { FEATURED_PAGE_SIZE, parsePage, SHOP_PAGE_SIZE } from "~/lib/product";
import { listFeaturedProducts, listShopProducts, parseShopFilters } from "~/server/catalog/index.server";
import { storefrontDb } from "~/server/platform/http/index.server";
import { shopCategoryNames, shopListingReads } from "~/routes/_edge/remembered.server";
import type { Route } from "./+types/products";

/** Deep offsets are still index walks, but nobody clicks Load More ten thousand times. */
const MAX_PAGE = 10_000;

/**
 * 'Load More' for the home featured list (`?list=featured&page=N`, 15 a page) and the /shop
 * grid (`?search=&category=&sort=&page=N`, 24 a page): one page of product cards as JSON.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const page = parsePage(params.get("page"), MAX_PAGE);
  const db = storefrontDb();
  if (params.get("list") === "featured") {
    const result = await listFeaturedProducts(db, { offset: (page - 1) * FEATURED_PAGE_SIZE, limit: FEATURED_PAGE_SIZE });
    return Response.json(result satisfies ProductCardPage, { headers: { "Cache-Control": "no-cache" } });
  }
  const filters = parseShopFilters(params, await shopCategoryNames());
  const { items, hasMore } = await listShopProducts(
    db,
    filters,
    { offset: (page - 1) * SHOP_PAGE_SIZE, limit: SHOP_PAGE_SIZE },
    shopListingReads,
  );
  return Response.json({ items, hasMore } satisfies ProductCardPage, { headers: { "Cache-Control": "no-cache" } });
}
