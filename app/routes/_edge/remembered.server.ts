import { listShopCategoryNames, lowestPricesBeforeReduction, readActiveCounts, type ListingReads } from "~/server/catalog/index.server";
import { getReturnsSetting } from "~/server/commerce/index.server";
import { loadSiteSettings } from "~/server/content/index.server";
import { getDb, rememberedRead, rememberedReadEach, storefrontDb } from "~/server/platform/http/index.server";

/**
 * What nearly every storefront request reads and almost never changes, remembered between
 * changes the storefront change log reports (platform/http/remembered-reads.server.ts). For
 * pages and their data requests only: a write, or a read inside a transaction, reads the table.
 */

/** The site settings the root loader hands every page. */
export const pageSiteSettings = () => rememberedRead("site-settings", () => loadSiteSettings(getDb()));

/** The returns setting, for the footer's withdrawal link. */
export const pageReturnsSetting = () => rememberedRead("returns-setting", () => getReturnsSetting(getDb()));

/** The active categories' names, which every listing's filters are read against. */
export const shopCategoryNames = () => rememberedRead("shop-category-names", () => listShopCategoryNames(storefrontDb()));

/**
 * What a listing's cards read beside their page: the active products per category ("N products
 * found") and each reduced product's lowest price before its reduction. Both change only with a
 * change to everything (a product added, removed, switched on or off, moved, repriced; a setting).
 */
export const shopListingReads: ListingReads = {
  activeCounts: () => rememberedRead("shop-active-counts", () => readActiveCounts(storefrontDb())),
  lowestPrices: (ids) => rememberedReadEach("lowest-price-before-reduction", ids, (missing) => lowestPricesBeforeReduction(storefrontDb(), missing)),
};
