import { z } from "zod";
import type { PaymentVerification } from "~/lib/checkout";
import { clientIp, getDb, readJsonBody } from "~/server/platform/http/index.server";
import { paymentVerification } from "~/routes/_edge/checkout.server";
import { jsonResponse } from "~/routes/_edge/errors.server";
import { rateLimitedJson } from "~/routes/_edge/rate-limit.server";
import { confirmPayment } from "~/server/commerce/index.server";
import type { Route } from "./+types/verify-payment";

const noStore = { "Cache-Control": "no-store" };
const Body = z.object({ session_id: z.string().min(1).max(300) });

/**
 * POST /api/verify-payment (docs/rules/cart-and-checkout.md, Payment result page) `{ session_id }`. Confirms the order if the
 * provider says it is paid (idempotent), then answers with what the result page shows.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  const db = getDb();
  // The result page polls a few times per visit; this only stops guessing at session ids.
  const limited = await rateLimitedJson(db, [{ key: `verify-payment:ip:${clientIp(request)}`, limit: 60, windowMs: 5 * 60_000 }]);
  if (limited) return limited;
  const body = await readJsonBody(request, 4096);
  if (!body.ok) return jsonResponse({ kind: body.tooLarge ? "too_large" : "bad_input" }, { error: body.error }, noStore);
  const parsed = Body.safeParse(body.value);
  if (!parsed.success) return jsonResponse({ kind: "bad_input" }, { error: "No session ID found" }, noStore);

  const outcome = await confirmPayment(db, parsed.data.session_id);
  if (outcome.state === "not_found") return jsonResponse({ kind: "not_found" }, { error: "Payment not found" }, noStore);
  if (outcome.state === "error") {
    return Response.json({ error: "Failed to verify payment" }, { status: 502, headers: noStore });
  }
  const answer: PaymentVerification = paymentVerification(outcome);
  return Response.json(answer, { headers: noStore });
}
