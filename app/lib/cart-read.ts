import { useSyncExternalStore } from "react";

/**
 * The cart as the page reads it: the stored lines, checked, and their count, shared by every
 * component and every tab. What every storefront page needs (the header's count) and nothing
 * more; changing the cart (./cart, which builds on this) loads when the shopper first does.
 */

/** A cart line (docs/rules/cart-and-checkout.md, The cart). Prices are cents here too; the server re-prices everything at checkout. */
export type CartItem = {
  id: string;
  name: string;
  priceCents: number;
  imageUrl: string;
  unlimitedStock: boolean;
  stockQuantity: number;
  quantity: number;
};

export const CART_STORAGE_KEY = "shopping-cart";
export const MAX_LINE_QUANTITY = 99;

const isCount = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): v is number =>
  Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;

/**
 * One stored line, checked by hand rather than with zod: every page loads this (the header's
 * count), and zod would add about 24 KB gzip to each first visit. Required fields must
 * be right; the display-only ones fall back.
 */
function parseStoredItem(entry: unknown): CartItem | null {
  if (!entry || typeof entry !== "object") return null;
  const e = entry as Record<string, unknown>;
  if (typeof e.id !== "string" || e.id.length < 1 || e.id.length > 100) return null;
  if (typeof e.name !== "string" || e.name.length > 500) return null;
  if (!isCount(e.priceCents, 0) || !isCount(e.quantity, 1, MAX_LINE_QUANTITY)) return null;
  return {
    id: e.id,
    name: e.name,
    priceCents: e.priceCents,
    imageUrl: typeof e.imageUrl === "string" && e.imageUrl.length <= 5000 ? e.imageUrl : "",
    unlimitedStock: typeof e.unlimitedStock === "boolean" ? e.unlimitedStock : false,
    stockQuantity: isCount(e.stockQuantity, 0) ? e.stockQuantity : 0,
    quantity: e.quantity,
  };
}

/** Foreign or corrupt content under the key is ignored item by item, never a crash. */
export function parseStoredCart(raw: string | null): CartItem[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  const list = Array.isArray(value) ? value : (value as { items?: unknown })?.items;
  if (!Array.isArray(list)) return [];
  const seen = new Set<string>();
  const items: CartItem[] = [];
  for (const entry of list.slice(0, 200)) {
    const item = parseStoredItem(entry);
    if (item && !seen.has(item.id)) {
      seen.add(item.id);
      items.push(item);
    }
  }
  return items;
}

export const cartItemCount = (items: CartItem[]) => items.reduce((sum, i) => sum + i.quantity, 0);

// ----- the store: localStorage, shared by every component and every tab -----

type Listener = () => void;
const listeners = new Set<Listener>();
let cache: { raw: string | null; items: CartItem[] } = { raw: null, items: [] };
const EMPTY: CartItem[] = [];

export function readCart(): CartItem[] {
  if (typeof window === "undefined") return EMPTY;
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(CART_STORAGE_KEY);
  } catch {
    return EMPTY;
  }
  if (raw !== cache.raw) cache = { raw, items: parseStoredCart(raw) };
  return cache.items;
}

/** Stores the lines; every reader of the cart renders again. */
export function writeCart(items: CartItem[]) {
  const raw = JSON.stringify(items);
  try {
    window.localStorage.setItem(CART_STORAGE_KEY, raw);
  } catch {
    // Storage full or blocked: the cart still works for this page view.
  }
  cache = { raw, items };
  listeners.forEach((l) => l());
}

export function subscribeToCart(listener: Listener) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === CART_STORAGE_KEY || e.key === null) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** Changes made in this tab (not those from other tabs): what the signed-in cart saves (cart-sync.ts). */
export function onLocalCartChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The cart's lines. Empty during server rendering. */
export function useCartItems(): CartItem[] {
  return useSyncExternalStore(subscribeToCart, readCart, () => EMPTY);
}

/** How many items the cart holds (the header's count). */
export function useCartItemCount(): number {
  return cartItemCount(useCartItems());
}

/** Whose saved cart this device's cart follows, and what was last saved (cart-sync.ts); absent: a guest's cart. */
export const CART_OWNER_KEY = "shopping-cart-owner";

/**
 * Signed out (or the session ended) after following a signed-in shopper's cart: the device keeps
 * no trace of it (docs/rules/after-sale.md, The cart of a signed-in shopper). A guest's cart is untouched.
 */
export function forgetSignedInCart() {
  try {
    if (window.localStorage.getItem(CART_OWNER_KEY) === null) return;
    window.localStorage.removeItem(CART_OWNER_KEY);
  } catch {
    return;
  }
  dropStashedCart();
  writeCart([]);
}

// ----- what the checkout keeps beside the cart (./cart and ./discount-code use them) -----

export const CHECKOUT_STASH_KEY = "shopping-cart-checkout";
export const CHECKOUT_ID_KEY = "shopping-cart-checkout-id";
export const DISCOUNT_KEY = "shopping-cart-discount";

/** The order is paid: the copy must never come back, and the next cart is a new checkout. */
export function dropStashedCart() {
  try {
    window.localStorage.removeItem(CHECKOUT_STASH_KEY);
    window.localStorage.removeItem(CHECKOUT_ID_KEY);
    window.localStorage.removeItem(DISCOUNT_KEY);
  } catch {
    // Nothing to drop.
  }
}
