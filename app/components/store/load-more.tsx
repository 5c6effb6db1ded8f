import { useRef, useState } from "react";
import { Button } from "~/components/ui/lean/button";
import type { ProductCardData } from "~/lib/product";
import { toast } from "~/lib/toast";
import { ProductCard } from "./product-grid";

/** What a shopper sees when the next page cannot be loaded; the grid stays as it was (docs/rules/errors.md). */
export const LOAD_FAILED = { title: "Error", description: "Failed to load products" } as const;

/**
 * Product lists that grow a page at a time from /api/products. `params` are the list's filters
 * (without `page`); `nextPage` is the first page not yet shown. Remount (key) on new filters.
 * A plain fetch, not a fetcher: a failed page must become a toast, not the route's error page.
 */
export function useLoadMore(opts: { initial: ProductCardData[]; hasMore: boolean; params: URLSearchParams; nextPage: number }) {
  const [state, setState] = useState({ items: opts.initial, hasMore: opts.hasMore, nextPage: opts.nextPage });
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);

  const loadMore = async () => {
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    try {
      // Fetching and adding the page (./load-more-page) loads on the first click: a first visit
      // carries only the button. So does the card code (the first cards are kept as drawn): the
      // new cards then draw at once, never a gap while it loads.
      const { fetchNextPage } = await import("./load-more-page");
      const [next] = await Promise.all([fetchNextPage(opts.params, state.nextPage), ProductCard.preload()]);
      setState((s) => next(s));
    } catch {
      toast.error(LOAD_FAILED.title, { description: LOAD_FAILED.description });
    } finally {
      busy.current = false;
      setLoading(false);
    }
  };

  return { ...state, loading, loadMore: () => void loadMore() };
}

/**
 * 'Load More'. Without JavaScript it is a GET form to the page itself with `page=N`, which
 * renders every page up to N; with JavaScript it fetches just the next page.
 */
export function LoadMoreButton({
  action,
  params,
  nextPage,
  loading,
  onLoadMore,
}: {
  action: string;
  params: URLSearchParams;
  nextPage: number;
  loading: boolean;
  onLoadMore: () => void;
}) {
  return (
    <form
      method="get"
      action={action}
      className="mt-8 flex justify-center"
      onSubmit={(e) => {
        e.preventDefault();
        onLoadMore();
      }}
    >
      {[...params.entries()].map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="page" value={nextPage} />
      <Button
        type="submit"
        variant="outline"
        size="lg"
        disabled={loading}
        aria-busy={loading}
        // The card code the next page needs, fetched as the pointer or focus reaches the button.
        onPointerEnter={() => void ProductCard.preload().catch(() => {})}
        onFocus={() => void ProductCard.preload().catch(() => {})}
      >
        {loading ? "Loading..." : "Load More"}
      </Button>
    </form>
  );
}
