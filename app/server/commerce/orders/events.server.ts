import { type Db, orderEvents } from "../../platform/index.server";

export type OrderEventInput = {
  orderId: string;
  kind: "status" | "payment" | "sold_out" | "late_payment" | "refund" | "attention" | "return";
  fromStatus?: string | null;
  toStatus?: string | null;
  note?: string;
  actorUserId?: string | null;
  actorLabel?: string;
};

/** One line of an order's timeline (who changed what, when). */
export async function addOrderEvent(db: Db, event: OrderEventInput) {
  await db.insert(orderEvents).values({
    orderId: event.orderId,
    kind: event.kind,
    fromStatus: event.fromStatus ?? null,
    toStatus: event.toStatus ?? null,
    note: event.note ?? "",
    actorUserId: event.actorUserId ?? null,
    actorLabel: event.actorLabel ?? "system",
  });
}
