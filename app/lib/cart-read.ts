import { useSyncExternalStore } from "react";

/**
 * The cart as the page reads it: the stored lines, checked, and their count, shared by every
 * component and every tab. What every storefront page needs (the header's count) and nothing
 * more; changing the cart (./cart, which builds on this) loads when the shopper first does.
 * The checks on what is stored (./cart-parse) load only when something is stored: a first
 * visit, with no cart yet, never needs them.
 */

import { MAX_LINE_QUANTITY, type CartItem } from "./cart-item";

export { MAX_LINE_QUANTITY, type CartItem };

export const CART_STORAGE_KEY = "shopping-cart";

export const cartItemCount = (items: CartItem[]) => items.reduce((sum, i) => sum + i.quantity, 0);

// ----- the store: localStorage, shared by every component and every tab -----

type Listener = () => void;
const listeners = new Set<Listener>();
let cache: { raw: string | null; items: CartItem[] } = { raw: null, items: [] };
const EMPTY: CartItem[] = [];

type Parser = (raw: string | null) => CartItem[];
let parse: Parser | null = null;
let parserLoading = false;

/** Code that changes the cart calls this with ./cart-parse's parser as it loads; every reader renders again. */
export function installCartParser(parser: Parser) {
  if (parse === parser) return;
  parse = parser;
  cache = { raw: null, items: EMPTY };
  listeners.forEach((l) => l());
}

/**
 * The stored lines. Until the checks have loaded, a stored cart reads as empty and they are
 * fetched; its readers render again once they are in. Code that changes the cart installs
 * ./cart-parse itself as it loads, so what it reads here is always exact.
 */
export function readCart(): CartItem[] {
  if (typeof window === "undefined") return EMPTY;
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(CART_STORAGE_KEY);
  } catch {
    return EMPTY;
  }
  if (raw === cache.raw) return cache.items;
  if (raw && !parse) {
    if (!parserLoading) {
      parserLoading = true;
      import("./cart-parse").then(
        (m) => installCartParser(m.parseStoredCart),
        () => {
          parserLoading = false;
        },
      );
    }
    return cache.items;
  }
  cache = { raw, items: raw && parse ? parse(raw) : EMPTY };
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
