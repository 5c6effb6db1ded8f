import { BEACON_MAX_BYTES, parseBeacon, recordBeacon } from "~/server/insight/index.server";
import { BodyTooLargeError, clientIp, logger, readBodyText } from "~/server/platform/http/index.server";
import { jsonResponse } from "~/routes/_edge/errors.server";
import type { Route } from "./+types/events";

const noStore = { "Cache-Control": "no-store" };
const refuse = (kind: "bad_input" | "too_large", error: string) => jsonResponse({ kind }, { error }, noStore);

/**
 * POST /api/events `{"event":"add_to_cart","productId":"<uuid>"}`: the storefront's beacon
 * (navigator.sendBeacon, text/plain) when a product goes into the cart (docs/rules/analytics.md,
 * Visits). 204 when taken (or ignored: a bot, counting off); 400 for a body that is not one;
 * 413 past 1 KB. Cross-site posts are refused before this (sameOriginOnly). Never touches the
 * database: the count joins the visit counter's next batch.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST", ...noStore } });
  let text: string;
  try {
    // A beacon is tiny: more than a few KB is not worth reading to the end before refusing.
    text = await readBodyText(request, BEACON_MAX_BYTES, { drainUpTo: 16 * 1024 });
  } catch (err) {
    if (err instanceof BodyTooLargeError) return refuse("too_large", "The request is too large.");
    return refuse("bad_input", "The body could not be read.");
  }
  const checked = parseBeacon(text);
  if (!checked.ok) return refuse("bad_input", checked.error);
  try {
    recordBeacon(checked.beacon, { address: clientIp(request), userAgent: request.headers.get("user-agent") ?? "" });
  } catch (err) {
    // Counting is never worth a failed answer.
    logger.warn({ err: (err as Error).message }, "visit counting: a beacon was not counted");
  }
  return new Response(null, { status: 204, headers: noStore });
}
