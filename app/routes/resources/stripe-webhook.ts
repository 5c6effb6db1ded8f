import { getDb, getEnv } from "~/server/platform/http/index.server";
import { settleFromWebhook } from "~/server/commerce/index.server";
import type { Route } from "./+types/stripe-webhook";

/**
 * POST /api/webhooks/stripe. Signed by Stripe (STRIPE_WEBHOOK_SECRET); anything unsigned or
 * forged is answered 400 and changes nothing. A session event makes the shop re-read the session
 * and confirm or close its order, the same idempotent step the result page takes.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  if (!getEnv().STRIPE_SECRET_KEY) return Response.json({ error: "Stripe is not configured." }, { status: 400 });
  const result = await settleFromWebhook(getDb(), "stripe", request);
  if (result.kind === "refused") return Response.json({ error: result.reason }, { status: result.tooLarge ? 413 : 400 });
  if (result.kind === "ignored") return Response.json({ received: true, ignored: result.type });
  // An unknown session (opened by another shop on the same account) is acknowledged; an error
  // (Stripe unreachable, a mismatch) is answered 500 so Stripe delivers the event again later.
  if (result.kind === "retry") return Response.json({ error: "Could not confirm the session yet." }, { status: 500 });
  return Response.json({ received: true, state: result.state });
}
