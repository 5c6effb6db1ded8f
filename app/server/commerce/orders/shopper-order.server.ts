import { asc, eq } from "drizzle-orm";
import { carrierName } from "~/lib/carriers";
import type { ShopperOrder, ShopperShipment, TimelineStep } from "~/lib/shopper-order-view";
import { type Db, orderEvents, orderItems, orders } from "../../platform/index.server";
import { orderMoneyOf } from "./order-money.server";
import { isOrderLinkToken } from "./order-link.server";

type OrderRow = typeof orders.$inferSelect;
type EventRow = { kind: string; toStatus: string | null; note: string; createdAt: Date };

/** Who is asking: the signed-in shopper (if any) and the link's token (if any). */
export type OrderViewer = { userId: string | null; token: string | null };

/** Order numbers are short; anything else is not looked up at all. */
const PLAUSIBLE_NUMBER = /^[A-Za-z0-9-]{1,40}$/;

/**
 * The order when this viewer may see it: its signed-in owner, or anyone holding the link made for
 * it (app/server/commerce/orders/order-link.server.ts). Otherwise null, whatever the reason (no such order,
 * someone else's, a tampered token), so the page answers every refusal with the same 404.
 */
export async function findViewableOrder(db: Db, orderNumber: string, viewer: OrderViewer): Promise<OrderRow | null> {
  if (!PLAUSIBLE_NUMBER.test(orderNumber)) return null;
  const [order] = await db.select().from(orders).where(eq(orders.orderNumber, orderNumber));
  if (!order) {
    // The same work as for a real order, so a missing one does not answer noticeably faster.
    if (viewer.token) isOrderLinkToken({ orderNumber, email: "" }, viewer.token);
    return null;
  }
  const owner = viewer.userId !== null && order.userId === viewer.userId;
  const linked = isOrderLinkToken(order, viewer.token);
  return owner || linked ? order : null;
}

/** The order page's content: status and timeline, lines, every money line, the address. */
export async function getShopperOrder(db: Db, orderNumber: string, viewer: OrderViewer): Promise<ShopperOrder | null> {
  const order = await findViewableOrder(db, orderNumber, viewer);
  if (!order) return null;
  const [lines, events] = await Promise.all([
    db
      .select({
        id: orderItems.id,
        productId: orderItems.productId,
        name: orderItems.name,
        imageUrl: orderItems.imageUrl,
        unitPriceCents: orderItems.unitPriceCents,
        quantity: orderItems.quantity,
        lineTotalCents: orderItems.lineTotalCents,
      })
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id))
      .orderBy(asc(orderItems.name), asc(orderItems.id)),
    db
      .select({ kind: orderEvents.kind, toStatus: orderEvents.toStatus, note: orderEvents.note, createdAt: orderEvents.createdAt })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
  ]);
  return {
    orderNumber: order.orderNumber,
    createdAt: order.createdAt.toISOString(),
    status: order.status,
    paymentStatus: order.paymentStatus,
    statusText: statusText(order),
    ...orderMoneyOf(order),
    lines,
    address: {
      name: `${order.firstName} ${order.lastName}`.trim(),
      phone: order.phone,
      address: order.address,
      city: order.city,
      state: order.state,
      zipCode: order.zipCode,
      country: order.country,
    },
    shipment: shipmentOf(order),
    timeline: shopperTimeline(order, events),
  };
}

function shipmentOf(order: Pick<OrderRow, "carrier" | "trackingNumber" | "trackingUrl">): ShopperShipment | null {
  if (!order.carrier && !order.trackingNumber && !order.trackingUrl) return null;
  return { carrierName: order.carrier ? carrierName(order.carrier) : null, trackingNumber: order.trackingNumber, trackingUrl: order.trackingUrl };
}

/** The status in the shopper's words. */
export function statusText(order: Pick<OrderRow, "status" | "paymentStatus">): string {
  if (order.status === "cancelled") return order.paymentStatus === "refunded" ? "Cancelled and refunded" : "Cancelled";
  if (order.paymentStatus === "refunded") return "Refunded";
  // A partial refund leaves the rest of the order paid.
  const paid = order.paymentStatus === "paid" || order.paymentStatus === "partially_refunded";
  switch (order.status) {
    case "pending":
      return paid ? "Paid" : "Awaiting payment";
    case "processing":
      return paid ? "Paid: being prepared" : "Being prepared";
    case "shipped":
      return "Shipped";
    case "completed":
      return "Delivered";
    default:
      return order.status;
  }
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Why the order was cancelled, in words for the shopper; the admin's own notes stay in the admin. */
function cancelNote(e: EventRow | undefined): string | undefined {
  if (!e) return undefined;
  if (e.kind === "sold_out" || e.kind === "late_payment") return e.note;
  if (e.kind === "payment") return "The payment was not completed.";
  return undefined;
}

/**
 * The order's life as the shopper follows it, from the order and its events: placed, paid,
 * shipped (the page adds the tracking link), delivered; or, for a cancelled order, what happened
 * up to the cancellation and the refund. Steps still to come are listed without a date.
 */
export function shopperTimeline(
  order: Pick<OrderRow, "status" | "paymentStatus" | "createdAt" | "paidAt" | "updatedAt">,
  events: EventRow[],
): TimelineStep[] {
  const first = (pred: (e: EventRow) => boolean) => events.find(pred);
  const reached = (status: string) => first((e) => e.toStatus === status);
  const steps: TimelineStep[] = [{ key: "placed", label: "Order placed", done: true, at: order.createdAt.toISOString() }];
  const cancelled = order.status === "cancelled";
  const paid = order.paidAt !== null || ["paid", "partially_refunded", "refunded"].includes(order.paymentStatus);
  if (paid) steps.push({ key: "paid", label: "Paid", done: true, at: iso(order.paidAt) });
  else if (!cancelled) steps.push({ key: "paid", label: "Paid", done: false, at: null });

  const shipped = reached("shipped");
  const wasShipped = shipped !== undefined || order.status === "shipped" || order.status === "completed";
  if (wasShipped) steps.push({ key: "shipped", label: "Shipped", done: true, at: iso(shipped?.createdAt) });
  else if (!cancelled) steps.push({ key: "shipped", label: "Shipped", done: false, at: null });

  const delivered = reached("completed");
  if (delivered || order.status === "completed") steps.push({ key: "delivered", label: "Delivered", done: true, at: iso(delivered?.createdAt) });
  else if (!cancelled) steps.push({ key: "delivered", label: "Delivered", done: false, at: null });

  if (cancelled) {
    const event = first((e) => e.toStatus === "cancelled");
    steps.push({ key: "cancelled", label: "Cancelled", done: true, at: iso(event?.createdAt ?? order.updatedAt), note: cancelNote(event) });
  }
  const refund = first((e) => e.kind === "refund");
  if (refund || order.paymentStatus === "refunded") {
    steps.push({ key: "refunded", label: "Refunded", done: true, at: iso(refund?.createdAt), note: "Your payment was refunded in full." });
  }
  return steps;
}
