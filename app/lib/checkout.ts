import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { MAX_LINE_QUANTITY } from "./cart";
import { COUNTRY_NAMES } from "./countries";
import { formatMoney } from "./money";
import { formatPostcode, POSTCODE_MESSAGE, postcodeFits } from "./postcodes";
import { CHOOSE_REGION_MESSAGE, regionMayBeBlank } from "./region-rules";
import type { CartReview, Quote, ShippingReview } from "./pricing-view";

/**
 * The checkout's shared rules (docs/rules/cart-and-checkout.md, The form): the form validates with them in
 * the browser and /api/checkout validates the same on the server.
 */
export const CHECKOUT_MESSAGES = {
  missingInformation: { title: "Missing Information", description: "Please fill in all required fields." },
  invalidInformation: { title: "Invalid Information", description: "Please correct the highlighted fields." },
  emptyCart: { title: "Empty Cart", description: "Your cart is empty. Add some items before checking out." },
  checkoutFailed: { title: "Checkout Failed", description: "Failed to create checkout session. Please try again." },
  orderFailed: { title: "Order Failed", description: "There was an error processing your order. Please try again." },
} as const;

/** More lines than any real cart; stops oversized payloads before a single product is loaded. */
export const MAX_CHECKOUT_LINES = 100;

/** Every country a shipping zone can name, by name; whether the shop ships there is the zones' call. */
export const COUNTRIES: readonly (readonly [string, string])[] = Object.entries(COUNTRY_NAMES).sort((a, b) => a[1].localeCompare(b[1], "en"));

const REQUIRED = "Required";
const required = (max: number) =>
  z.string(REQUIRED).trim().min(1, REQUIRED).max(max, `Use at most ${max} characters`);

const CheckoutFields = z.object({
  firstName: required(100),
  lastName: required(100),
  email: z
    .string(REQUIRED)
    .trim()
    .min(1, REQUIRED)
    .max(254, "Use at most 254 characters")
    .pipe(z.email("Enter a valid email address")),
  phone: z.string().trim().max(40, "Use at most 40 characters").optional().default(""),
  address: required(300),
  city: required(100),
  // Required everywhere but where regionMayBeBlank ('stateGiven' below).
  state: z.string().trim().max(100, "Use at most 100 characters").optional().default(""),
  zipCode: required(20),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .optional()
    .default("US")
    .pipe(z.enum(COUNTRIES.map(([code]) => code) as [string, ...string[]], "Choose a country")),
});

/**
 * Reads a typed region as its ISO 3166-2 code, null when it is none of the country's regions: the
 * server passes `regionCode` (app/lib/regions.ts). The browser keeps what was typed and leaves
 * the reading to the server, so the checkout page does not load the whole list at once.
 */
export type RegionReader = (country: string, typed: string) => string | null;
const keepTyped: RegionReader = (_country, typed) => typed;

/**
 * A country with ISO 3166-2 regions takes one of them, kept as its code ('California' → 'CA'); a
 * postcode fits its country's format and is kept as the country writes it ('pa20aa' → 'PA2 0AA').
 */
const addressAsStored = (readRegion: RegionReader) =>
  function asStored<T extends { country: string; state: string; zipCode: string }>(form: T, ctx: z.RefinementCtx): T {
    const state = form.state ? readRegion(form.country, form.state) : form.state;
    if (state === null) ctx.addIssue({ code: "custom", path: ["state"], message: CHOOSE_REGION_MESSAGE });
    const fits = !form.zipCode || postcodeFits(form.country, form.zipCode);
    if (!fits) ctx.addIssue({ code: "custom", path: ["zipCode"], message: POSTCODE_MESSAGE });
    if (state === null || !fits) return z.NEVER;
    return { ...form, state, zipCode: form.zipCode ? formatPostcode(form.country, form.zipCode) : form.zipCode };
  };

/**
 * The State field is required except in a country whose addresses may leave it empty (the UK); it
 * is judged with the other required fields, so one answer names every empty one.
 */
const stateGiven = (form: { country: string; state: string }) => form.state !== "" || regionMayBeBlank(form.country);
const stateRequired = {
  message: REQUIRED,
  path: ["state"],
  // Also when another field failed, as long as the country and the state themselves were read.
  when: (payload: { value: unknown }) => {
    const v = payload.value as { country?: unknown; state?: unknown } | undefined;
    return typeof v?.state === "string" && typeof v.country === "string";
  },
};

/** The checkout's form; the server's reads the region too (`checkoutFormSchema(regionCode)`). */
export const checkoutFormSchema = (readRegion: RegionReader = keepTyped) =>
  CheckoutFields.refine(stateGiven, stateRequired).transform(addressAsStored(readRegion));
export const CheckoutFormSchema = checkoutFormSchema();

/** The same address rules without the email (an address book entry has none). */
export const addressFormSchema = (readRegion: RegionReader = keepTyped) =>
  CheckoutFields.omit({ email: true }).refine(stateGiven, stateRequired).transform(addressAsStored(readRegion));

export type CheckoutForm = z.infer<typeof CheckoutFormSchema>;
export type CheckoutFormField = keyof CheckoutForm;
export const REQUIRED_FIELDS: CheckoutFormField[] = ["firstName", "lastName", "email", "address", "city", "state", "zipCode"];

export type FormCheck =
  | { ok: true; data: CheckoutForm }
  | { ok: false; title: string; description: string; fieldErrors: Partial<Record<CheckoutFormField, string>> };

/**
 * One answer for the browser and the server: empty required fields first, then formats. The
 * server passes its schema, which reads the region as its code.
 */
export function checkCheckoutForm(input: unknown, schema: typeof CheckoutFormSchema = CheckoutFormSchema): FormCheck {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return { ok: true, data: parsed.data };
  const fieldErrors: Partial<Record<CheckoutFormField, string>> = {};
  let missing = false;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as CheckoutFormField | undefined;
    if (!field || fieldErrors[field]) continue;
    fieldErrors[field] = issue.message;
    if (issue.message === REQUIRED) missing = true;
  }
  const message = missing ? CHECKOUT_MESSAGES.missingInformation : CHECKOUT_MESSAGES.invalidInformation;
  return { ok: false, ...message, fieldErrors };
}

/** A cart line as the checkout receives it. Only id and quantity count; the price is compared, never used. */
export const CheckoutLineSchema = z.object({
  id: z.string("Each cart line needs a product id").min(1, "Each cart line needs a product id").max(100),
  quantity: z
    .number("Quantity must be a whole number")
    .int("Quantity must be a whole number")
    .min(1, `Quantity must be from 1 to ${MAX_LINE_QUANTITY}`)
    .max(MAX_LINE_QUANTITY, `Quantity must be from 1 to ${MAX_LINE_QUANTITY}`),
  priceCents: z.number().int().min(0).optional(),
  name: z.string().max(500).optional(),
});

export type CheckoutLine = z.infer<typeof CheckoutLineSchema>;

/** What the checkout page posts to /api/checkout (docs/money-path.md). */
export type CheckoutRequestBody = {
  cartItems: CheckoutLine[];
  formData: Partial<CheckoutForm>;
  idempotencyKey?: string;
  discountCode?: string;
  shippingRateId?: string;
  /** The 'Email me about my order' box (docs/rules/after-sale.md, The abandoned-checkout reminder). */
  emailAboutOrder?: boolean;
  /** The shipping and tax of the quote the page showed: a different figure now is refused, never charged unseen. */
  quotedShippingCents?: number;
  quotedTaxCents?: number;
};

/**
 * The names the checkout page's form posts besides the shipping fields and 'Email me about my
 * order' (docs/rules/cart-and-checkout.md, Checkout without JavaScript): each cart line as
 * `<product id>:<quantity>`, the page's checkout key, the discount code, the shipping rate, and
 * which button sent it ('review' updates the totals, anything else places the order).
 */
export const CHECKOUT_POST_FIELDS = {
  line: "line",
  key: "checkoutKey",
  code: "discountCode",
  rate: "shippingRateId",
  intent: "intent",
  quotedShipping: "quotedShippingCents",
  quotedTax: "quotedTaxCents",
  /** Without script: `<rate id>:<shipping cents>:<tax cents>` for each method shown, as the page printed it with that method. */
  quotedRate: "quotedRate",
} as const;

/**
 * The shipping and tax the form without script showed for one shipping method (none: '' for the
 * rate when no method is known, null for a figure not shown). That page cannot re-price itself
 * when the shopper picks another method, so it posts the figures of every method it offered and
 * the server compares those of the method picked.
 */
export type RateFigures = { rateId: string; shippingCents: number | null; taxCents: number | null };

export const postedRateFigures = (f: RateFigures) => `${f.rateId}:${f.shippingCents ?? ""}:${f.taxCents ?? ""}`;

/** The shipping and tax the form showed for the method it posted, or none when it offered no such method. */
export function figuresForRate(posted: string[], rateId: string | undefined): QuotedFigures {
  for (const raw of posted) {
    const [id, shipping = "", tax = ""] = raw.split(":");
    if (id !== (rateId ?? "")) continue;
    // A figure that is not a number stays one the checkout refuses.
    return { ...(shipping.trim() ? { quotedShippingCents: Number(shipping) } : {}), ...(tax.trim() ? { quotedTaxCents: Number(tax) } : {}) };
  }
  return {};
}

/** The shipping and tax a page shows, as it sends them with the order: only the figures it really printed. */
export type QuotedFigures = Pick<CheckoutRequestBody, "quotedShippingCents" | "quotedTaxCents">;

export function quotedFigures(quote: Quote | null, shipping: ShippingReview | null, taxPending: boolean): QuotedFigures {
  if (!quote) return {};
  return {
    ...(shipping?.state === "known" ? { quotedShippingCents: quote.shipping.amountCents } : {}),
    ...(taxPending ? {} : { quotedTaxCents: quote.tax.amountCents }),
  };
}

/** A cart line as the form posts it: product id and quantity, never a price. */
export const postedLine = (line: { id: string; quantity: number }) => `${line.id}:${line.quantity}`;

/** What the shopper typed and picked, given back with the page's answer to fill the form again. */
export type CheckoutFormValues = Partial<Record<CheckoutFormField, string>> & {
  emailAboutOrder?: boolean;
  discountCode?: string;
  shippingRateId?: string;
};

/** A cart the server can see (a signed-in shopper's saved cart, or the lines just posted), priced by the server. */
export type CheckoutCartView = { lines: { id: string; quantity: number }[]; review: CartReview; figures: RateFigures[] };

/** The error body of /api/checkout; `problems` names each cart line the shop cannot sell. */
export type CheckoutErrorBody = {
  error: string;
  title?: string;
  fieldErrors?: Partial<Record<CheckoutFormField, string>>;
  problems?: { id: string; message: string }[];
  /** Shipping or tax changed since the page's quote: the page asks for the quote again. */
  quoteChanged?: true;
};

/** A cart line the checkout cannot sell as it is. */
export type CartProblem =
  | { id: string; problem: "unavailable"; name: string | null }
  | { id: string; problem: "out_of_stock" | "short"; name: string; stockQuantity: number }
  | { id: string; problem: "price_changed"; name: string; priceCents: number; cartPriceCents: number };

/** Why the checkout made no payment page (app/server/commerce/checkout); the route turns it into a status. */
export type CheckoutRefusal =
  | { kind: "cart_problems"; problems: CartProblem[] }
  | { kind: "too_large"; limitCents: number }
  /** An earlier submission of the same checkout is still opening its page. */
  | { kind: "in_progress" }
  | { kind: "already_paid" }
  | { kind: "provider_unavailable" }
  /** The order was closed while its payment page opened. */
  | { kind: "order_closed" }
  /** No shipping zone or rate covers the address and cart. */
  | { kind: "no_shipping"; message: string }
  /** The discount code cannot be used (its message says why). */
  | { kind: "discount_refused"; message: string }
  /** The address names no region of its country, and the shop taxes or ships by region there. */
  | { kind: "no_region" }
  /** Shipping or tax is no longer what the page showed: the new figure of each that changed (null: unchanged). */
  | { kind: "quote_changed"; shippingCents: number | null; taxCents: number | null }
  /** The total is above zero but under the smallest amount the payment provider charges. */
  | { kind: "below_minimum"; minimumCents: number; totalCents: number };

/** The shopper's words for one problem line. */
export function cartProblemMessage(p: CartProblem): string {
  switch (p.problem) {
    case "unavailable":
      return p.name ? `"${p.name}" is no longer available.` : "A product in your cart is no longer available.";
    case "out_of_stock":
      return `"${p.name}" is out of stock.`;
    case "short":
      return `Only ${p.stockQuantity} of "${p.name}" left in stock.`;
    case "price_changed":
      return `The price of "${p.name}" is ${formatMoney(p.priceCents)}, not ${formatMoney(p.cartPriceCents)}. Review your cart and try again.`;
  }
}

/** What the checkout page shows for a refusal. */
export function checkoutRefusalBody(refusal: CheckoutRefusal): CheckoutErrorBody {
  const title = CHECKOUT_MESSAGES.checkoutFailed.title;
  switch (refusal.kind) {
    case "cart_problems":
      return {
        title,
        error: refusal.problems.map(cartProblemMessage).join(" "),
        problems: refusal.problems.map((p) => ({ id: p.id, message: cartProblemMessage(p) })),
      };
    case "too_large":
      return { title, error: `An order can total at most ${formatMoney(refusal.limitCents)}. Remove some items and try again.` };
    case "in_progress":
      return { title, error: "This checkout is already being processed." };
    case "already_paid":
      return { title, error: "This order has already been paid." };
    case "provider_unavailable":
    case "order_closed":
      return { title, error: CHECKOUT_MESSAGES.checkoutFailed.description };
    case "no_shipping":
    case "discount_refused":
      return { title, error: refusal.message };
    case "no_region":
      return { title, error: CHOOSE_REGION_MESSAGE, fieldErrors: { state: CHOOSE_REGION_MESSAGE } };
    case "below_minimum":
      return {
        title,
        error: `Card payments start at ${formatMoney(refusal.minimumCents)} and this order comes to ${formatMoney(refusal.totalCents)}. Add ${formatMoney(refusal.minimumCents - refusal.totalCents)} or more to your cart and try again.`,
      };
    case "quote_changed":
      return {
        title,
        error: [
          refusal.shippingCents !== null ? `Shipping for your order is now ${formatMoney(refusal.shippingCents)}.` : null,
          refusal.taxCents !== null ? `Tax for your order is now ${formatMoney(refusal.taxCents)}.` : null,
        ]
          .filter(Boolean)
          .join(" "),
        quoteChanged: true,
      };
  }
}

/** FNV-1a: a short fingerprint so a changed cart or form gets a new idempotency key. */
export function fingerprint(value: unknown): string {
  const text = JSON.stringify(value);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** What /api/verify-payment answers (docs/rules/catalogue-data.md, Payment verification answer). */
export type PaymentVerification = {
  payment_successful: boolean;
  status: "paid" | "failed" | "expired" | "sold_out" | "cancelled" | "pending";
  order_number: string;
  /** Dollars, as the original shop named it; `total_amount_cents` is the exact figure. */
  total_amount: number;
  total_amount_cents: number;
  customer_email: string;
  message?: string;
};
