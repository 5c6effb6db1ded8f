import { eq, sql } from "drizzle-orm";
import { carrierName, checkShipment, type Shipment } from "~/lib/carriers";
import { type Db, DomainError, ORDER_STATUSES, orders } from "../../platform/index.server";
import { carryOutOrderClosing, recordOrderClosing, takenAndHeld, type RefundResult } from "../settlement/cancel.server";
import type { Providers } from "../settlement/providers.server";
import { addOrderEvent } from "./events.server";
import { queueStatusMail, settleCancelMail } from "./status-mails.server";

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * The only moves an admin may make (docs/rules/admin.md, Orders). `pending` is unpaid,
 * `processing` is paid (or accepted) and waiting to ship; completed and cancelled orders are final.
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

export type OrderChangeCode = "not_found" | "not_allowed" | "stale" | "bad_input";

const KIND_OF_CODE = { not_found: "not_found", not_allowed: "conflict", stale: "stale", bad_input: "bad_input" } as const;

/** A refused change; `code` tells the admin's page what happened. */
export class OrderChangeError extends DomainError<(typeof KIND_OF_CODE)[OrderChangeCode]> {
  constructor(
    message: string,
    readonly code: OrderChangeCode,
  ) {
    super(message, KIND_OF_CODE[code]);
  }
}

export type OrderActor = { id: string; name: string; email: string };

export type StatusChangeInput = {
  orderId: string;
  to: OrderStatus;
  /** The `version` the admin saw: anything else means someone changed the order meanwhile. */
  expectedVersion: number;
  actor: OrderActor;
  /** Marking shipped: the carrier picked (ups, usps, fedex, dhl, other, or none) and its tracking (app/lib/carriers.ts). */
  carrier?: string;
  trackingNumber?: string;
  /** The tracking page, for 'other' only: the named carriers' links are built from the number. */
  trackingUrl?: string;
  /** Cancelling a paid order: give the money back through the payment provider (default yes). */
  refund?: boolean;
};

type ChangeOptions = { providers?: Providers };

export type StatusChangeResult = {
  from: OrderStatus;
  to: OrderStatus;
  version: number;
  stockReturned: boolean;
  refund: RefundResult;
};

const actorLabel = (a: OrderActor) => a.name || a.email;

/**
 * Moves an order to another status. The order row is locked FOR UPDATE and its version compared
 * with what the admin saw, so of two admins changing it at once exactly one wins; the stock of a
 * cancelled paid order goes back in the same transaction, and its refund is recorded with it
 * (settlement makes the call after the commit, and retries it until the provider answers), so a
 * rolled-back change never sends or refunds and a committed one is never forgotten. The shipped
 * or cancelled mail is recorded in the send log in that transaction too, with the job that sends it.
 */
export async function changeOrderStatus(db: Db, input: StatusChangeInput, opts: ChangeOptions = {}): Promise<StatusChangeResult> {
  const checked = input.to === "shipped" ? checkShipment(input) : null;
  if (checked && !checked.ok) throw new OrderChangeError(checked.message, "bad_input");
  // Stored with the status in one transaction, so the shipped mail and the shopper's order page read them from the row.
  const shipment: Shipment | null = checked?.ok ? checked.shipment : null;

  const changed = await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for("update");
    if (!order) throw new OrderChangeError("Order not found", "not_found");
    if (order.version !== input.expectedVersion) {
      throw new OrderChangeError(
        `Someone else changed this order while you were looking at it: it is now ${order.status}. Check it and try again.`,
        "stale",
      );
    }
    const refusal = moveRefusal(order.status, input.to);
    if (refusal) throw new OrderChangeError(refusal, "not_allowed");

    const now = new Date();
    // An unpaid order cancelled here must not come back to life if its payment page is used later.
    const closesPayment = input.to === "cancelled" && order.paymentStatus === "unpaid";
    const [updated] = await tx
      .update(orders)
      .set({
        status: input.to,
        ...(closesPayment ? { paymentStatus: "expired" as const } : {}),
        ...(shipment ?? {}),
        updatedAt: now,
        version: sql`${orders.version} + 1`,
      })
      .where(eq(orders.id, order.id))
      .returning();
    const notes = [
      shipment ? shipmentNote(shipment) : "",
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
    const closing = closingMove(input);
    const { stockReturned } = closing ? await recordOrderClosing(tx, order, closing) : { stockReturned: false };
    // Recorded with the change, so a crash after the commit cannot lose the shopper's mail.
    const refundRecorded = input.to === "cancelled" && takenAndHeld(order.paymentStatus) && input.refund !== false;
    const cancelMail = await queueStatusMail(tx, { to: input.to, before: order, after: updated!, refundRecorded });
    return { order, updated: updated!, version: updated!.version, stockReturned, cancelMail };
  });

  const { order } = changed;
  const closing = closingMove(input);
  const refund = closing ? await carryOutOrderClosing(db, order, closing, opts) : "none";
  await settleCancelMail(db, changed.cancelMail, refund);
  return { from: order.status, to: input.to, version: changed.version, stockReturned: changed.stockReturned, refund };
}

/** The timeline's note: 'Tracking number: 1Z…', with the carrier and the link when there is one. */
function shipmentNote(s: Shipment): string {
  const parts = [
    s.carrier ? `Carrier: ${carrierName(s.carrier)}.` : "",
    s.trackingNumber ? `Tracking number: ${s.trackingNumber}` : "",
    s.carrier === "other" && s.trackingUrl ? `Tracking page: ${s.trackingUrl}` : "",
  ];
  return parts.filter(Boolean).join(" ");
}

/** Cancelling, or accepting an order before it is paid, hands settlement its part. */
function closingMove(input: StatusChangeInput) {
  if (input.to !== "cancelled" && input.to !== "processing") return null;
  return { to: input.to, refund: input.refund, actor: { actorUserId: input.actor.id, actorLabel: actorLabel(input.actor) } };
}
