import type { Quote, QuoteLine } from "~/lib/pricing-view";

/**
 * The one place money is added up. A pure function from cart lines and the shop's pricing rules
 * to a quote; the cart, the checkout, the order and the payment provider all use its result.
 * The rounding rule (docs/money-path.md): every amount is integer cents; a percentage is applied
 * to each line on its own and rounded half up to the cent; the quote's figures are sums of those
 * rounded parts, so lines, tax and total always add up.
 */

export type PricingLine = {
  productId: string;
  name: string;
  imageUrl: string;
  unitPriceCents: number;
  quantity: number;
};

export type DiscountRule =
  | { code: string; kind: "percent"; basisPoints: number; productIds?: ReadonlySet<string> | null }
  | { code: string; kind: "fixed"; amountCents: number; productIds?: ReadonlySet<string> | null }
  /** `coversShipping` false: the chosen rate is not one the code makes free (docs/money-path.md). */
  | { code: string; kind: "free_shipping"; coversShipping?: boolean };

export type PricingRules = {
  currency: string;
  /** The shipping rate chosen for the order. */
  shipping: { name: string; amountCents: number };
  tax: { name: string; rateBasisPoints: number; pricesIncludeTax: boolean; shippingTaxable: boolean };
  discount: DiscountRule | null;
};

/** A fresh shop: shipping 'Free', tax $0.00, no discount. */
export const DEFAULT_PRICING: PricingRules = {
  currency: "usd",
  shipping: { name: "Standard", amountCents: 0 },
  tax: { name: "Tax", rateBasisPoints: 0, pricesIncludeTax: false, shippingTaxable: false },
  discount: null,
};

const BASIS = 10_000;

/** round(amount × numerator / denominator), halves up; all non-negative integers. */
export function mulDivHalfUp(amount: number, numerator: number, denominator: number): number {
  return Math.floor((amount * numerator * 2 + denominator) / (denominator * 2));
}

/**
 * Splits `amount` over `weights` in proportion, in whole cents that sum exactly to `amount`:
 * each takes its floor, and the cents left go to the largest remainders (earlier lines first).
 */
export function allocate(amount: number, weights: number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (total === 0 || amount === 0) return weights.map(() => 0);
  // BigInt: amount × weight can pass 2^53 on a large cart.
  const a = BigInt(amount);
  const t = BigInt(total);
  const parts = weights.map((w, i) => ({ i, share: (a * BigInt(w)) / t, rest: (a * BigInt(w)) % t }));
  let left = amount - parts.reduce((s, p) => s + Number(p.share), 0);
  const shares = parts.map((p) => Number(p.share));
  for (const { i } of [...parts].sort((x, y) => (y.rest > x.rest ? 1 : y.rest < x.rest ? -1 : x.i - y.i))) {
    if (left === 0) break;
    shares[i]! += 1;
    left--;
  }
  return shares;
}

function lineDiscounts(lines: PricingLine[], totals: number[], rule: DiscountRule | null): number[] {
  if (!rule || rule.kind === "free_shipping") return totals.map(() => 0);
  const eligible = lines.map((l) => !rule.productIds || rule.productIds.has(l.productId));
  if (rule.kind === "percent") {
    const bp = Math.min(BASIS, Math.max(0, rule.basisPoints));
    return totals.map((t, i) => (eligible[i] ? mulDivHalfUp(t, bp, BASIS) : 0));
  }
  const weights = totals.map((t, i) => (eligible[i] ? t : 0));
  const cap = weights.reduce((s, w) => s + w, 0);
  // A fixed amount larger than what it applies to takes that to zero, never below.
  return allocate(Math.min(Math.max(0, rule.amountCents), cap), weights);
}

function taxOf(amount: number, rules: PricingRules["tax"]): number {
  const bp = Math.max(0, rules.rateBasisPoints);
  if (bp === 0 || amount <= 0) return 0;
  // Included: the part of the price that is tax; added: the rate on top of the price.
  return rules.pricesIncludeTax ? mulDivHalfUp(amount, bp, BASIS + bp) : mulDivHalfUp(amount, bp, BASIS);
}

export function priceQuote(input: PricingLine[], rules: PricingRules = DEFAULT_PRICING): Quote {
  const totals = input.map((l) => l.unitPriceCents * l.quantity);
  const discounts = lineDiscounts(input, totals, rules.discount);
  const lines: QuoteLine[] = input.map((l, i) => ({
    productId: l.productId,
    name: l.name,
    imageUrl: l.imageUrl,
    unitPriceCents: l.unitPriceCents,
    quantity: l.quantity,
    lineTotalCents: totals[i]!,
    discountCents: discounts[i]!,
    taxCents: taxOf(totals[i]! - discounts[i]!, rules.tax),
  }));
  const subtotalCents = totals.reduce((s, t) => s + t, 0);
  const discountCents = discounts.reduce((s, d) => s + d, 0);
  const freeShipping = rules.discount?.kind === "free_shipping" && rules.discount.coversShipping !== false;
  const shippingCents = freeShipping ? 0 : Math.max(0, rules.shipping.amountCents);
  const shippingTax = rules.tax.shippingTaxable ? taxOf(shippingCents, rules.tax) : 0;
  const taxCents = lines.reduce((s, l) => s + l.taxCents, 0) + shippingTax;
  const added = rules.tax.pricesIncludeTax ? 0 : taxCents;
  return {
    currency: rules.currency,
    lines,
    subtotalCents,
    discount: rules.discount ? { code: rules.discount.code, amountCents: discountCents, freeShipping } : null,
    shipping: { name: rules.shipping.name, amountCents: shippingCents, taxCents: shippingTax },
    tax: {
      name: rules.tax.name,
      rateBasisPoints: rules.tax.rateBasisPoints,
      included: rules.tax.pricesIncludeTax,
      amountCents: taxCents,
    },
    totalCents: subtotalCents - discountCents + shippingCents + added,
  };
}
