import { MergeCartInput, SaveCartInput } from "~/lib/saved-cart-input";
import { jsonResponse } from "~/routes/_edge/errors.server";
import { getCurrentUser } from "~/routes/_edge/guards.server";
import { mergeIntoSavedCart, readSavedCart, saveCart } from "~/server/commerce/index.server";
import { getDb, readJsonBody } from "~/server/platform/http/index.server";
import type { Route } from "./+types/saved-cart";

/**
 * /api/cart: the signed-in shopper's saved cart (docs/rules/after-sale.md, The cart of a signed-in
 * shopper). GET reads it as the shop stands now. POST `{ lines: [{ id, quantity }] }` (≤ 100
 * lines, quantities 1–99) replaces it; POST `{ mode: "merge", lines }` merges this device's cart
 * into it and answers the merged cart and what was dropped. (POST for both: the shop takes no
 * PUT, app/server/platform/http/allowed-methods.server.ts.)
 */
const noStore = { "Cache-Control": "no-store" };
const NOT_SIGNED_IN = "Sign in to keep your cart on your account.";
/** 1,000 lines of `{"id":"<uuid>","quantity":99,"name":"…"}` with room to spare. */
const MAX_BODY_BYTES = 512 * 1024;

const refuse = (kind: "not_signed_in" | "bad_input" | "too_large", error: string) => jsonResponse({ kind }, { error }, noStore);

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getCurrentUser(request);
  if (!user) return refuse("not_signed_in", NOT_SIGNED_IN);
  return Response.json({ ...(await readSavedCart(getDb(), user.id)), owner: user.id }, { headers: noStore });
}

/** A bad line, or too many, is named; any other shape gets what the body should be. */
function firstProblem(issues: { path: PropertyKey[]; code: string; message: string }[]) {
  const issue = issues[0]!;
  const named = issue.path[0] === "lines" && (issue.path.length === 3 || issue.code === "too_big");
  return named ? issue.message : "Send { lines: [{ id, quantity }] }.";
}

export async function action({ request }: Route.ActionArgs) {
  const user = await getCurrentUser(request);
  if (!user) return refuse("not_signed_in", NOT_SIGNED_IN);
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  if (!body.ok) return refuse(body.tooLarge ? "too_large" : "bad_input", body.error);
  const db = getDb();
  const mode = (body.value as { mode?: unknown } | null)?.mode ?? "save";
  if (mode === "merge") {
    const input = MergeCartInput.safeParse(body.value);
    if (!input.success) return refuse("bad_input", firstProblem(input.error.issues));
    return Response.json({ ...(await mergeIntoSavedCart(db, user.id, input.data.lines)), owner: user.id }, { headers: noStore });
  }
  if (mode !== "save") return refuse("bad_input", 'mode is "save" or "merge".');
  const input = SaveCartInput.safeParse(body.value);
  if (!input.success) return refuse("bad_input", firstProblem(input.error.issues));
  return Response.json(await saveCart(db, user.id, input.data.lines), { headers: noStore });
}
