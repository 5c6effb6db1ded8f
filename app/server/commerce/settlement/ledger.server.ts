import { and, asc, eq, inArray, ne, or, sql } from "drizzle-orm";
import { type Db, orderMoneyMovements, orders } from "../../platform/index.server";

/**
 * The order ledger (docs/money-path.md, "The order ledger"): each movement of money on an order
 * is a row, written in the transaction that decides it. An order's paid, refunded and balance
 * figures, and its payment state, are sums over its rows.
 */

export type PaymentState = "unpaid" | "paid" | "partially_refunded" | "refunded";
export type OrderMoney = { paidCents: number; refundedCents: number; balanceCents: number; paymentState: PaymentState };
export type MoneyMovement = typeof orderMoneyMovements.$inferSelect;

/** Who asked for a refund (the shape of provider-calls.server.ts `Actor`, kept here so neither imports the other). */
type Actor = { actorUserId?: string | null; actorLabel?: string };

type LedgerOrder = { id: string; currency: string; paymentReference: string | null; paymentSessionId: string | null };
const reference = (order: LedgerOrder) => order.paymentReference ?? order.paymentSessionId;

/** A payment taken: a succeeded charge (a $0.00 order's too, so its ledger says it is paid). */
export async function recordCharge(tx: Db, order: LedgerOrder, amountCents: number, providerReference: string | null, reason = "Payment received"): Promise<void> {
  await tx.insert(orderMoneyMovements).values({
    orderId: order.id,
    kind: "charge",
    amountCents,
    currency: order.currency,
    state: "succeeded",
    providerReference: providerReference ?? reference(order),
    reason,
    settledAt: sql`now()`,
  });
  await keepPaymentStatus(tx, order.id);
}

/** A refund decided with its recorded provider call: pending until the call is answered. Once per call. */
export async function recordPendingRefund(
  tx: Db,
  refund: { orderId: string; paymentTaskId: string; amountCents: number | null; reason: string; actor?: Actor },
): Promise<void> {
  const [order] = await tx
    .select({ id: orders.id, currency: orders.currency, paymentReference: orders.paymentReference, paymentSessionId: orders.paymentSessionId, total: orders.totalAmountCents })
    .from(orders)
    .where(eq(orders.id, refund.orderId));
  if (!order) return;
  // The whole payment when no amount is given: what the order's charges took, else its total.
  const amountCents = refund.amountCents ?? ((await orderMoney(tx, order.id)).balanceCents || order.total);
  await tx
    .insert(orderMoneyMovements)
    .values({
      orderId: order.id,
      kind: "refund",
      amountCents,
      currency: order.currency,
      state: "pending",
      providerReference: reference(order),
      paymentTaskId: refund.paymentTaskId,
      reason: refund.reason,
      actorUserId: refund.actor?.actorUserId ?? null,
      actorLabel: refund.actor?.actorLabel ?? "system",
    })
    .onConflictDoNothing({ target: orderMoneyMovements.paymentTaskId });
  await keepPaymentStatus(tx, order.id);
}

/** The provider answered the call that makes a refund: the refund succeeded, or (this try) failed. */
export async function settleRefund(tx: Db, paymentTaskId: string, outcome: "succeeded" | "failed"): Promise<void> {
  const settled = await tx
    .update(orderMoneyMovements)
    .set({ state: outcome, settledAt: outcome === "succeeded" ? sql`now()` : null })
    .where(and(eq(orderMoneyMovements.paymentTaskId, paymentTaskId), sql`${orderMoneyMovements.state} <> 'succeeded'`))
    .returning({ orderId: orderMoneyMovements.orderId });
  for (const { orderId } of settled) await keepPaymentStatus(tx, orderId);
}

/** What the ledger gave back of an order's total: nothing while it holds the total, all of it once it holds nothing. */
export function refundedOfTotal(money: OrderMoney, totalCents: number): number {
  if (money.paymentState === "unpaid") return 0;
  return Math.max(0, Math.min(totalCents, totalCents - money.balanceCents));
}

/**
 * The order's cached copy of its ledger: `payment_status` (paid, partially refunded, refunded)
 * and `refunded_cents` (what was given back of the total), which the order list, its filter,
 * the sales and customer roll-ups (their triggers) and the exports read. Every writer of ledger
 * rows calls this in the same transaction, after its write, so the copy never differs from
 * `orderMoney`. An order the ledger has no charge for, or one not taken (unpaid, failed,
 * expired: the checkout's states), keeps its status: only a taken order's status follows the ledger.
 */
export async function keepPaymentStatus(tx: Db, orderId: string): Promise<void> {
  const money = await orderMoney(tx, orderId);
  if (money.paymentState === "unpaid") return;
  const [order] = await tx.select({ total: orders.totalAmountCents }).from(orders).where(eq(orders.id, orderId));
  if (!order) return;
  const refundedCents = refundedOfTotal(money, order.total);
  await tx
    .update(orders)
    .set({ paymentStatus: money.paymentState, refundedCents })
    .where(
      and(
        eq(orders.id, orderId),
        inArray(orders.paymentStatus, ["paid", "partially_refunded", "refunded"]),
        or(ne(orders.paymentStatus, money.paymentState), ne(orders.refundedCents, refundedCents)),
      ),
    );
}

/** An order's ledger rows, oldest first. */
export async function orderMovements(db: Db, orderId: string): Promise<MoneyMovement[]> {
  return db.select().from(orderMoneyMovements).where(eq(orderMoneyMovements.orderId, orderId)).orderBy(asc(orderMoneyMovements.createdAt), asc(orderMoneyMovements.kind));
}

/**
 * Paid, refunded and still held, from the succeeded rows only; and the payment state they make:
 * unpaid (no charge), paid (nothing refunded, or still holding the order's total), refunded
 * (nothing held), partially refunded (between).
 */
export async function orderMoney(db: Db, orderId: string): Promise<OrderMoney> {
  const [sums] = await db
    .select({
      charges: sql<number>`count(*) filter (where ${orderMoneyMovements.kind} = 'charge' and ${orderMoneyMovements.state} = 'succeeded')`.mapWith(Number),
      paid: sql<number>`coalesce(sum(${orderMoneyMovements.amountCents}) filter (where ${orderMoneyMovements.kind} = 'charge' and ${orderMoneyMovements.state} = 'succeeded'), 0)`.mapWith(Number),
      refunded: sql<number>`coalesce(sum(${orderMoneyMovements.amountCents}) filter (where ${orderMoneyMovements.kind} = 'refund' and ${orderMoneyMovements.state} = 'succeeded'), 0)`.mapWith(Number),
    })
    .from(orderMoneyMovements)
    .where(eq(orderMoneyMovements.orderId, orderId));
  const paidCents = sums?.paid ?? 0;
  const refundedCents = sums?.refunded ?? 0;
  const balanceCents = paidCents - refundedCents;
  // A refund of what was paid beyond the total (a paid-amount difference) leaves the order paid.
  const [order] = await db.select({ total: orders.totalAmountCents }).from(orders).where(eq(orders.id, orderId));
  const paymentState: PaymentState = !sums?.charges
    ? "unpaid"
    : refundedCents === 0 || balanceCents >= (order?.total ?? 0)
      ? "paid"
      : balanceCents <= 0
        ? "refunded"
        : "partially_refunded";
  return { paidCents, refundedCents, balanceCents, paymentState };
}
