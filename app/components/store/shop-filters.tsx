import { Search } from "~/components/ui/lean/icons/search";
import { Button } from "~/components/ui/lean/button";
import { Input } from "~/components/ui/lean/input";
import { Label } from "~/components/ui/lean/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/lean/native-select";
import { SEARCH_MAX_LENGTH, type ShopFilters } from "~/lib/product";
import { SHOP_SORTS } from "~/lib/shop-sorts";
import { shopFilterEvents } from "./shop-filter-events";

/**
 * /shop's search box, category and sort. A plain GET form (the server tidies its URL); with
 * JavaScript a change applies at once and the URL is written directly.
 */
export function ShopFiltersForm({
  filters,
  categories,
  onChange,
}: {
  filters: ShopFilters;
  categories: string[];
  onChange: (filters: ShopFilters) => void;
}) {
  return (
    <form
      method="get"
      action="/shop"
      role="search"
      aria-label="Filter products"
      className="mt-6 grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto_auto_auto] sm:items-end"
      {...shopFilterEvents(categories, onChange)}
    >
      <div className="grid gap-1.5">
        <Label htmlFor="shop-search">Search products</Label>
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            id="shop-search"
            name="search"
            type="search"
            placeholder="Search by name, description or category"
            defaultValue={filters.search}
            maxLength={SEARCH_MAX_LENGTH}
            className="pl-9"
          />
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="shop-category">Category</Label>
        <NativeSelect id="shop-category" name="category" defaultValue={filters.category ?? "all"} wrapperClassName="w-full sm:w-48">
          <NativeSelectOption value="all">All Categories</NativeSelectOption>
          {categories.map((c) => (
            <NativeSelectOption key={c} value={c}>
              {c}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="shop-sort">Sort by</Label>
        <NativeSelect id="shop-sort" name="sort" defaultValue={filters.sort} wrapperClassName="w-full sm:w-52">
          {SHOP_SORTS.map((s) => (
            <NativeSelectOption key={s.value} value={s.value}>
              {s.label}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit">Apply</Button>
    </form>
  );
}
