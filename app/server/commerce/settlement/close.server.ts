import { and, eq, isNull, lt, sql, type SQL } from "drizzle-orm";
import { type Db, orders } from "../../platform/index.server";
import { releaseDiscountUse } from "../discounts/uses.server";
import { addOrderEvent } from "../orders/events.server";

/**
 * A declined or lapsed payment: the unpaid order is cancelled, once. Nothing was taken from stock.
 * An order an admin accepted unpaid (no longer pending) stays as the admin left it.
 */
export async function closeUnpaidOrder(
  db: Db,
  orderId: string,
  outcome: "failed" | "expired",
  actorLabel = "system",
  note?: string,
  /** A further condition the order must meet once it is locked. */
  onlyIf?: SQL,
) {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(and(eq(orders.id, orderId), onlyIf)).for("update");
    if (!order || order.paymentStatus !== "unpaid" || order.status !== "pending") return false;
    await tx
      .update(orders)
      .set({ paymentStatus: outcome, status: "cancelled", updatedAt: new Date(), version: sql`${orders.version} + 1` })
      .where(eq(orders.id, orderId));
    // An order that closes unpaid gives its discount code's use back.
    await releaseDiscountUse(tx, orderId);
    await addOrderEvent(tx, {
      orderId,
      kind: "payment",
      fromStatus: order.status,
      toStatus: "cancelled",
      note: note ?? (outcome === "failed" ? "Payment declined" : "Payment session expired"),
      actorLabel,
    });
    return true;
  });
}

/** Longer than any provider takes to open a session (Stripe's SDK: 20 s, retried twice). */
export const SESSION_OPEN_LIMIT_MS = 2 * 60_000;

/**
 * An order whose payment session was never opened, well after it should have been (its server
 * was killed mid-checkout): cancelled, so its idempotency key and the shopper can try again.
 */
export async function closeInterruptedCheckout(
  db: Db,
  order: Pick<typeof orders.$inferSelect, "id" | "createdAt" | "paymentSessionId">,
  now = Date.now(),
) {
  if (order.paymentSessionId || now - order.createdAt.getTime() < SESSION_OPEN_LIMIT_MS) return false;
  // Checked again under the order's lock, by the database's clock: the session may have been
  // saved since, and this server's clock may run ahead of the one that stamped created_at.
  const stillInterrupted = and(
    isNull(orders.paymentSessionId),
    lt(orders.createdAt, sql`now() - make_interval(secs => ${SESSION_OPEN_LIMIT_MS / 1000})`),
  );
  return closeUnpaidOrder(db, order.id, "failed", "system", "The checkout was interrupted before its payment page opened", stillInterrupted);
}
