import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { cartStore, MAX_LINE_QUANTITY, type CartItem } from "~/lib/cart";

type RefreshLine =
  | { id: string; available: false }
  | { id: string; available: true; name: string; priceCents: number; imageUrl: string; unlimitedStock: boolean; stockQuantity: number };

/** What the shop said about a line when the page loaded it again. */
export type LineFlag = { unavailable?: boolean; priceChangedFrom?: number };

const noop = () => () => {};
/** False during server rendering and the first client render, true after hydration. */
export function useHydrated() {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}

/** Highest quantity a line may have: the stock when it is tracked, never above the cart's cap. */
export const maxQuantity = (item: CartItem) =>
  item.unlimitedStock ? MAX_LINE_QUANTITY : Math.max(0, Math.min(MAX_LINE_QUANTITY, item.stockQuantity));

/**
 * Reloads the cart's products from the shop (GET /api/cart/refresh) when the page opens and when
 * its products change: live prices, names and stock go into the cart, and each line remembers for
 * this page view whether it became unavailable or changed price.
 */
export function useCartRefresh(items: CartItem[]) {
  const [flags, setFlags] = useState<Record<string, LineFlag>>({});
  const [refreshed, setRefreshed] = useState(false);
  const [version, setVersion] = useState(0);
  const ids = items.map((i) => i.id).sort().join(",");
  const latest = useRef(items);
  latest.current = items;

  useEffect(() => {
    if (!ids) return;
    const controller = new AbortController();
    fetch(`/api/cart/refresh?ids=${encodeURIComponent(ids)}`, { signal: controller.signal, headers: { Accept: "application/json" } })
      .then((res) => (res.ok ? (res.json() as Promise<{ lines: RefreshLine[] }>) : Promise.reject(new Error(String(res.status)))))
      .then(({ lines }) => {
        const byId = new Map(lines.map((l) => [l.id, l]));
        const next: Record<string, LineFlag> = {};
        const updated = latest.current.map((item) => {
          const line = byId.get(item.id);
          if (!line) return item;
          if (!line.available) {
            next[item.id] = { unavailable: true };
            return item;
          }
          if (line.priceCents !== item.priceCents) next[item.id] = { priceChangedFrom: item.priceCents };
          const { available: _available, id: _id, ...live } = line;
          return { ...item, ...live };
        });
        setFlags((prev) => {
          const merged: Record<string, LineFlag> = {};
          for (const item of updated) {
            // A price seen changing stays flagged for the page view, even after the cart takes it.
            const flag = { ...(prev[item.id]?.priceChangedFrom !== undefined ? { priceChangedFrom: prev[item.id]!.priceChangedFrom } : {}), ...next[item.id] };
            if (Object.keys(flag).length) merged[item.id] = flag;
          }
          return merged;
        });
        if (JSON.stringify(updated) !== JSON.stringify(latest.current)) cartStore.replace(updated);
        setRefreshed(true);
      })
      .catch((err: Error) => {
        // Offline or the shop is briefly down: the cart still works and the checkout re-checks everything.
        if (err.name !== "AbortError") setRefreshed(false);
      });
    return () => controller.abort();
  }, [ids, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const blocked = items.some((i) => flags[i.id]?.unavailable || (refreshed && !i.unlimitedStock && i.quantity > i.stockQuantity));
  return { flags, refreshed, blocked, reload };
}
