/**
 * What the shop charges for a cart, as the server computed it (app/server/commerce/pricing). The cart page,
 * the checkout page, the order and the payment provider all show or charge exactly this; the
 * browser only prints it. Every amount is integer cents. Rules: docs/money-path.md.
 */
export type QuoteLine = {
  productId: string;
  name: string;
  imageUrl: string;
  unitPriceCents: number;
  quantity: number;
  /** unit price × quantity, before any discount. */
  lineTotalCents: number;
  /** This line's share of the discount. */
  discountCents: number;
  /** Tax on this line after its discount (contained in it when prices include tax). */
  taxCents: number;
};

export type QuoteDiscount = {
  code: string;
  /** Taken off the lines (0 for a free-shipping code). */
  amountCents: number;
  /** The code makes shipping free instead of taking money off the lines. */
  freeShipping: boolean;
};

export type QuoteShipping = {
  /** The rate's name ('Standard'); its price 0 prints as 'Free'. */
  name: string;
  amountCents: number;
  taxCents: number;
};

export type QuoteTax = {
  /** 'Tax', 'VAT', 'Sales tax'. */
  name: string;
  /** Basis points: 2000 is 20%. */
  rateBasisPoints: number;
  /** True when catalogue prices already contain the tax (it is shown, not added). */
  included: boolean;
  amountCents: number;
};

export type Quote = {
  currency: string;
  lines: QuoteLine[];
  subtotalCents: number;
  discount: QuoteDiscount | null;
  shipping: QuoteShipping;
  tax: QuoteTax;
  totalCents: number;
};

/** A way to ship the cart to the address given, priced for it. */
export type ShippingOption = { id: string; name: string; amountCents: number; estimate: string };

/** The shipping part of a cart review. */
export type ShippingReview =
  /** Priced: `selectedId` is the rate in the quote. */
  | { state: "known"; options: ShippingOption[]; selectedId: string }
  /** The price depends on an address not given yet (the cart page). */
  | { state: "needs_address" }
  /** No zone covers this address, or no rate of its zone fits the cart. */
  | { state: "unavailable"; message: string };

/** The discount code asked for, and whether it applies. */
export type DiscountReview = { code: string; applied: true } | { code: string; applied: false; message: string };

/** Why a cart line cannot be bought as it is. */
export type LineProblem = "unavailable" | "out_of_stock" | "short";

/** One cart line as the shop sees it now (GET /api/cart/quote). */
export type ReviewedLine =
  | { id: string; available: false; problem: "unavailable" }
  | {
      id: string;
      available: true;
      name: string;
      priceCents: number;
      imageUrl: string;
      unlimitedStock: boolean;
      stockQuantity: number;
      /** The most this cart may hold of it: the stock when counted, never above the cart's cap. */
      maxQuantity: number;
      quantity: number;
      problem: Exclude<LineProblem, "unavailable"> | null;
    };

/**
 * The answer of GET /api/cart/quote: every line's state, the quote of the lines that can be
 * bought, and what shipping, tax and the discount code came to. Without an address, shipping
 * and tax may be `pending` (the quote then leaves them out: 'Calculated at checkout').
 */
export type CartReview = {
  lines: ReviewedLine[];
  quote: Quote;
  shipping: ShippingReview;
  taxPending: boolean;
  discount: DiscountReview | null;
};

/** A discount code as the owner may write it and a shopper may type it: letters, digits, - and _, 64 at most. */
export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const DISCOUNT_MESSAGES = {
  applied: "Discount applied",
  notValid: "This code is not valid.",
  expired: "This code has expired.",
  usedUp: "This code has reached its usage limit.",
  usedByEmail: "This code has already been used with this email.",
} as const;

export const discountMinimumMessage = (minSubtotalCents: number, format: (cents: number) => string) =>
  `This code needs a subtotal of ${format(minSubtotalCents)} or more.`;

export const NO_SHIPPING_MESSAGE = "We don't ship to this address yet.";

/** "20%", "7.25%": a rate in basis points as people write it. */
export function formatRate(basisPoints: number): string {
  const percent = basisPoints / 100;
  return `${Number.isInteger(percent) ? percent : percent.toFixed(2).replace(/0+$/, "")}%`;
}

/** The tax row's label: 'Tax', or 'VAT 20% (included)' once a rate applies. */
export function taxLabel(tax: QuoteTax): string {
  if (tax.rateBasisPoints === 0) return tax.name;
  return `${tax.name} ${formatRate(tax.rateBasisPoints)}${tax.included ? " (included)" : ""}`;
}
