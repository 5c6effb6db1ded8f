import type { Db } from "../db/client.server";
import { DEFAULT_PRICING, type PricingRules } from "./quote.server";

/** Where the order goes: shipping and tax rules will depend on it. */
export type Destination = { country: string; state?: string; zipCode?: string };

/**
 * The shop's pricing rules for a cart going to `destination`. The shop has no shipping rates,
 * tax rates or discount codes of its own yet, so every cart gets the defaults: shipping 'Free',
 * tax $0.00, no discount (docs/rules/cart-and-checkout.md).
 */
export async function loadPricingRules(_db: Db, _destination: Destination | null = null): Promise<PricingRules> {
  return DEFAULT_PRICING;
}
