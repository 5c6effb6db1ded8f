import { checkoutRefusalBody, type CheckoutErrorBody, type CheckoutRefusal } from "~/lib/checkout";
import type { CheckoutResult } from "~/server/commerce/index.server";

const REFUSAL_STATUS: Record<CheckoutRefusal["kind"], 400 | 409 | 502> = {
  cart_problems: 400,
  too_large: 400,
  in_progress: 409,
  already_paid: 409,
  order_closed: 409,
  provider_unavailable: 502,
  no_shipping: 400,
  discount_refused: 400,
};

/** POST /api/checkout's answer for a checkout's result: the payment page, or a refusal with its status. */
export function checkoutAnswer(
  result: CheckoutResult,
): { status: 200; body: { url: string; orderNumber: string } } | { status: 400 | 409 | 502; body: CheckoutErrorBody } {
  if (result.ok) return { status: 200, body: { url: result.url, orderNumber: result.orderNumber } };
  return { status: REFUSAL_STATUS[result.refusal.kind], body: checkoutRefusalBody(result.refusal) };
}
