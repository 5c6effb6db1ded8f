import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { EMAIL_ABOUT_ORDER_FIELD } from "./abandoned-checkout";
import {
  CHECKOUT_POST_FIELDS,
  figuresForRate,
  fingerprint,
  type CheckoutFormField,
  type CheckoutFormValues,
  type CheckoutRequestBody,
} from "./checkout";

/**
 * The checkout page's form as the browser posts it without JavaScript (docs/rules/cart-and-checkout.md,
 * Checkout without JavaScript), read at the route edge. Nothing is judged here: every value is
 * passed on as a string, in the shape POST /api/checkout takes, and the server's one set of
 * checkout rules answers each mistake in the same words for both.
 */

const SHIPPING_FIELDS: CheckoutFormField[] = ["firstName", "lastName", "email", "phone", "address", "city", "state", "zipCode", "country"];

/** A text field; a file or anything else a crafted form may send reads as absent. */
const Text = z.string().optional().catch(undefined);

/**
 * A cart line as posted, `<product id>:<quantity>` (never a price: the server prices everything).
 * A quantity that is not a number stays one the checkout refuses ('The quantity of … is not valid').
 */
const Line = z.string().transform((raw) => {
  const at = raw.lastIndexOf(":");
  if (at < 0) return { id: raw, quantity: Number.NaN };
  const digits = raw.slice(at + 1).trim();
  return { id: raw.slice(0, at).trim(), quantity: digits === "" ? Number.NaN : Number(digits) };
});

export const CheckoutPost = z.object({
  intent: z.enum(["place", "review"]).catch("place"),
  lines: z.array(Line).catch([]),
  checkoutKey: Text,
  discountCode: Text,
  shippingRateId: Text,
  emailAboutOrder: Text,
  quotedShippingCents: Text,
  quotedTaxCents: Text,
  quotedRates: z.array(z.string().max(300)).max(100).catch([]),
  fields: z.record(z.string(), Text),
});

export type CheckoutPostValue = z.output<typeof CheckoutPost>;

/** The form's entries, by name: every `line`, the first value of each other field. */
export function readCheckoutPost(form: FormData): CheckoutPostValue {
  const one = (name: string) => form.get(name) ?? undefined;
  return CheckoutPost.parse({
    intent: one(CHECKOUT_POST_FIELDS.intent),
    lines: form.getAll(CHECKOUT_POST_FIELDS.line),
    checkoutKey: one(CHECKOUT_POST_FIELDS.key),
    discountCode: one(CHECKOUT_POST_FIELDS.code),
    shippingRateId: one(CHECKOUT_POST_FIELDS.rate),
    emailAboutOrder: one(EMAIL_ABOUT_ORDER_FIELD),
    quotedShippingCents: one(CHECKOUT_POST_FIELDS.quotedShipping),
    quotedTaxCents: one(CHECKOUT_POST_FIELDS.quotedTax),
    quotedRates: form.getAll(CHECKOUT_POST_FIELDS.quotedRate),
    fields: Object.fromEntries(SHIPPING_FIELDS.map((name) => [name, one(name)])),
  });
}

/** What the shopper typed and picked, to fill the form again when the page answers. */
export function postedValues(post: CheckoutPostValue): CheckoutFormValues {
  const values: CheckoutFormValues = { emailAboutOrder: post.emailAboutOrder !== undefined };
  for (const name of SHIPPING_FIELDS) {
    const v = post.fields[name];
    if (v !== undefined) values[name] = v.slice(0, 1000);
  }
  if (post.discountCode !== undefined) values.discountCode = post.discountCode.slice(0, 500);
  if (post.shippingRateId !== undefined) values.shippingRateId = post.shippingRateId.slice(0, 100);
  return values;
}

/**
 * The form as the body POST /api/checkout takes. The idempotency key is the page's key and a
 * fingerprint of what was posted: the same form sent twice (a double click) finds the same
 * order; a changed cart, address or choice is a new checkout.
 */
export function checkoutBodyOf(post: CheckoutPostValue): CheckoutRequestBody {
  const formData = Object.fromEntries(Object.entries(post.fields).filter(([, v]) => v !== undefined)) as CheckoutRequestBody["formData"];
  const emailAboutOrder = post.emailAboutOrder !== undefined;
  const body: CheckoutRequestBody = {
    cartItems: post.lines,
    formData,
    emailAboutOrder,
    ...(post.discountCode?.trim() ? { discountCode: post.discountCode } : {}),
    ...(post.shippingRateId ? { shippingRateId: post.shippingRateId } : {}),
    // The figures the page showed; one that is not a number stays one the checkout refuses.
    ...(post.quotedShippingCents?.trim() ? { quotedShippingCents: Number(post.quotedShippingCents) } : {}),
    ...(post.quotedTaxCents?.trim() ? { quotedTaxCents: Number(post.quotedTaxCents) } : {}),
    // Without script, the figures the page printed beside the method posted.
    ...(post.quotedRates.length ? figuresForRate(post.quotedRates, post.shippingRateId) : {}),
  };
  if (post.checkoutKey !== undefined) {
    const { discountCode, shippingRateId } = body;
    body.idempotencyKey = `${post.checkoutKey}.${fingerprint({ lines: post.lines, form: formData, discountCode, shippingRateId, emailAboutOrder })}`;
  }
  return body;
}
