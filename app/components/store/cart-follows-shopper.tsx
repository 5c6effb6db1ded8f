import { useEffect } from "react";
import { forgetSignedInCart } from "~/lib/cart-read";

/**
 * Keeps a signed-in shopper's cart on the server (docs/rules/after-sale.md, The cart of a
 * signed-in shopper). The sync code is imported only once someone is signed in, so a guest's
 * first-load JavaScript does not grow; after signing out the device's cart is emptied.
 */
export function CartFollowsShopper({ signedIn }: { signedIn: boolean }) {
  useEffect(() => {
    if (!signedIn) {
      forgetSignedInCart();
      return;
    }
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import("~/lib/cart-sync").then((m) => {
      if (!cancelled) stop = m.startCartSync();
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [signedIn]);
  return null;
}
