import { NO_SHIPPING_MESSAGE, type DiscountReview, type Quote, type ShippingReview } from "~/lib/pricing-view";
import type { Db } from "../db/client.server";
import { checkCode, type CodeRow } from "./discount-codes.server";
import { DEFAULT_PRICING, priceQuote, type DiscountRule, type PricingLine } from "./quote.server";
import { loadZonesFor, loadZonesWithoutAddress, matchZone, shippingOptions, type Destination } from "./shipping.server";
import { loadTaxSettings, taxRateFor } from "./tax.server";

export type { Destination } from "./shipping.server";

/** A cart line with what shipping and discounts need to know of its product. */
export type CartPricingLine = PricingLine & { category: string; weightGrams: number | null };

export type PricingRequest = {
  lines: CartPricingLine[];
  /** Where the order goes; null on the cart page, before an address is typed. */
  destination: Destination | null;
  /** A discount code as typed; null or "" for none. */
  code?: string | null;
  /** The shipping rate the shopper picked; ignored unless it is one of the address's options. */
  rateId?: string | null;
  /** For once-per-email codes. */
  email?: string | null;
  now?: Date;
};

export type PricedCart = {
  quote: Quote;
  shipping: ShippingReview;
  taxPending: boolean;
  discount: DiscountReview | null;
  /** The code's row when it applies (the checkout takes a use of it). */
  code: CodeRow | null;
};

/**
 * Prices a cart with the shop's rules (docs/money-path.md): the discount code first (its
 * minimum is on the subtotal), then the shipping options for what the goods come to after the
 * discount and the cart's weight, then tax for the address. Everything the quote needs comes
 * from ids, the address and the code; nothing from the browser's figures.
 */
export async function priceCart(db: Db, request: PricingRequest): Promise<PricedCart> {
  const { lines } = request;
  const subtotalCents = lines.reduce((s, l) => s + l.unitPriceCents * l.quantity, 0);

  let discountRule: DiscountRule | null = null;
  let discount: DiscountReview | null = null;
  let code: CodeRow | null = null;
  const typed = request.code?.trim();
  if (typed) {
    const checked = await checkCode(db, typed, { lines, subtotalCents, email: request.email, now: request.now });
    if (checked.ok) {
      discountRule = checked.rule;
      code = checked.row;
      discount = { code: checked.row.code, applied: true };
    } else {
      discount = { code: typed.slice(0, 64), applied: false, message: checked.message };
    }
  }

  const goodsCents = priceQuote(lines, { ...DEFAULT_PRICING, discount: discountRule }).totalCents;
  const weightGrams = lines.reduce((s, l) => s + (l.weightGrams ?? 0) * l.quantity, 0);
  const shipping = await shippingFor(db, request.destination, { goodsCents, weightGrams }, request.rateId ?? null);

  const [settings, rate] = await Promise.all([loadTaxSettings(db), taxRateFor(db, request.destination)]);
  const chosen = shipping.state === "known" ? shipping.options.find((o) => o.id === shipping.selectedId)! : null;
  const quote = priceQuote(lines, {
    currency: DEFAULT_PRICING.currency,
    shipping: chosen ? { name: chosen.name, amountCents: chosen.amountCents } : { name: "", amountCents: 0 },
    tax: { name: settings.taxName, rateBasisPoints: rate ?? 0, pricesIncludeTax: settings.pricesIncludeTax, shippingTaxable: settings.shippingTaxable },
    discount: discountRule,
  });
  return { quote, shipping, taxPending: rate === null, discount, code };
}

async function shippingFor(
  db: Db,
  destination: Destination | null,
  cart: { goodsCents: number; weightGrams: number },
  rateId: string | null,
): Promise<ShippingReview> {
  let rates;
  if (destination) {
    const found = await loadZonesFor(db, destination.country);
    const zone = matchZone(found.zones, destination);
    if (!zone) return { state: "unavailable", message: NO_SHIPPING_MESSAGE };
    rates = found.rates.filter((r) => r.zoneId === zone.id);
  } else {
    const everywhere = await loadZonesWithoutAddress(db);
    if (!everywhere) return { state: "needs_address" };
    rates = everywhere.rates;
  }
  const options = shippingOptions(rates, cart);
  if (!options.length) return destination ? { state: "unavailable", message: NO_SHIPPING_MESSAGE } : { state: "needs_address" };
  const selectedId = options.some((o) => o.id === rateId) ? rateId! : options[0]!.id;
  return { state: "known", options, selectedId };
}
