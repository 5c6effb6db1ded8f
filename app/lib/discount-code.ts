import { useSyncExternalStore } from "react";
import { DISCOUNT_KEY } from "./cart-read";

/**
 * The discount code the shopper applied, checked again by the server on every quote; apart from
 * ./cart, which every page loads, because only the cart and checkout pages use it.
 */

type Listener = () => void;
const discountListeners = new Set<Listener>();

function readDiscount(): string {
  if (typeof window === "undefined") return "";
  try {
    return window.localStorage.getItem(DISCOUNT_KEY) ?? "";
  } catch {
    return "";
  }
}

export const discountCodeStore = {
  get: readDiscount,
  set(code: string) {
    try {
      if (code) window.localStorage.setItem(DISCOUNT_KEY, code.slice(0, 64));
      else window.localStorage.removeItem(DISCOUNT_KEY);
    } catch {
      // Without storage the code lasts for this page view only.
    }
    discountListeners.forEach((l) => l());
  },
};

/** The applied discount code, shared by the cart and checkout pages and every tab; "" for none. */
export function useDiscountCode(): string {
  return useSyncExternalStore(
    (listener) => {
      discountListeners.add(listener);
      const onStorage = (e: StorageEvent) => {
        if (e.key === DISCOUNT_KEY || e.key === null) listener();
      };
      window.addEventListener("storage", onStorage);
      return () => {
        discountListeners.delete(listener);
        window.removeEventListener("storage", onStorage);
      };
    },
    readDiscount,
    () => "",
  );
}
