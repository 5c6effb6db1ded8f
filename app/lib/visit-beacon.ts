/**
 * Tells the shop's visit counter that a product went into the cart (docs/rules/analytics.md,
 * Visits): a beacon to the shop itself, no cookie, no third party. sendBeacon queues it with the
 * browser, so nothing waits for it and a page left at once still sends it. Counting must never
 * break the cart: any failure is ignored.
 */
export function reportAddToCart(productId: string) {
  try {
    if (typeof navigator === "undefined" || typeof navigator.sendBeacon !== "function") return;
    navigator.sendBeacon("/api/events", JSON.stringify({ event: "add_to_cart", productId }));
  } catch {
    // A browser that refuses the beacon (a blocker, a full queue) still adds to the cart.
  }
}
