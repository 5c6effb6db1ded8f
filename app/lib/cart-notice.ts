/**
 * What a merge of carts could not keep, kept for the cart page until the shopper dismisses it
 * (sessionStorage: this tab, this visit). Browser-only, no dependencies.
 */
const NOTICE_KEY = "shopping-cart-notice";
/** Dispatched on window when a notice is saved, for a cart page already open. */
export const CART_NOTICE_EVENT = "shopping-cart-notice";

export function saveCartNotice(lines: string[]) {
  if (!lines.length) return;
  try {
    window.sessionStorage.setItem(NOTICE_KEY, JSON.stringify(lines.slice(0, 50)));
  } catch {
    // Without storage the toast is the only word of it.
  }
  window.dispatchEvent(new Event(CART_NOTICE_EVENT));
}

export function readCartNotice(): string[] {
  try {
    const value: unknown = JSON.parse(window.sessionStorage.getItem(NOTICE_KEY) ?? "[]");
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string").slice(0, 50) : [];
  } catch {
    return [];
  }
}

export function dismissCartNotice() {
  try {
    window.sessionStorage.removeItem(NOTICE_KEY);
  } catch {
    // Nothing kept.
  }
}
