import { CHECKOUT_MESSAGES, checkoutRefusalBody, type CheckoutErrorBody, type CheckoutRefusal, type PaymentVerification } from "~/lib/checkout";
import { createCheckout, type CheckoutResult, type ParsedCheckout, type PaymentOutcome } from "~/server/commerce/index.server";
import { checkRateLimits, clientIp, getDb, isDatabaseUnavailable, logger, publicUrl, rateLimitRefusal, UNAVAILABLE } from "~/server/platform/http/index.server";
import { responseInit } from "./errors.server";
import { getCurrentUser } from "./guards.server";

const REFUSAL_STATUS: Record<CheckoutRefusal["kind"], 400 | 409 | 502> = {
  cart_problems: 400,
  too_large: 400,
  in_progress: 409,
  already_paid: 409,
  order_closed: 409,
  provider_unavailable: 502,
  no_shipping: 400,
  discount_refused: 400,
  no_region: 400,
  quote_changed: 400,
  below_minimum: 400,
};

/** POST /api/checkout's answer for a checkout's result: the payment page, or a refusal with its status. */
export function checkoutAnswer(
  result: CheckoutResult,
): { status: 200; body: { url: string; orderNumber: string } } | { status: 400 | 409 | 502; body: CheckoutErrorBody } {
  if (result.ok) return { status: 200, body: { url: result.url, orderNumber: result.orderNumber } };
  return { status: REFUSAL_STATUS[result.refusal.kind], body: checkoutRefusalBody(result.refusal) };
}

const noStore = { "Cache-Control": "no-store" };

/** One checkout attempt's end: the payment page to send the shopper to, or a refusal with its status and headers. */
export type CheckoutOutcome =
  | { ok: true; url: string; orderNumber: string; init: ResponseInit }
  | { ok: false; body: CheckoutErrorBody; init: ResponseInit };

/**
 * One checkout attempt, however it was sent (docs/money-path.md): counted against the checkout's
 * rate limit, read by `read` (the JSON of POST /api/checkout, or the checkout page's form), made
 * by createCheckout for whoever is signed in, and answered with the statuses /api/checkout has
 * always used. /api/checkout turns the outcome into JSON; the page's action into a redirect to
 * the payment page or the refusal shown in the page.
 */
export async function runCheckout(request: Request, read: () => ParsedCheckout | Promise<ParsedCheckout>): Promise<CheckoutOutcome> {
  const db = getDb();
  // From the rate limit on, a database outage is answered below as a refusal the page shows
  // (JSON with a title), never as React Router's plain-text error.
  try {
    // Generous for a person (every attempt counts, refusals too), tight for a script.
    const limit = await checkRateLimits(db, [{ key: `checkout:ip:${clientIp(request)}`, limit: 20, windowMs: 10 * 60_000 }]);
    if (!limit.ok) {
      const refusal = rateLimitRefusal(limit.retryAfterSeconds);
      return { ok: false, body: { error: refusal.message }, init: responseInit(refusal) };
    }
    const parsed = await read();
    if (!parsed.ok) return { ok: false, body: parsed.body, init: { status: parsed.tooLarge ? 413 : 400, headers: noStore } };
    const user = await getCurrentUser(request);
    const result = await createCheckout(db, parsed.input, { userId: user?.id ?? null, baseUrl: publicUrl() });
    const answer = checkoutAnswer(result);
    if (answer.status === 200) return { ok: true, ...answer.body, init: { status: 200, headers: noStore } };
    return { ok: false, body: answer.body, init: { status: answer.status, headers: noStore } };
  } catch (err) {
    if (isDatabaseUnavailable(err)) {
      // The database is briefly away: sent again, the same idempotency key finds any order this made.
      logger.warn({ err: (err as Error).message }, "checkout: database unavailable");
      return {
        ok: false,
        body: { title: CHECKOUT_MESSAGES.orderFailed.title, error: `${UNAVAILABLE.message}. Please try again in a few seconds.` },
        init: responseInit(UNAVAILABLE, noStore),
      };
    }
    logger.error({ err: (err as Error).message }, "checkout failed");
    return {
      ok: false,
      body: { title: CHECKOUT_MESSAGES.orderFailed.title, error: CHECKOUT_MESSAGES.orderFailed.description },
      init: { status: 500, headers: noStore },
    };
  }
}

/** What the payment result page shows for a confirmed (or not) payment: /api/verify-payment's answer. */
export function paymentVerification(outcome: Exclude<PaymentOutcome, { state: "not_found" | "error" }>): PaymentVerification {
  return {
    payment_successful: outcome.state === "paid",
    status: outcome.state,
    order_number: outcome.order.orderNumber,
    total_amount: outcome.order.totalAmountCents / 100,
    total_amount_cents: outcome.order.totalAmountCents,
    customer_email: outcome.order.email,
    ...("message" in outcome ? { message: outcome.message } : {}),
  };
}
