import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { BodyTooLargeError } from "~/server/http/read-body.server";
import { logger } from "~/server/logger.server";
import { confirmPayment } from "~/server/orders/confirm.server";
import { getPaymentProvider, WebhookSignatureError } from "~/server/payments/index.server";
import type { Route } from "./+types/stripe-webhook";

/**
 * POST /api/webhooks/stripe. Signed by Stripe (STRIPE_WEBHOOK_SECRET); anything unsigned or
 * forged is answered 400 and changes nothing. A session event makes the shop re-read the session
 * and confirm or close its order, the same idempotent step the result page takes.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  if (!getEnv().STRIPE_SECRET_KEY) return Response.json({ error: "Stripe is not configured." }, { status: 400 });
  const db = getDb();
  let event;
  try {
    event = await getPaymentProvider(db, "stripe").parseWebhook(request);
  } catch (err) {
    if (err instanceof WebhookSignatureError || err instanceof BodyTooLargeError) {
      logger.warn({ err: err.message }, "stripe webhook refused");
      return Response.json({ error: err.message }, { status: 400 });
    }
    throw err;
  }
  if (event.kind === "ignored") return Response.json({ received: true, ignored: event.type });
  const outcome = await confirmPayment(db, event.sessionId);
  // An unknown session (opened by another shop on the same account) is acknowledged; an error
  // (Stripe unreachable, a mismatch) is answered 500 so Stripe delivers the event again later.
  if (outcome.state === "error") return Response.json({ error: "Could not confirm the session yet." }, { status: 500 });
  return Response.json({ received: true, state: outcome.state });
}
