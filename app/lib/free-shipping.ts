import { formatMoney } from "./money";

/**
 * What the home page's benefits strip may truthfully say about free shipping
 * (docs/rules/storefront.md, Benefits strip), as the home loader works it out from the shop's
 * shipping rates: every order ships free (each zone has a rate that is free whatever the cart);
 * orders over the lowest free-over threshold do; or nothing, and the strip leaves the item out.
 * Kept apart from the admin's view types so the storefront bundle carries only this.
 */
export type FreeShippingClaim = { kind: "every_order" } | { kind: "over"; thresholdCents: number } | null;

/** "$75" for whole dollars, "$75.50" otherwise. */
export function formatMoneyShort(cents: number): string {
  const money = formatMoney(cents);
  return money.endsWith(".00") ? money.slice(0, -3) : money;
}

/** The strip's line under 'Free Shipping', or null when the shop cannot claim it. */
export function freeShippingText(claim: FreeShippingClaim): string | null {
  if (!claim) return null;
  return claim.kind === "every_order" ? "On every order" : `On all orders over ${formatMoneyShort(claim.thresholdCents)}`;
}
