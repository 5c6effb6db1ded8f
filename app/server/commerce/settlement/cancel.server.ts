import { eq } from "drizzle-orm";
import { type Db, orders } from "../../platform/index.server";
import { releaseDiscountUse } from "../discounts/uses.server";
import { confirmPayment } from "./confirm.server";
import { recordProviderCall, runOrderCall, runProviderCall, type Actor } from "./provider-calls.server";
import { pendingRefundCalls, recordRestRefund } from "./refunds.server";
import { shopProviders, type Providers } from "./providers.server";
import { releaseOrderStock } from "./stock.server";

type OrderRow = typeof orders.$inferSelect;

export type ClosingMove = {
  to: "cancelled" | "processing";
  /** Cancelling a paid order: give the money back (default yes). */
  refund?: boolean;
  actor: Actor & { actorUserId: string | null; actorLabel: string };
};

export type RefundResult = "none" | "refunded" | "failed";

/** A taken payment the shop still holds (some of): cancelling gives back what is left. */
export const takenAndHeld = (paymentStatus: string) => paymentStatus === "paid" || paymentStatus === "partially_refunded";

const CANCEL_REFUND_NOTE = "Payment refunded in full: the order was cancelled.";
const CANCEL_REST_NOTE = "The rest of the payment refunded: the order was cancelled.";

/**
 * Inside an admin's status change, with the order locked: what cancelling it (or accepting it
 * unpaid) sets in motion. Stock a paid order took goes back now; the refund and the closing of
 * an open payment page are recorded with the change and made after the commit.
 */
export async function recordOrderClosing(tx: Db, order: OrderRow, move: ClosingMove): Promise<{ stockReturned: boolean }> {
  const cancelling = move.to === "cancelled";
  const stockReturned =
    cancelling && order.paidAt ? await releaseOrderStock(tx, order.id, { userId: move.actor.actorUserId, label: move.actor.actorLabel }) : false;
  // A paid $0.00 order was never charged (checkout/free-order.server.ts): nothing to refund.
  if (cancelling && takenAndHeld(order.paymentStatus) && move.refund !== false && order.totalAmountCents > 0) {
    // After partial refunds, what is left is one more refund row; else the whole payment, as always.
    if ((await recordRestRefund(tx, order, CANCEL_REST_NOTE, move.actor)) === "whole") {
      await recordProviderCall(tx, { orderId: order.id, kind: "refund", note: CANCEL_REFUND_NOTE, actor: move.actor });
    }
  }
  // Cancelled before it was paid: the discount code's use is given back.
  if (cancelling && order.paymentStatus === "unpaid") await releaseDiscountUse(tx, order.id);
  // An unpaid order cancelled, or accepted as paid another way: its payment page must stop
  // taking money, so a payment or an expiry arriving later cannot take the order back.
  if (order.paymentStatus === "unpaid" && order.paymentSessionId) {
    await recordProviderCall(tx, { orderId: order.id, kind: "expire_session", actor: move.actor });
  }
  return { stockReturned };
}

/** After the commit: makes the calls recorded by `recordOrderClosing` now (the worker retries what fails). */
export async function carryOutOrderClosing(
  db: Db,
  order: OrderRow,
  move: ClosingMove,
  opts: { providers?: Providers } = {},
): Promise<RefundResult> {
  const providers = opts.providers ?? shopProviders(db);
  if (move.to === "cancelled" && takenAndHeld(order.paymentStatus) && move.refund !== false && order.totalAmountCents > 0) {
    const rest = await pendingRefundCalls(db, order.id);
    if (!rest.length) return (await runOrderCall(db, order.id, "refund", { providers, actor: move.actor })) === "done" ? "refunded" : "failed";
    let result: RefundResult = "refunded";
    for (const taskId of rest) if ((await runProviderCall(db, taskId, { providers, actor: move.actor })) !== "done") result = "failed";
    return result;
  }
  if (order.paymentStatus !== "unpaid" || !order.paymentSessionId) return "none";
  await runOrderCall(db, order.id, "expire_session", { providers });
  // A payment that got in before the page closed is found here, and refunded.
  await confirmPayment(db, order.paymentSessionId, { providers });
  if (move.to !== "cancelled") return "none";
  const [after] = await db.select({ paymentStatus: orders.paymentStatus }).from(orders).where(eq(orders.id, order.id));
  if (after?.paymentStatus === "refunded") return "refunded";
  return after?.paymentStatus === "paid" ? "failed" : "none";
}
