import { leavePaymentPage } from "~/server/commerce/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/leave-payment";

/**
 * GET /api/checkout/leave?order=<id>&t=<token>: the payment page's cancel link. The checkout the
 * shopper left is closed (its discount code's use given back, docs/money-path.md), then the
 * shopper is back at the cart, which restores the lines it set aside for the payment.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  await leavePaymentPage(getDb(), params.get("order"), params.get("t"));
  return new Response(null, { status: 303, headers: { Location: "/cart?checkout=cancelled", "Cache-Control": "no-store" } });
}
