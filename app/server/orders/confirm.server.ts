import { and, asc, desc, eq, gte, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { orderEvents, orderItems, orders, products } from "../db/schema";
import { logger } from "../logger.server";
import { getPaymentProvider, type PaymentProvider, type RemoteSession } from "../payments/index.server";
import { addOrderEvent } from "./events.server";
import { notCompletedMail, orderConfirmationMail, sendOrderMail } from "./mails.server";
import { refundOrderPayment } from "./refund.server";

type OrderRow = typeof orders.$inferSelect;

export type OrderReceipt = { orderNumber: string; totalAmountCents: number; email: string };

/**
 * Where a payment stands, as the result page and the webhook see it. `error` covers a session
 * the provider cannot confirm for this order; it never reveals anything about another order.
 */
export type PaymentOutcome =
  | { state: "paid" | "failed" | "expired" | "pending"; order: OrderReceipt }
  | { state: "sold_out" | "cancelled"; order: OrderReceipt; message: string }
  | { state: "not_found" }
  | { state: "error" };

class SoldOut extends Error {}

const receipt = (o: OrderRow): OrderReceipt => ({
  orderNumber: o.orderNumber,
  totalAmountCents: o.totalAmountCents,
  email: o.email,
});

async function findBySession(db: Db, sessionId: string) {
  const [order] = await db.select().from(orders).where(eq(orders.paymentSessionId, sessionId));
  return order;
}

/**
 * Brings an order in line with its payment session: the webhook, the result page and any reload
 * may call it for the same session, in any order, any number of times. The provider's answer is
 * the truth; the order row, locked FOR UPDATE, decides who applies it, so exactly one caller
 * takes the stock and sends the confirmation.
 */
export async function confirmPayment(
  db: Db,
  sessionId: string,
  opts: { provider?: PaymentProvider } = {},
): Promise<PaymentOutcome> {
  const order = await findBySession(db, sessionId);
  if (!order) return { state: "not_found" };
  if (order.paymentStatus === "expired" || order.paymentStatus === "failed") {
    if (await recordLatePayment(db, order, opts.provider)) {
      const fresh = (await findBySession(db, sessionId))!;
      const reason = (await closingEvent(db, fresh.id))?.note ?? "";
      await sendOrderMail(db, fresh.email, notCompletedMail(fresh, reason), "order-late-payment");
      return settled(db, fresh, opts.provider);
    }
  }
  if (order.paymentStatus !== "unpaid") return settled(db, order, opts.provider);

  let remote: RemoteSession | null;
  let provider: PaymentProvider;
  try {
    provider = opts.provider ?? getPaymentProvider(db, order.paymentProvider as "test" | "stripe");
    remote = await provider.retrieveSession(sessionId);
  } catch (err) {
    logger.error({ err: (err as Error).message, orderId: order.id }, "payment session could not be read");
    return { state: "error" };
  }
  if (!remote) {
    logger.error({ orderId: order.id }, "the payment provider does not know this order's session");
    return { state: "error" };
  }
  // The session must be the one opened for this order, for its amount: anything else is refused.
  if ((remote.orderId && remote.orderId !== order.id) || remote.id !== sessionId) {
    logger.error({ orderId: order.id, sessionOrder: remote.orderId }, "payment session belongs to another order");
    return { state: "error" };
  }
  if (remote.state === "open") return { state: "pending", order: receipt(order) };
  if (remote.state === "failed" || remote.state === "expired") {
    await closeUnpaidOrder(db, order.id, remote.state, provider.name);
    return settled(db, (await findBySession(db, sessionId))!, provider);
  }
  if (remote.amountTotalCents !== order.totalAmountCents || (remote.currency ?? order.currency) !== order.currency) {
    logger.error(
      { orderId: order.id, paid: remote.amountTotalCents, due: order.totalAmountCents },
      "payment amount does not match the order",
    );
    return { state: "error" };
  }

  const applied = await db.transaction((tx) => takePayment(tx, order.id, remote, provider.name));
  const fresh = (await findBySession(db, sessionId))!;
  if (applied === "paid") {
    const lines = await db.select().from(orderItems).where(eq(orderItems.orderId, fresh.id));
    await sendOrderMail(db, fresh.email, orderConfirmationMail(fresh, lines), "order-confirmation");
  } else if (applied === "sold_out") {
    const reason = (await closingEvent(db, fresh.id))?.note ?? "";
    await sendOrderMail(db, fresh.email, notCompletedMail(fresh, reason), "order-sold-out");
  }
  return settled(db, fresh, provider);
}

/**
 * Inside one transaction: lock the order, take every line's stock with a conditional UPDATE
 * (never below zero; unlimited-stock products are left alone), then mark the order paid. When a
 * line cannot be served the stock changes roll back to a savepoint and the order is cancelled
 * with its payment flagged for refund.
 */
async function takePayment(tx: Db, orderId: string, remote: RemoteSession, providerName: string) {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!order || order.paymentStatus !== "unpaid") return "already" as const;
  // Same product order in every transaction, so two confirmations never deadlock on rows.
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.productId));
  const short: string[] = [];
  const untracked: string[] = [];
  const taken: string[] = [];
  try {
    await tx.transaction(async (sp) => {
      for (const item of items) {
        if (!item.productId) {
          short.push(item.name);
          continue;
        }
        const took = await sp
          .update(products)
          .set({ stockQuantity: sql`${products.stockQuantity} - ${item.quantity}`, updatedAt: new Date() })
          .where(
            and(
              eq(products.id, item.productId),
              eq(products.unlimitedStock, false),
              gte(products.stockQuantity, item.quantity),
            ),
          )
          .returning({ id: products.id });
        if (took.length) {
          taken.push(item.id);
          continue;
        }
        const [p] = await sp.select({ unlimited: products.unlimitedStock }).from(products).where(eq(products.id, item.productId));
        if (p?.unlimited) untracked.push(item.id);
        else short.push(item.name);
      }
      if (short.length) throw new SoldOut();
    });
  } catch (err) {
    if (!(err instanceof SoldOut)) throw err;
  }

  const now = new Date();
  const paidFields = { paidAt: now, paymentReference: remote.paymentReference, updatedAt: now, version: sql`${orders.version} + 1` };
  // An admin accepted this order before it was paid (pending → processing, or further): their
  // status stands, and the goods may already be on their way, so a shortfall is not a cancel.
  const accepted = order.status !== "pending";
  if (short.length && accepted) {
    await tx.update(orders).set({ ...paidFields, paymentStatus: "paid" }).where(eq(orders.id, orderId));
    await tx.update(orderItems).set({ stockTracked: false }).where(eq(orderItems.orderId, orderId));
    await addOrderEvent(tx, {
      orderId,
      kind: "attention",
      note: `Payment received for an order accepted before payment, but ${short.map((n) => `"${n}"`).join(", ")} had too little stock to take: no stock was taken. Check the stock by hand.`,
      actorLabel: providerName,
    });
    return "paid" as const;
  }
  if (short.length) {
    await tx.update(orders).set({ ...paidFields, paymentStatus: "paid", status: "cancelled" }).where(eq(orders.id, orderId));
    // No line holds stock, so a later release (releaseOrderStock) puts nothing back.
    await tx.update(orderItems).set({ stockTracked: false }).where(eq(orderItems.orderId, orderId));
    const names = short.map((n) => `"${n}"`).join(", ");
    await addOrderEvent(tx, {
      orderId,
      kind: "sold_out",
      fromStatus: order.status,
      toStatus: "cancelled",
      note: `${names} sold out before your payment went through.`,
      actorLabel: providerName,
    });
    return "sold_out" as const;
  }
  // What was taken is what a cancel gives back: a product may have changed between unlimited and
  // counted stock since the order was placed.
  if (taken.length) await tx.update(orderItems).set({ stockTracked: true }).where(inArray(orderItems.id, taken));
  if (untracked.length) await tx.update(orderItems).set({ stockTracked: false }).where(inArray(orderItems.id, untracked));
  const status = accepted ? order.status : "processing";
  await tx.update(orders).set({ ...paidFields, paymentStatus: "paid", status }).where(eq(orders.id, orderId));
  await addOrderEvent(tx, {
    orderId,
    kind: "payment",
    fromStatus: order.status,
    toStatus: status,
    note: `Payment received (${providerName}${remote.paymentReference ? ` ${remote.paymentReference}` : ""})`,
    actorLabel: providerName,
  });
  return "paid" as const;
}

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

/**
 * A payment that went through after its order was closed: an admin cancelled the order while the
 * shopper was still on the payment page, and the session could not be closed in time. The money
 * is never kept: the payment is recorded (no stock is taken) and refunded by `settled`.
 * Answers true when this call recorded it.
 */
async function recordLatePayment(db: Db, order: OrderRow, given?: PaymentProvider): Promise<boolean> {
  if (!order.paymentSessionId) return false;
  let remote: RemoteSession | null;
  let provider: PaymentProvider;
  try {
    provider = given ?? getPaymentProvider(db, order.paymentProvider as "test" | "stripe");
    remote = await provider.retrieveSession(order.paymentSessionId);
  } catch (err) {
    // The next look at the order (a webhook retry, a reload) asks again.
    logger.error({ err: (err as Error).message, orderId: order.id }, "payment session of a closed order could not be read");
    return false;
  }
  if (!remote || remote.state !== "paid" || remote.id !== order.paymentSessionId) return false;
  if (remote.orderId && remote.orderId !== order.id) return false;
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
    if (!row || (row.paymentStatus !== "expired" && row.paymentStatus !== "failed")) return false;
    const now = new Date();
    await tx
      .update(orders)
      .set({
        paymentStatus: "paid",
        paidAt: now,
        paymentReference: remote.paymentReference,
        updatedAt: now,
        version: sql`${orders.version} + 1`,
      })
      .where(eq(orders.id, order.id));
    // No line took stock, so a later release puts nothing back.
    await tx.update(orderItems).set({ stockTracked: false }).where(eq(orderItems.orderId, order.id));
    await addOrderEvent(tx, {
      orderId: order.id,
      kind: "late_payment",
      note: "This order was cancelled before your payment went through.",
      actorLabel: provider.name,
    });
    logger.warn({ orderId: order.id }, "payment arrived for a closed order; refunding it");
    return true;
  });
}

/** Why a paid order was closed without being fulfilled: it sold out, or it was cancelled before the payment. */
async function closingEvent(db: Db, orderId: string) {
  const [event] = await db
    .select({ kind: orderEvents.kind, note: orderEvents.note })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), inArray(orderEvents.kind, ["sold_out", "late_payment"])))
    .orderBy(desc(orderEvents.createdAt))
    .limit(1);
  return event;
}

const REFUND_REASONS = {
  sold_out: "Payment refunded in full: the order sold out.",
  late_payment: "Payment refunded in full: the order was cancelled before the payment went through.",
} as const;

/** The outcome of an order whose payment is already decided; finishes a refund still owed. */
async function settled(db: Db, order: OrderRow, provider?: PaymentProvider): Promise<PaymentOutcome> {
  const base = receipt(order);
  if (order.paymentStatus === "unpaid") return { state: "pending", order: base };
  if (order.paymentStatus === "failed" || order.paymentStatus === "expired") return { state: order.paymentStatus, order: base };
  const closing = order.status === "cancelled" ? await closingEvent(db, order.id) : undefined;
  if (closing === undefined) {
    if (order.status !== "cancelled") return { state: "paid", order: base };
    // Paid, then cancelled by the shop: no longer a confirmed order. The admin chose whether to
    // refund (status.server.ts), so nothing is refunded from here.
    const money =
      order.paymentStatus === "refunded" ? "Your payment has been refunded." : "Contact us if you have questions about your payment.";
    return { state: "cancelled", order: base, message: `This order has been cancelled. ${money}` };
  }
  const kind = closing.kind === "late_payment" ? "late_payment" : "sold_out";
  let refunded = order.paymentStatus === "refunded";
  // Every later look at the order may retry the refund (the provider keys it once per order).
  if (!refunded) {
    refunded = await refundOrderPayment(db, order, {
      reason: REFUND_REASONS[kind],
      failureLog: `automatic refund failed (${kind})`,
      flagOnce: true,
      provider,
    });
  }
  const money = refunded ? "Your payment has been refunded." : "Your payment will be refunded.";
  return { state: kind === "sold_out" ? "sold_out" : "cancelled", order: base, message: `${closing.note} ${money}` };
}
