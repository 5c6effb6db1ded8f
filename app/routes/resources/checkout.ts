import { runCheckout } from "~/routes/_edge/checkout.server";
import { parseCheckoutRequest } from "~/server/commerce/index.server";
import type { Route } from "./+types/checkout";

/**
 * POST /api/checkout (docs/money-path.md): `{ url }` of the hosted payment page, or a 4xx with a
 * message. The checkout page's own form goes through the same runCheckout (app/routes/store/checkout.tsx).
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  const outcome = await runCheckout(request, () => parseCheckoutRequest(request));
  if (outcome.ok) return Response.json({ url: outcome.url, orderNumber: outcome.orderNumber }, outcome.init);
  return Response.json(outcome.body, outcome.init);
}
