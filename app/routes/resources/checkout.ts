import { CHECKOUT_MESSAGES } from "~/lib/checkout";
import { checkoutAnswer } from "~/routes/_edge/checkout.server";
import { createCheckout, parseCheckoutRequest } from "~/server/commerce/index.server";
import { clientIp, getDb, isDatabaseUnavailable, logger, publicUrl, UNAVAILABLE } from "~/server/platform/index.server";
import { jsonResponse } from "~/routes/_edge/errors.server";
import { getCurrentUser } from "~/routes/_edge/guards.server";
import { rateLimitedJson } from "~/routes/_edge/rate-limit.server";
import type { Route } from "./+types/checkout";

const noStore = { "Cache-Control": "no-store" };

/** POST /api/checkout (docs/money-path.md): `{ url }` of the hosted payment page, or a 4xx with a message. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  const db = getDb();
  // Generous for a person (every attempt counts, refusals too), tight for a script.
  const limited = await rateLimitedJson(db, [{ key: `checkout:ip:${clientIp(request)}`, limit: 20, windowMs: 10 * 60_000 }]);
  if (limited) return limited;
  const parsed = await parseCheckoutRequest(request);
  if (!parsed.ok) return Response.json(parsed.body, { status: parsed.tooLarge ? 413 : 400, headers: noStore });
  try {
    const user = await getCurrentUser(request);
    const result = await createCheckout(db, parsed.input, { userId: user?.id ?? null, baseUrl: publicUrl() });
    const answer = checkoutAnswer(result);
    return Response.json(answer.body, { status: answer.status, headers: noStore });
  } catch (err) {
    if (isDatabaseUnavailable(err)) {
      // The database is briefly away: sent again, the same idempotency key finds any order this made.
      logger.warn({ err: (err as Error).message }, "checkout: database unavailable");
      return jsonResponse(UNAVAILABLE, { title: CHECKOUT_MESSAGES.orderFailed.title, error: `${UNAVAILABLE.message}. Please try again in a few seconds.` }, noStore);
    }
    logger.error({ err: (err as Error).message }, "checkout failed");
    return Response.json(
      { title: CHECKOUT_MESSAGES.orderFailed.title, error: CHECKOUT_MESSAGES.orderFailed.description },
      { status: 500, headers: noStore },
    );
  }
}
