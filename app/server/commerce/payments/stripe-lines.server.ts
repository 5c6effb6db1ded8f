import type Stripe from "stripe";
import { taxLabel, type Quote } from "~/lib/pricing-view";

/**
 * A quote as Stripe Checkout takes it, so that Stripe's total is ours to the cent: each line at
 * its unit price, added tax as a line of its own (included tax is already in the prices), the
 * shipping rate as a fixed-amount shipping option, and the discount as a one-off coupon (Stripe
 * takes no negative lines; a coupon applies to the lines, never to shipping).
 */
export type StripeCheckoutParts = {
  lineItems: { name: string; unitAmount: number; quantity: number; imageUrl?: string }[];
  shipping: { name: string; amount: number } | null;
  couponAmountOff: number;
};

/** Stripe takes at most this many line items in one Checkout Session (payment mode). */
export const STRIPE_MAX_LINE_ITEMS = 100;

export function stripeCheckoutParts(quote: Quote): StripeCheckoutParts {
  const taxAdded = !quote.tax.included && quote.tax.amountCents > 0;
  const lineItems = fitLines(
    quote.lines.map((l) => ({ name: l.name, unitAmount: l.unitPriceCents, quantity: l.quantity, imageUrl: l.imageUrl })),
    STRIPE_MAX_LINE_ITEMS - (taxAdded ? 1 : 0),
  );
  if (taxAdded) lineItems.push({ name: taxLabel(quote.tax), unitAmount: quote.tax.amountCents, quantity: 1 });
  return {
    lineItems,
    shipping: quote.shipping.amountCents > 0 ? { name: quote.shipping.name, amount: quote.shipping.amountCents } : null,
    couponAmountOff: quote.discount?.amountCents ?? 0,
  };
}

/**
 * At most `room` lines: past it, the last lines are folded into one line of their total, named
 * for what it holds, so the session's total (and the coupon's share of the lines) stays the quote's.
 */
function fitLines(lines: StripeCheckoutParts["lineItems"], room: number): StripeCheckoutParts["lineItems"] {
  if (lines.length <= room) return lines;
  const kept = lines.slice(0, room - 1);
  const folded = lines.slice(room - 1);
  const names = folded.map((l) => (l.quantity > 1 ? `${l.name} × ${l.quantity}` : l.name)).join(", ");
  kept.push({
    name: `${folded.length} more items: ${names}`.slice(0, 250),
    unitAmount: folded.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0),
    quantity: 1,
  });
  return kept;
}

/** What Stripe will charge for these parts. */
export function stripeTotal(parts: StripeCheckoutParts): number {
  const items = parts.lineItems.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0);
  return items - Math.min(items, parts.couponAmountOff) + (parts.shipping?.amount ?? 0);
}

/** Stripe only shows product images from public https addresses. */
const publicImage = (url: string | undefined) => (url && /^https:\/\//.test(url) ? [url] : undefined);

export function stripeLineItems(parts: StripeCheckoutParts, currency: string): Stripe.Checkout.SessionCreateParams.LineItem[] {
  return parts.lineItems.map((line) => ({
    quantity: line.quantity,
    price_data: { currency, unit_amount: line.unitAmount, product_data: { name: line.name, images: publicImage(line.imageUrl) } },
  }));
}

export function stripeShippingOptions(parts: StripeCheckoutParts, currency: string): Stripe.Checkout.SessionCreateParams.ShippingOption[] | undefined {
  if (!parts.shipping) return undefined;
  return [
    {
      shipping_rate_data: {
        type: "fixed_amount",
        display_name: parts.shipping.name,
        fixed_amount: { amount: parts.shipping.amount, currency },
      },
    },
  ];
}
