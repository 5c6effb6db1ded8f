import {
  CHECKOUT_ID_KEY,
  CHECKOUT_STASH_KEY,
  cartItemCount,
  installCartParser,
  MAX_LINE_QUANTITY,
  readCart,
  useCartItems,
  writeCart as write,
  type CartItem,
} from "./cart-read";
import { parseStoredCart } from "./cart-parse";
import { toast } from "./toast";
import { reportAddToCart } from "./visit-beacon";

/**
 * Changing the cart, and the cart while its payment is open. Reading it (the lines, their count)
 * is ./cart-read, which every page loads, and the checks on what is stored are ./cart-parse; this
 * loads with the cart and checkout pages, and on a first Add to Cart.
 */
export {
  CART_OWNER_KEY,
  CART_STORAGE_KEY,
  cartItemCount,
  DISCOUNT_KEY,
  dropStashedCart,
  forgetSignedInCart,
  MAX_LINE_QUANTITY,
  onLocalCartChange,
  type CartItem,
} from "./cart-read";
export { parseStoredCart };

// Installed as this loads, so every change starts from the exact stored lines (see readCart).
installCartParser(parseStoredCart);

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

export const cartStore = {
  getItems: readCart,
  add: (product: Omit<CartItem, "quantity">) => write(addItem(readCart(), product)),
  remove: (id: string) => write(removeItem(readCart(), id)),
  updateQuantity: (id: string, quantity: number | string) => write(updateQuantity(readCart(), id, quantity)),
  replace: (items: CartItem[]) => write(items),
  clear: () => write([]),
};

/**
 * What Add to Cart does once this module is there (components/store/add-to-cart-button.tsx):
 * one more of the product, the visit counter told, and the toast, which follows the add so that
 * what it confirms is already in the cart. Here rather than in the button, so every page listing
 * products carries only the button (docs/decisions/0022-storefront-first-load-on-every-page.md).
 */
export function addToCartFromButton(product: Omit<CartItem, "quantity">) {
  reportAddToCart(product.id);
  cartStore.add({
    id: product.id,
    name: product.name,
    priceCents: product.priceCents,
    imageUrl: product.imageUrl,
    unlimitedStock: product.unlimitedStock,
    stockQuantity: product.stockQuantity,
  });
  toast.success("Added to Cart", { description: `${product.name} has been added to your cart.` });
}

/** The cart: items and itemCount (docs/rules/cart-and-checkout.md). Empty during server rendering. */
export function useCart() {
  const items = useCartItems();
  // No money total here: the cart's figures are the server's quote (GET /api/cart/quote).
  return { items, itemCount: cartItemCount(items), ...cartStore };
}

// ----- the cart while its payment is open -----

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
  if (!items.length || readCart().length) return false;
  write(items);
  return true;
}

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
