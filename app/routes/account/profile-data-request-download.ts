import { readPublicForm } from "~/routes/_edge/body.server";
import { invariantResponse } from "~/routes/_edge/guards.server";
import { redeemDataRequest } from "~/server/people/index.server";
import { getDb } from "~/server/platform/http/index.server";
import { personalDataZip } from "./profile-data.server";
import type { Route } from "./+types/profile-data-request-download";

/**
 * The 'Download my data' button of a guest's mailed link (profile-data-request.tsx): POST only, so
 * a mail scanner opening the link downloads nothing. The link is used here, once: a replayed,
 * tampered or expired token is the same 404 as any bad link, and nothing is sent.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readPublicForm(request);
  const used = await redeemDataRequest(getDb(), form.get("token"), ["export"], async (r) => r.subject);
  invariantResponse(used, "Not Found");
  return personalDataZip(used.value);
}
