import { z } from "zod";
import {
  CHECKOUT_MESSAGES,
  CheckoutLineSchema,
  MAX_CHECKOUT_LINES,
  checkCheckoutForm,
  checkoutFormSchema,
  type CheckoutErrorBody,
  type CheckoutForm,
  type CheckoutLine,
} from "~/lib/checkout";
import { MAX_LINE_QUANTITY } from "~/lib/cart-item";
import { mergeCartLines } from "~/lib/cart-lines";
import { regionCode } from "~/lib/regions";
import { readJsonBody } from "../../platform/index.server";

/** The checkout's form as the server reads it: the region as its ISO 3166-2 code ('California' → 'CA'). */
const CheckoutFormWithRegions = checkoutFormSchema(regionCode);

export type CheckoutInput = {
  lines: CheckoutLine[];
  form: CheckoutForm;
  idempotencyKey: string | null;
  /** A discount code as typed (checked by pricing), or null. */
  discountCode?: string | null;
  /** The shipping rate picked; an id that is not one of the address's rates is ignored. */
  shippingRateId?: string | null;
  /** The shopper ticked 'Email me about my order' (false unless ticked). */
  emailAboutOrder?: boolean;
  /** The shipping and tax of the quote the page showed, compared with the server's (null: not sent). */
  quotedShippingCents?: number | null;
  quotedTaxCents?: number | null;
};

export type Parsed =
  | { ok: true; input: CheckoutInput }
  /** `tooLarge`: the body was over MAX_CHECKOUT_BODY_BYTES (answered 413, not 400). */
  | { ok: false; body: CheckoutErrorBody; tooLarge?: true };

/** Enough for 100 lines with long names; a 10,000-line cart is refused by count before this. */
export const MAX_CHECKOUT_BODY_BYTES = 1024 * 1024;

const IdempotencyKey = z.string().regex(/^[A-Za-z0-9._:-]{8,200}$/);
/** The checkbox: absent (an older page) is unticked; anything but true or false is refused. */
const EmailAboutOrder = z.boolean().optional().default(false);
/** A figure of the quote the page showed: whole cents, or absent (a page that showed none). */
const QuotedCents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional().default(null);

const fail = (error: string, extra: Partial<CheckoutErrorBody> = {}): Parsed => ({
  ok: false,
  body: { title: CHECKOUT_MESSAGES.checkoutFailed.title, error, ...extra },
});

const lineName = (raw: unknown) => {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === "string" && name.trim() ? `"${name.trim().slice(0, 100)}"` : "a cart line";
};

/**
 * Reads POST /api/checkout: `{ cartItems, formData, idempotencyKey }` (docs/money-path.md).
 * Every refusal is a message a shopper can act on; nothing here touches the database.
 */
export async function parseCheckoutRequest(request: Request): Promise<Parsed> {
  const body = await readJsonBody(request, MAX_CHECKOUT_BODY_BYTES);
  if (!body.ok && body.tooLarge) {
    return { ok: false, tooLarge: true, body: { title: CHECKOUT_MESSAGES.checkoutFailed.title, error: body.error } };
  }
  if (!body.ok) return fail(body.error);
  return parseCheckoutBody(body.value);
}

/**
 * Checks a checkout as `{ cartItems, formData, idempotencyKey, … }`, however it arrived: the JSON
 * of POST /api/checkout, or the checkout page's form turned into that shape at the route edge.
 * One set of rules, so both answer every mistake with the same words.
 */
export function parseCheckoutBody(raw: unknown): Parsed {
  const value = raw as {
    cartItems?: unknown;
    formData?: unknown;
    idempotencyKey?: unknown;
    discountCode?: unknown;
    shippingRateId?: unknown;
    emailAboutOrder?: unknown;
    quotedShippingCents?: unknown;
    quotedTaxCents?: unknown;
  } | null;
  if (!value || typeof value !== "object" || Array.isArray(value)) return fail("The request must be a JSON object.");

  const rawLines = value.cartItems;
  if (rawLines === undefined || (Array.isArray(rawLines) && rawLines.length === 0)) {
    return { ok: false, body: { title: CHECKOUT_MESSAGES.emptyCart.title, error: CHECKOUT_MESSAGES.emptyCart.description } };
  }
  if (!Array.isArray(rawLines)) return fail("cartItems must be a list of cart lines.");
  if (rawLines.length > MAX_CHECKOUT_LINES) {
    return fail(`A cart can hold at most ${MAX_CHECKOUT_LINES} different products; this one has ${rawLines.length}.`);
  }

  const parsedLines: CheckoutLine[] = [];
  for (const raw of rawLines) {
    const parsed = CheckoutLineSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path[0] === "priceCents" ? "The price" : issue.path[0] === "quantity" ? "The quantity" : null;
      const message = field ? `${field} of ${lineName(raw)} is not valid: ${issue.message.toLowerCase()}.` : `${issue.message}.`;
      return fail(message);
    }
    parsedLines.push(parsed.data);
  }
  // Lines of one product (its id in any letter case) are one line, judged on their sum.
  const lines = mergeCartLines(parsedLines);
  const overfull = lines.find((l) => l.quantity > MAX_LINE_QUANTITY);
  if (overfull) return fail(`The quantity of ${lineName(overfull)} is not valid: quantity must be from 1 to ${MAX_LINE_QUANTITY}.`);

  const form = checkCheckoutForm(value.formData, CheckoutFormWithRegions);
  if (!form.ok) return { ok: false, body: { title: form.title, error: form.description, fieldErrors: form.fieldErrors } };

  let idempotencyKey: string | null = null;
  if (value.idempotencyKey !== undefined && value.idempotencyKey !== null) {
    const key = IdempotencyKey.safeParse(value.idempotencyKey);
    if (!key.success) return fail("The checkout key is not valid. Reload the page and try again.");
    idempotencyKey = key.data;
  }
  // Any string is passed on: pricing answers a code it does not know with 'This code is not valid.'
  const discountCode = typeof value.discountCode === "string" && value.discountCode.trim() ? value.discountCode.slice(0, 500) : null;
  const shippingRateId = typeof value.shippingRateId === "string" && value.shippingRateId.length <= 100 ? value.shippingRateId : null;
  const emailAboutOrder = EmailAboutOrder.safeParse(value.emailAboutOrder);
  if (!emailAboutOrder.success) return fail("'Email me about my order' must be ticked or not (true or false).");
  const quotedShipping = QuotedCents.safeParse(value.quotedShippingCents);
  const quotedTax = QuotedCents.safeParse(value.quotedTaxCents);
  if (!quotedShipping.success || !quotedTax.success) return fail("The shipping and tax shown must be whole numbers of cents. Reload the page and try again.");
  return {
    ok: true,
    input: {
      lines,
      form: form.data,
      idempotencyKey,
      discountCode,
      shippingRateId,
      emailAboutOrder: emailAboutOrder.data,
      quotedShippingCents: quotedShipping.data,
      quotedTaxCents: quotedTax.data,
    },
  };
}
