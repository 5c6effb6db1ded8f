import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/lean/button";
import type { ProductCardData } from "~/lib/product";

type PageData = { items: ProductCardData[]; hasMore: boolean };

/**
 * Product lists that grow a page at a time from /api/products. `params` are the list's filters
 * (without `page`); `nextPage` is the first page not yet shown. Remount (key) on new filters.
 */
export function useLoadMore(opts: { initial: ProductCardData[]; hasMore: boolean; params: URLSearchParams; nextPage: number }) {
  const fetcher = useFetcher<PageData>();
  const [state, setState] = useState({ items: opts.initial, hasMore: opts.hasMore, nextPage: opts.nextPage });
  // Only the answer to our own click counts: a fetcher revalidated after some form's action
  // brings the same page again and must not be appended twice.
  const pending = useRef<number | null>(null);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || pending.current === null) return;
    const data = fetcher.data;
    pending.current = null;
    setState((s) => {
      const seen = new Set(s.items.map((p) => p.id));
      return {
        items: [...s.items, ...data.items.filter((p) => !seen.has(p.id))],
        hasMore: data.hasMore,
        nextPage: s.nextPage + 1,
      };
    });
  }, [fetcher.state, fetcher.data]);

  const loadMore = () => {
    if (fetcher.state !== "idle") return;
    const params = new URLSearchParams(opts.params);
    params.set("page", String(state.nextPage));
    pending.current = state.nextPage;
    void fetcher.load(`/api/products?${params.toString()}`);
  };

  return { ...state, loading: fetcher.state !== "idle", loadMore };
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
      <Button type="submit" variant="outline" size="lg" disabled={loading} aria-busy={loading}>
        {loading ? "Loading..." : "Load More"}
      </Button>
    </form>
  );
}
