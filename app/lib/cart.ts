import { useSyncExternalStore } from "react";

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
 * One stored line, checked by hand rather than with zod: every page loads the cart (the
 * header's count), and zod would add about 24 KB gzip to each first visit. Required fields must
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

// ----- pure cart rules (docs/rules/cart-and-checkout.md, The cart) -----

export function addItem(items: CartItem[], product: Omit<CartItem, "quantity">): CartItem[] {
  const existing = items.find((i) => i.id === product.id);
  if (existing) {
    return items.map((i) => (i.id === product.id ? { ...i, quantity: Math.min(i.quantity + 1, MAX_LINE_QUANTITY) } : i));
  }
  return [...items, { ...product, quantity: 1 }];
}

export function removeItem(items: CartItem[], id: string): CartItem[] {
  return items.filter((i) => i.id !== id);
}

/** 0, less, or a non-numeric value removes the line. */
export function updateQuantity(items: CartItem[], id: string, quantity: number | string): CartItem[] {
  const n = typeof quantity === "number" ? quantity : Number.parseInt(quantity, 10);
  if (!Number.isFinite(n) || n <= 0) return removeItem(items, id);
  return items.map((i) => (i.id === id ? { ...i, quantity: Math.min(Math.floor(n), MAX_LINE_QUANTITY) } : i));
}

export const cartItemCount = (items: CartItem[]) => items.reduce((sum, i) => sum + i.quantity, 0);

// ----- the store: localStorage, shared by every component and every tab -----

type Listener = () => void;
const listeners = new Set<Listener>();
let cache: { raw: string | null; items: CartItem[] } = { raw: null, items: [] };
const EMPTY: CartItem[] = [];

function read(): CartItem[] {
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

function write(items: CartItem[]) {
  const raw = JSON.stringify(items);
  try {
    window.localStorage.setItem(CART_STORAGE_KEY, raw);
  } catch {
    // Storage full or blocked: the cart still works for this page view.
  }
  cache = { raw, items };
  listeners.forEach((l) => l());
}

function subscribe(listener: Listener) {
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
  write([]);
}

export const cartStore = {
  getItems: read,
  add: (product: Omit<CartItem, "quantity">) => write(addItem(read(), product)),
  remove: (id: string) => write(removeItem(read(), id)),
  updateQuantity: (id: string, quantity: number | string) => write(updateQuantity(read(), id, quantity)),
  replace: (items: CartItem[]) => write(items),
  clear: () => write([]),
};

/** The cart: items and itemCount (docs/rules/cart-and-checkout.md). Empty during server rendering. */
export function useCart() {
  const items = useSyncExternalStore(subscribe, read, () => EMPTY);
  // No money total here: the cart's figures are the server's quote (GET /api/cart/quote).
  return { items, itemCount: cartItemCount(items), ...cartStore };
}

// ----- the cart while its payment is open -----

const CHECKOUT_STASH_KEY = "shopping-cart-checkout";

/**
 * The cart is cleared before the shopper leaves for the payment page (docs/rules/cart-and-checkout.md, What the checkout does); a copy
 * is kept so a cancelled or failed payment can give it back.
 */
export function stashCartForCheckout(items: CartItem[]) {
  try {
    window.localStorage.setItem(CHECKOUT_STASH_KEY, JSON.stringify(items));
  } catch {
    // Without storage the cart simply is not restored.
  }
}

/** Puts the stashed cart back when the cart is empty (never over a new cart); true if it did. */
export function restoreStashedCart(): boolean {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(CHECKOUT_STASH_KEY);
    window.localStorage.removeItem(CHECKOUT_STASH_KEY);
  } catch {
    return false;
  }
  const items = parseStoredCart(raw);
  if (!items.length || read().length) return false;
  write(items);
  return true;
}

// ----- the discount code the shopper applied: its store is in ./discount-code (the cart and checkout pages load it) -----

export const DISCOUNT_KEY = "shopping-cart-discount";

const CHECKOUT_ID_KEY = "shopping-cart-checkout-id";

/**
 * One id per cart until its order is paid, shared by every tab: with the cart and form it makes
 * the checkout's idempotency key, so two tabs submitting the same cart get the same order.
 */
export function checkoutId(): string {
  try {
    const existing = window.localStorage.getItem(CHECKOUT_ID_KEY);
    if (existing && /^[A-Za-z0-9-]{16,64}$/.test(existing)) return existing;
    const id = randomId();
    window.localStorage.setItem(CHECKOUT_ID_KEY, id);
    return id;
  } catch {
    return randomId();
  }
}

// crypto.randomUUID needs a secure context; a shop opened over plain http on a LAN has none.
function randomId() {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === "function") return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

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
