import { useCallback, useEffect, useRef, useState } from "react";
import { cartStore, MAX_LINE_QUANTITY, type CartItem } from "~/lib/cart";
import type { CartReview, Quote, ReviewedLine } from "~/lib/pricing-view";

/** What the shop said about a line when the page asked again. */
export type LineFlag = {
  unavailable?: boolean;
  priceChangedFrom?: number;
  /** Too little stock for the quantity asked: 0 when out of stock. */
  shortOf?: number;
  /** The most this cart may hold of it (the stock when counted). */
  maxQuantity?: number;
  /** The line's total in the current quote. */
  lineTotalCents?: number;
};

const cartKey = (items: CartItem[]) =>
  items
    .map((i) => `${i.id}:${i.quantity}`)
    .sort()
    .join(",");

/** Quantity changes wait this long, so typing or clicking + several times asks once. */
const DEBOUNCE_MS = 150;

/**
 * Asks the shop (GET /api/cart/quote) for the cart as it stands whenever its lines or quantities
 * change: live names, prices and stock go into the cart, each line is flagged when it can no
 * longer be bought as it is, and the quote is what the summary shows. The browser adds up
 * nothing; until the quote for the current cart arrives the summary shows it is loading.
 */
export function useCartQuote(items: CartItem[]) {
  const [review, setReview] = useState<{ key: string; value: CartReview } | null>(null);
  const [priceChanges, setPriceChanges] = useState<Record<string, number>>({});
  const [failed, setFailed] = useState(false);
  const [version, setVersion] = useState(0);
  const key = cartKey(items);
  const latest = useRef(items);
  latest.current = items;

  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/cart/quote?lines=${encodeURIComponent(key)}`, { signal: controller.signal, headers: { Accept: "application/json" } })
        .then((res) => (res.ok ? (res.json() as Promise<CartReview>) : Promise.reject(new Error(String(res.status)))))
        .then((value) => {
          const byId = new Map(value.lines.map((l) => [l.id, l]));
          const changed: Record<string, number> = {};
          const updated = latest.current.map((item) => {
            const line = byId.get(item.id);
            if (!line || !line.available) return item;
            if (line.priceCents !== item.priceCents) changed[item.id] = item.priceCents;
            const { name, priceCents, imageUrl, unlimitedStock, stockQuantity } = line;
            return { ...item, name, priceCents, imageUrl, unlimitedStock, stockQuantity };
          });
          // A price seen changing stays flagged for the page view, even after the cart takes it.
          if (Object.keys(changed).length) setPriceChanges((prev) => ({ ...changed, ...prev }));
          setReview({ key, value });
          setFailed(false);
          if (JSON.stringify(updated) !== JSON.stringify(latest.current)) cartStore.replace(updated);
        })
        .catch((err: Error) => {
          // Offline or the shop is briefly down: the cart still works and the checkout re-checks everything.
          if (err.name !== "AbortError") setFailed(true);
        });
    }, review ? DEBOUNCE_MS : 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // `review` only decides the first request's delay; asking again when it changes would loop.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const current = review && review.key === key ? review.value : null;
  const lines = new Map<string, ReviewedLine>((review?.value.lines ?? []).map((l) => [l.id, l]));
  const totals = new Map((current?.quote.lines ?? []).map((l) => [l.productId, l.lineTotalCents]));
  const flags: Record<string, LineFlag> = {};
  for (const item of items) {
    const line = lines.get(item.id);
    const flag: LineFlag = {};
    if (priceChanges[item.id] !== undefined) flag.priceChangedFrom = priceChanges[item.id];
    if (line && !line.available) flag.unavailable = true;
    if (line?.available) {
      flag.maxQuantity = line.maxQuantity;
      // The shop's verdict counts for the quantity it was asked about.
      if (line.quantity === item.quantity && line.problem) flag.shortOf = line.stockQuantity;
    }
    const total = totals.get(item.id);
    if (total !== undefined) flag.lineTotalCents = total;
    flags[item.id] = flag;
  }
  const blocked = items.some((i) => flags[i.id]?.unavailable || flags[i.id]?.shortOf !== undefined);
  const quote: Quote | null = current?.quote ?? null;
  return { flags, quote, failed, blocked, reload };
}

/** Highest quantity a line may have: the shop's word on its stock, never above the cart's cap. */
export const maxQuantity = (flag: LineFlag | undefined) => flag?.maxQuantity ?? MAX_LINE_QUANTITY;
