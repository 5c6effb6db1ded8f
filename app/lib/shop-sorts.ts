import type { ShopSort } from "./shop-url";

/**
 * /shop's orders with their labels: what its sort box lists and the server accepts. Apart from
 * ./product, whose helpers the product page and the home page load too (docs/decisions/0022-…).
 */
export const SHOP_SORTS = [
  { value: "featured", label: "Featured" },
  { value: "name", label: "Name A-Z" },
  { value: "price-low", label: "Price: Low to High" },
  { value: "price-high", label: "Price: High to Low" },
  { value: "rating", label: "Highest Rated" },
] as const satisfies readonly { value: ShopSort; label: string }[];
// Every ShopSort (./shop-url) has its label here: a sort added there alone fails to compile.
const everySortLabelled: [Exclude<ShopSort, (typeof SHOP_SORTS)[number]["value"]>] extends [never] ? true : never = true;
void everySortLabelled;

export function isShopSort(value: unknown): value is ShopSort {
  return SHOP_SORTS.some((s) => s.value === value);
}
