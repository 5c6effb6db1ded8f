import { redirect } from "react-router";
import { RETURN_REASON_KEYS, type ReturnReason } from "~/lib/returns";
import { getCurrentUser, invariantResponse, requireUser } from "~/routes/_edge/guards.server";
import { respond } from "~/routes/_edge/errors.server";
import { findViewableOrder, orderReturnsView, requestReturn, ReturnError, type OrderViewer } from "~/server/commerce/index.server";
import { getDb } from "~/server/platform/http/index.server";

/**
 * The shopper's return and withdrawal pages (profile/orders/:number/return and /withdraw): the
 * same viewers as the order page (its signed-in owner, or the signed link's `t`), and the same 404
 * for every refusal to see the order.
 */
export async function viewerOf(request: Request, formToken?: string | null): Promise<OrderViewer> {
  const token = new URL(request.url).searchParams.get("t") || formToken || null;
  const user = token ? await getCurrentUser(request) : await requireUser(request);
  return { userId: user?.id ?? null, token };
}

/** The order and its returns part, or the order page's 404. */
export async function viewableOrderReturns(request: Request, orderNumber: string) {
  const viewer = await viewerOf(request);
  const db = getDb();
  const order = await findViewableOrder(db, orderNumber, viewer);
  invariantResponse(order, "Not Found");
  return { order, viewer, returns: await orderReturnsView(db, order) };
}

/** The order page's address, signed again when the viewer came by the link. */
export const orderPagePath = (orderNumber: string, token: string | null) =>
  `/profile/orders/${encodeURIComponent(orderNumber)}${token ? `?t=${encodeURIComponent(token)}` : ""}`;

export type ReturnFormAnswer = { ok: false; message: string; field?: string };

/**
 * Posts a return (kind 'return') or a withdrawal from the page's form: `qty.<line id>` per line
 * (a withdrawal's checked lines: `line=<id>`, all units still returnable), `reason`, `reasonText`
 * and the form's key. On success, back to the order page; a refusal is shown in the form.
 */
export async function submitReturnForm(request: Request, orderNumber: string, kind: "return" | "withdrawal", form: FormData) {
  const token = form.get("t");
  const viewer = await viewerOf(request, typeof token === "string" ? token : null);
  const db = getDb();
  const order = await findViewableOrder(db, orderNumber, viewer);
  invariantResponse(order, "Not Found");
  const requestKey = String(form.get("key") ?? "").slice(0, 100);
  if (!requestKey) return respond<ReturnFormAnswer>({ kind: "bad_input" }, { ok: false, message: "The form could not be read. Reload the page and try again." });
  let lines: { orderItemId: string; quantity: number }[] = [];
  if (kind === "return") {
    for (const [name, value] of form.entries()) {
      if (!name.startsWith("qty.")) continue;
      const raw = String(value).trim();
      const quantity = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
      if (Number.isNaN(quantity)) return respond<ReturnFormAnswer>({ kind: "bad_input" }, { ok: false, message: "Enter a whole number of items.", field: name });
      lines.push({ orderItemId: name.slice(4), quantity });
    }
  } else {
    const chosen = new Set(form.getAll("line").map(String));
    const { returnable } = await orderReturnsView(db, order);
    lines = returnable.filter((l) => chosen.has(l.orderItemId)).map((l) => ({ orderItemId: l.orderItemId, quantity: l.returnable }));
    // A line that was not offered (forged, or returned meanwhile) is asked for as one unit, so the domain refuses it by name.
    for (const id of chosen) if (!returnable.some((l) => l.orderItemId === id)) lines.push({ orderItemId: id, quantity: 1 });
  }
  const reasonRaw = String(form.get("reason") ?? (kind === "withdrawal" ? "other" : ""));
  if (!(RETURN_REASON_KEYS as string[]).includes(reasonRaw)) {
    return respond<ReturnFormAnswer>({ kind: "bad_input" }, { ok: false, message: "Choose a reason.", field: "reason" });
  }
  const reasonText = String(form.get("reasonText") ?? "").slice(0, 1000);
  try {
    await requestReturn(db, { order, kind, lines, reason: reasonRaw as ReturnReason, reasonText, requestKey, userId: viewer.userId });
  } catch (err) {
    if (err instanceof ReturnError) return respond<ReturnFormAnswer>(err, { ok: false, message: err.message, field: err.field });
    throw err;
  }
  throw redirect(orderPagePath(order.orderNumber, viewer.token), 303);
}
