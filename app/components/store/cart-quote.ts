import { useCallback, useEffect, useRef, useState } from "react";
import { cartStore, MAX_LINE_QUANTITY, type CartItem } from "~/lib/cart";
import type { CartReview, DiscountReview, Quote, ReviewedLine, ShippingReview } from "~/lib/pricing-view";

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

/** Besides the lines, what the quote depends on: the address (checkout), the code, the rate, the email. */
export type QuoteContext = {
  country?: string;
  state?: string;
  zipCode?: string;
  code?: string;
  rateId?: string;
  email?: string;
};

function queryOf(items: CartItem[], context: QuoteContext) {
  const lines = items
    .map((i) => `${i.id}:${i.quantity}`)
    .sort()
    .join(",");
  const params = new URLSearchParams({ lines });
  const add = (name: string, value: string | undefined) => {
    if (value?.trim()) params.set(name, value.trim());
  };
  add("country", context.country);
  add("state", context.state);
  add("zip", context.zipCode);
  add("code", context.code);
  add("rate", context.rateId);
  add("email", context.email);
  return { lines, query: params.toString() };
}

/** Changes wait this long, so typing an address or clicking + several times asks once. */
const DEBOUNCE_MS = 150;

/**
 * Asks the shop (GET /api/cart/quote) for the cart as it stands whenever its lines, quantities
 * or pricing context change: live names, prices and stock go into the cart, each line is flagged
 * when it can no longer be bought as it is, and the quote, shipping options and discount verdict
 * are what the summary shows. The browser adds up nothing; until the quote for the current cart
 * arrives the summary shows it is loading.
 */
export function useCartQuote(items: CartItem[], context: QuoteContext = {}) {
  const [review, setReview] = useState<{ query: string; value: CartReview } | null>(null);
  const [priceChanges, setPriceChanges] = useState<Record<string, number>>({});
  const [failed, setFailed] = useState(false);
  const [version, setVersion] = useState(0);
  const { lines, query } = queryOf(items, context);
  const latest = useRef(items);
  latest.current = items;
  const hasReview = review !== null;

  useEffect(() => {
    if (!lines) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/cart/quote?${query}`, { signal: controller.signal, headers: { Accept: "application/json" } })
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
          setReview({ query, value });
          setFailed(false);
          if (JSON.stringify(updated) !== JSON.stringify(latest.current)) cartStore.replace(updated);
        })
        .catch((err: Error) => {
          // Offline or the shop is briefly down: the cart still works and the checkout re-checks everything.
          if (err.name !== "AbortError") setFailed(true);
        });
    }, hasReview ? DEBOUNCE_MS : 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // `hasReview` only sets the first request's delay; asking again when it changes would repeat it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const current = review && review.query === query ? review.value : null;
  const reviewed = new Map<string, ReviewedLine>((review?.value.lines ?? []).map((l) => [l.id, l]));
  const totals = new Map((current?.quote.lines ?? []).map((l) => [l.productId, l.lineTotalCents]));
  const flags: Record<string, LineFlag> = {};
  for (const item of items) {
    const line = reviewed.get(item.id);
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
  // The latest answers about shipping and the code stay on screen while a newer quote loads.
  const shipping: ShippingReview | null = review?.value.shipping ?? null;
  const discount: DiscountReview | null = current ? current.discount : null;
  // The last answer, whatever it was asked about: the summary draws its rows, not its figures,
  // while a newer quote loads, so nothing on the page moves under the shopper's pointer.
  const lastQuote: Quote | null = review?.value.quote ?? null;
  return { flags, quote, lastQuote, shipping, discount, taxPending: current?.taxPending ?? false, failed, blocked, reload };
}

/** Highest quantity a line may have: the shop's word on its stock, never above the cart's cap. */
export const maxQuantity = (flag: LineFlag | undefined) => flag?.maxQuantity ?? MAX_LINE_QUANTITY;

export type CartQuote = ReturnType<typeof useCartQuote>;
