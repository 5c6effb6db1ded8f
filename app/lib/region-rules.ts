/**
 * The region rules a page needs without the ISO 3166-2 list itself (app/lib/regions.ts holds the
 * list, about 54 KB gzip, which only the checkout loads at once; docs/rules/addresses.md).
 */

export const CHOOSE_REGION_MESSAGE = "Choose a state or region from the list.";

/**
 * Countries whose addresses may leave the State field empty: UK addresses rarely carry a county,
 * though ISO lists the UK's. An empty region is still refused at checkout where the owner has a
 * region zone or a region tax rate for the country (docs/money-path.md, Regions).
 */
const REGION_MAY_BE_BLANK = new Set(["GB"]);

export function regionMayBeBlank(country: string): boolean {
  return REGION_MAY_BE_BLANK.has(country.trim().toUpperCase());
}
