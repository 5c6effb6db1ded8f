import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { ORDER_STATUSES, orderItems, orders } from "../db/schema";
import { logger } from "../logger.server";
import { getPaymentProvider } from "../payments/index.server";
import { confirmPayment } from "./confirm.server";
import { addOrderEvent } from "./events.server";
import { sendOrderMail } from "./mails.server";
import { refundOrderPayment } from "./refund.server";
import { orderCancelledMail, orderShippedMail } from "./status-mails.server";
import { releaseOrderStock } from "./stock.server";

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * The only moves an admin may make (issue 10). `pending` is unpaid, `processing` is paid (or
 * accepted) and waiting to ship; completed and cancelled orders are final.
 */
export const ORDER_MOVES: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ["processing", "cancelled"],
  processing: ["shipped", "cancelled"],
  shipped: ["completed"],
  completed: [],
  cancelled: [],
};

export const isOrderStatus = (v: unknown): v is OrderStatus => typeof v === "string" && (ORDER_STATUSES as readonly string[]).includes(v);

export function allowedMoves(status: string): readonly OrderStatus[] {
  return isOrderStatus(status) ? ORDER_MOVES[status] : [];
}

/** Why a move is refused, in words an admin understands; null when it is allowed. */
export function moveRefusal(from: string, to: OrderStatus): string | null {
  if (allowedMoves(from).includes(to)) return null;
  if (from === to) return `This order is already ${from}.`;
  if (from === "cancelled") return "This order is cancelled: its status can no longer change.";
  if (from === "completed") return `This order is completed: it cannot go back to ${to}.`;
  const allowed = allowedMoves(from);
  if (allowed.length === 0) return `This order is ${from}: its status can no longer change here.`;
  return `A ${from} order cannot be moved to ${to}. It can only become ${allowed.join(" or ")}.`;
}

/** A refused change: `status` is the HTTP status the admin's request gets. */
export class OrderChangeError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 409,
    readonly code: "not_found" | "not_allowed" | "stale" | "bad_input",
  ) {
    super(message);
  }
}

export type OrderActor = { id: string; name: string; email: string };

export type StatusChangeInput = {
  orderId: string;
  to: OrderStatus;
  /** The `version` the admin saw: anything else means someone changed the order meanwhile. */
  expectedVersion: number;
  actor: OrderActor;
  trackingNumber?: string;
  /** Cancelling a paid order: give the money back through the payment provider (default yes). */
  refund?: boolean;
};

export type StatusChangeResult = {
  from: OrderStatus;
  to: OrderStatus;
  version: number;
  stockReturned: boolean;
  refund: "none" | "refunded" | "failed";
};

const actorLabel = (a: OrderActor) => a.name || a.email;

/**
 * Moves an order to another status. The order row is locked FOR UPDATE and its version compared
 * with what the admin saw, so of two admins changing it at once exactly one wins; the stock of a
 * cancelled paid order goes back in the same transaction (once: orders.stock_released_at).
 * Mail and refunds happen after the commit, so a rolled-back change never sends or refunds.
 */
export async function changeOrderStatus(db: Db, input: StatusChangeInput): Promise<StatusChangeResult> {
  const tracking = (input.trackingNumber ?? "").trim();
  if (tracking.length > 100) throw new OrderChangeError("The tracking number is too long (100 characters at most).", 400, "bad_input");

  const changed = await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for("update");
    if (!order) throw new OrderChangeError("Order not found", 404, "not_found");
    if (order.version !== input.expectedVersion) {
      throw new OrderChangeError(
        `Someone else changed this order while you were looking at it: it is now ${order.status}. Check it and try again.`,
        409,
        "stale",
      );
    }
    const refusal = moveRefusal(order.status, input.to);
    if (refusal) throw new OrderChangeError(refusal, 409, "not_allowed");

    const now = new Date();
    // An unpaid order cancelled here must not come back to life if its payment page is used later.
    const closesPayment = input.to === "cancelled" && order.paymentStatus === "unpaid";
    const [updated] = await tx
      .update(orders)
      .set({
        status: input.to,
        ...(closesPayment ? { paymentStatus: "expired" as const } : {}),
        updatedAt: now,
        version: sql`${orders.version} + 1`,
      })
      .where(eq(orders.id, order.id))
      .returning({ version: orders.version });
    const notes = [
      input.to === "shipped" && tracking ? `Tracking number: ${tracking}` : "",
      closesPayment ? "Payment session closed: the order was cancelled before it was paid." : "",
    ];
    await addOrderEvent(tx, {
      orderId: order.id,
      kind: "status",
      fromStatus: order.status,
      toStatus: input.to,
      note: notes.filter(Boolean).join(" "),
      actorUserId: input.actor.id,
      actorLabel: actorLabel(input.actor),
    });
    const stockReturned =
      input.to === "cancelled" && order.paidAt
        ? await releaseOrderStock(tx, order.id, { userId: input.actor.id, label: actorLabel(input.actor) })
        : false;
    return { order, version: updated!.version, stockReturned };
  });

  const { order } = changed;
  let refund: StatusChangeResult["refund"] = "none";
  if (input.to === "cancelled" && order.paymentStatus === "paid" && input.refund !== false) {
    const refunded = await refundOrderPayment(db, order, {
      reason: "Payment refunded in full: the order was cancelled.",
      failureLog: "refund of a cancelled order failed",
      actor: { actorUserId: input.actor.id, actorLabel: actorLabel(input.actor) },
    });
    refund = refunded ? "refunded" : "failed";
  }
  if (input.to === "cancelled" && order.paymentStatus === "unpaid" && order.paymentSessionId) {
    refund = await closePaymentSession(db, order, order.paymentSessionId);
  }
  // Accepted unpaid (paid another way): the online payment page closes, so a payment or its
  // expiry arriving later cannot take the order back from the admin.
  if (input.to === "processing" && order.paymentStatus === "unpaid" && order.paymentSessionId) {
    await closePaymentSession(db, order, order.paymentSessionId);
  }
  if (input.to === "shipped") {
    const lines = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    await sendOrderMail(db, order.email, orderShippedMail(order, lines, tracking), "order-shipped");
  } else if (input.to === "cancelled") {
    await sendOrderMail(db, order.email, orderCancelledMail(order, refund), "order-cancelled");
  }
  return { from: order.status, to: input.to, version: changed.version, stockReturned: changed.stockReturned, refund };
}

/**
 * A cancelled unpaid order's payment page must stop taking money. The session is closed at the
 * provider; a payment that got in before that is found by `confirmPayment` and refunded.
 */
async function closePaymentSession(
  db: Db,
  order: Pick<typeof orders.$inferSelect, "id" | "paymentProvider">,
  sessionId: string,
): Promise<StatusChangeResult["refund"]> {
  try {
    await getPaymentProvider(db, order.paymentProvider as "test" | "stripe").expireSession(sessionId);
  } catch (err) {
    logger.error({ err: (err as Error).message, orderId: order.id }, "payment session of a cancelled order could not be closed");
  }
  await confirmPayment(db, sessionId);
  const [after] = await db.select({ paymentStatus: orders.paymentStatus }).from(orders).where(eq(orders.id, order.id));
  if (after?.paymentStatus === "refunded") return "refunded";
  return after?.paymentStatus === "paid" ? "failed" : "none";
}
