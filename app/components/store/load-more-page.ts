import type { ProductCardPage } from "~/lib/catalog-view";
import type { ProductCardData } from "~/lib/product";

type ListState = { items: ProductCardData[]; hasMore: boolean; nextPage: number };

/**
 * The next page of a product list from /api/products (useLoadMore in ./load-more, which loads
 * this on the first 'Load More'): throws when it cannot be had, and answers how the list grows,
 * skipping products it already shows.
 */
export async function fetchNextPage(listParams: URLSearchParams, page: number): Promise<(s: ListState) => ListState> {
  const params = new URLSearchParams(listParams);
  params.set("page", String(page));
  const res = await fetch(`/api/products?${params.toString()}`, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`status ${res.status}`);
  const data = (await res.json()) as ProductCardPage;
  return (s) => {
    const seen = new Set(s.items.map((p) => p.id));
    return { items: [...s.items, ...data.items.filter((p) => !seen.has(p.id))], hasMore: data.hasMore, nextPage: s.nextPage + 1 };
  };
}
