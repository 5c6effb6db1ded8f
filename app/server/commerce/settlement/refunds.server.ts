import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { formatMoney } from "~/lib/money";
import {
  isRefundProblem,
  linePaidCents,
  planRefund,
  shippingPaid,
  type LineLedger,
  type PlannedLine,
  type RefundLedger,
} from "~/lib/refund-amounts";
import { DomainError, type Db, orderItems, orderMoneyMovements, orderReturns, orders, orderStockMoves as stockMoves, paymentTasks } from "../../platform/index.server";
import { giveBackProductUnits } from "../../catalog/index.server";
import { addOrderEvent } from "../orders/events.server";
import { keepPaymentStatus, orderMoney } from "./ledger.server";
import { runProviderCall, scheduleCallJob, type CallOutcome } from "./provider-calls.server";
import type { Providers } from "./providers.server";

/**
 * Partial refunds on the order ledger (docs/money-path.md, "The walk of a refund"): the owner
 * gives back some units of some lines, some shipping and an adjustment; each refund is a ledger
 * row with its own provider call (idempotency key per row), decided in one transaction with the
 * order locked and its version checked.
 */

export type RefundLineInput = { orderItemId: string; quantity: number; restock: boolean };

export type RefundActor = { actorUserId: string | null; actorLabel: string };

export type RefundInput = {
  orderId: string;
  /** orders.version the admin saw; another one is refused as a conflict. */
  expectedVersion: number;
  /** Lines with quantity 0 may be left out. */
  lines: RefundLineInput[];
  /** Shipping to refund (0..what is left of it). */
  shippingCents: number;
  /** An extra amount (goodwill), >= 0; needs `adjustmentReason` when above zero. */
  adjustmentCents: number;
  adjustmentReason?: string | null;
  reason?: string | null;
  /** A refund made for a return: its stock was settled when the return was received, so none moves here. */
  returnId?: string | null;
  actor: RefundActor;
};

/** What the refund dialog shows, and what caps a refund (pending, succeeded and open failed refunds count). */
export type RefundableOrder = {
  orderId: string;
  orderNumber: string;
  version: number;
  currency: string;
  paymentState: string;
  lines: {
    orderItemId: string;
    name: string;
    quantity: number;
    refundedQuantity: number;
    refundableQuantity: number;
    paidCents: number;
    refundedCents: number;
    refundableCents: number;
    stockTracked: boolean;
  }[];
  shipping: { paidCents: number; refundedCents: number; refundableCents: number };
  paidCents: number;
  refundedCents: number;
  maxRefundCents: number;
};

export type RefundOutcome = { movementId: string; amountCents: number; state: "pending" | "succeeded" | "failed" };

export const ORDER_CHANGED = "This order changed since you opened it. Review it and try again.";

/** A refund refused: the message shown, beside `field` when it is about one. */
export class RefundError extends DomainError<"bad_input" | "not_found" | "conflict" | "rejected"> {
  constructor(
    message: string,
    kind: "bad_input" | "not_found" | "conflict" | "rejected" = "bad_input",
    readonly field?: string,
  ) {
    super(message, kind);
    this.name = "RefundError";
  }
}

type OrderRow = typeof orders.$inferSelect;
type ItemRow = typeof orderItems.$inferSelect;
type MovementRow = typeof orderMoneyMovements.$inferSelect;

/**
 * The refunds that count against what may still be refunded: pending (decided, not answered),
 * succeeded, and failed ones still owed (retried on schedule). A failed one the owner closed does not.
 */
async function countedRefunds(db: Db, orderId: string): Promise<MovementRow[]> {
  return db
    .select()
    .from(orderMoneyMovements)
    .where(and(eq(orderMoneyMovements.orderId, orderId), eq(orderMoneyMovements.kind, "refund"), isNull(orderMoneyMovements.closedAt)))
    .orderBy(asc(orderMoneyMovements.createdAt));
}

/** The order's lines and shipping with what was paid and what counted refunds gave back of each. */
async function ledgerOf(db: Db, order: OrderRow): Promise<{ items: ItemRow[]; ledger: RefundLedger }> {
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id));
  const refunds = await countedRefunds(db, order.id);
  const money = await orderMoney(db, order.id);
  const lines: LineLedger[] = items.map((item) => ({
    orderItemId: item.id,
    name: item.name,
    quantity: item.quantity,
    paidCents: linePaidCents(item, order.pricesIncludeTax),
    taxCents: item.taxCents,
    refundedQuantity: 0,
    refundedCents: 0,
    refundedTaxCents: 0,
  }));
  const byId = new Map(lines.map((l) => [l.orderItemId, l]));
  const shipping = { ...shippingPaid(order, items), refundedCents: 0, refundedTaxCents: 0 };
  let refundedCents = 0;
  for (const refund of refunds) {
    refundedCents += refund.amountCents;
    let linesTax = 0;
    for (const part of refund.lines) {
      const line = byId.get(part.orderItemId);
      if (!line) continue;
      line.refundedQuantity += part.quantity;
      line.refundedCents += part.amountCents;
      line.refundedTaxCents += part.taxCents ?? 0;
      linesTax += part.taxCents ?? 0;
    }
    shipping.refundedCents += refund.shippingCents;
    shipping.refundedTaxCents += Math.max(0, refund.taxCents - linesTax);
  }
  return { items, ledger: { lines, shipping, paidCents: money.paidCents, refundedCents } };
}

/** The order's lines, shipping and totals as a refund sees them; null when there is no such order. */
export async function refundableFor(db: Db, orderId: string): Promise<RefundableOrder | null> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) return null;
  const { items, ledger } = await ledgerOf(db, order);
  const money = await orderMoney(db, orderId);
  const maxRefundCents = Math.max(0, ledger.paidCents - ledger.refundedCents);
  return {
    orderId: order.id,
    orderNumber: order.orderNumber,
    version: order.version,
    currency: order.currency,
    paymentState: money.paymentState,
    lines: ledger.lines.map((l, i) => ({
      orderItemId: l.orderItemId,
      name: l.name,
      quantity: l.quantity,
      refundedQuantity: l.refundedQuantity,
      refundableQuantity: l.quantity - l.refundedQuantity,
      paidCents: l.paidCents,
      refundedCents: l.refundedCents,
      refundableCents: l.paidCents - l.refundedCents,
      stockTracked: items[i]!.stockTracked,
    })),
    shipping: {
      paidCents: ledger.shipping.paidCents,
      refundedCents: ledger.shipping.refundedCents,
      refundableCents: ledger.shipping.paidCents - ledger.shipping.refundedCents,
    },
    paidCents: ledger.paidCents,
    refundedCents: ledger.refundedCents,
    maxRefundCents,
  };
}

const refundNote = (amountCents: number, lines: PlannedLine[], items: ItemRow[], shippingCents: number, adjustmentCents: number) => {
  const names = new Map(items.map((i) => [i.id, i.name]));
  const parts = lines.map((l) => `${l.quantity} × ${names.get(l.orderItemId) ?? "item"}`);
  if (shippingCents > 0) parts.push(`shipping ${formatMoney(shippingCents)}`);
  if (adjustmentCents > 0) parts.push(`adjustment ${formatMoney(adjustmentCents)}`);
  return `Refund of ${formatMoney(amountCents)}: ${parts.join(", ")}.`;
};

const REFUNDABLE_STATUSES = ["paid", "partially_refunded", "refunded"];

function checkInput(input: RefundInput): void {
  if (!Number.isSafeInteger(input.expectedVersion)) throw new RefundError(ORDER_CHANGED, "conflict");
  if (!Array.isArray(input.lines)) throw new RefundError("Choose the lines to refund.", "bad_input", "lines");
  if (input.adjustmentCents > 0 && !input.adjustmentReason?.trim()) {
    throw new RefundError("Say why you add this amount.", "bad_input", "adjustmentReason");
  }
  if ((input.reason ?? "").length > 500) throw new RefundError("Keep the reason under 500 characters.", "bad_input", "reason");
  if ((input.adjustmentReason ?? "").length > 500) throw new RefundError("Keep the reason under 500 characters.", "bad_input", "adjustmentReason");
}

/**
 * Records stock coming back for refunded or returned lines, each (source, line, kind) once:
 * restocked units of stock-tracked lines go back to the catalogue, the others are written off.
 * Only what this call recorded moves stock, so a repeated call gives nothing back twice.
 */
async function moveStock(
  tx: Db,
  order: Pick<OrderRow, "id" | "stockReleasedAt">,
  items: ItemRow[],
  source: { source: "refund" | "return"; sourceId: string },
  lines: { orderItemId: string; quantity: number; restock: boolean }[],
  actor: RefundActor,
): Promise<void> {
  const byId = new Map(items.map((i) => [i.id, i]));
  // Product order, as takeOrderStock and releaseOrderStock lock products, so two never deadlock.
  const sorted = lines
    .filter((l) => l.quantity > 0 && byId.get(l.orderItemId)?.stockTracked)
    .sort((a, b) => ((byId.get(a.orderItemId)!.productId ?? "") < (byId.get(b.orderItemId)!.productId ?? "") ? -1 : 1));
  for (const line of sorted) {
    const item = byId.get(line.orderItemId)!;
    const kind = line.restock ? "restocked" : "written_off";
    const recorded = await tx
      .insert(stockMoves)
      .values({ orderId: order.id, orderItemId: item.id, quantity: line.quantity, kind, ...source, actorUserId: actor.actorUserId, actorLabel: actor.actorLabel })
      .onConflictDoNothing()
      .returning({ id: stockMoves.id });
    // Stock a cancel already gave back is not given again.
    if (recorded.length && line.restock && item.productId && !order.stockReleasedAt) await giveBackProductUnits(tx, item.productId, line.quantity);
  }
}

/** The order locked for a refund's decision, its version checked, paid. */
async function lockRefundableOrder(tx: Db, orderId: string, expectedVersion: number): Promise<OrderRow> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!order) throw new RefundError("Order not found.", "not_found");
  if (order.version !== expectedVersion) throw new RefundError(ORDER_CHANGED, "conflict");
  // Refunded in full already is not refused here: the cap says there is nothing left ($0.00).
  if (!REFUNDABLE_STATUSES.includes(order.paymentStatus) || (await orderMoney(tx, order.id)).paymentState === "unpaid") {
    throw new RefundError("This order is not paid, so there is nothing to refund.", "rejected");
  }
  return order;
}

/**
 * In the caller's transaction: a refund's ledger row (pending) and its provider call, keyed by the
 * row (`refund-<movement id>`), with its job. Returns both ids.
 */
async function recordRefund(
  tx: Db,
  order: OrderRow,
  refund: { amountCents: number; lines: PlannedLine[]; shippingCents: number; adjustmentCents: number; adjustmentReason: string | null; taxCents: number; reason: string; note: string; returnId: string | null },
  actor: RefundActor,
): Promise<{ movementId: string; taskId: string }> {
  const movementId = randomUUID();
  const [task] = await tx
    .insert(paymentTasks)
    .values({
      orderId: order.id,
      kind: "refund",
      idempotencyKey: `refund-${movementId}`,
      amountCents: refund.amountCents,
      note: refund.note,
      actorUserId: actor.actorUserId,
      actorLabel: actor.actorLabel,
      movementId,
    })
    .returning({ id: paymentTasks.id });
  await tx.insert(orderMoneyMovements).values({
    id: movementId,
    orderId: order.id,
    kind: "refund",
    amountCents: refund.amountCents,
    currency: order.currency,
    state: "pending",
    providerReference: order.paymentReference ?? order.paymentSessionId,
    paymentTaskId: task!.id,
    shippingCents: refund.shippingCents,
    adjustmentCents: refund.adjustmentCents,
    adjustmentReason: refund.adjustmentReason,
    lines: refund.lines.map((l) => ({ orderItemId: l.orderItemId, quantity: l.quantity, amountCents: l.amountCents, taxCents: l.taxCents, restock: l.restock })),
    taxCents: refund.taxCents,
    returnId: refund.returnId,
    reason: refund.reason,
    actorUserId: actor.actorUserId,
    actorLabel: actor.actorLabel,
  });
  // Every ledger writer keeps the order's copy of its state (a pending row changes nothing yet).
  await keepPaymentStatus(tx, order.id);
  await scheduleCallJob(tx, task!.id);
  return { movementId, taskId: task!.id };
}

export const RETURN_NOT_REFUNDABLE = "This return cannot be refunded: it is not received yet, or it was refunded already.";

/**
 * A refund for a return skips the stock (settled when the return was received), so the return
 * must be this order's, received, and not refunded yet by a refund that still counts. Runs with
 * the order locked, so two refunds of one return cannot both pass.
 */
async function checkReturnToRefund(tx: Db, orderId: string, returnId: string): Promise<void> {
  const [ret] = await tx
    .select({ state: orderReturns.state })
    .from(orderReturns)
    .where(and(eq(orderReturns.id, returnId), eq(orderReturns.orderId, orderId)));
  const [refunded] = await tx
    .select({ id: orderMoneyMovements.id })
    .from(orderMoneyMovements)
    .where(and(eq(orderMoneyMovements.returnId, returnId), eq(orderMoneyMovements.kind, "refund"), isNull(orderMoneyMovements.closedAt)))
    .limit(1);
  if (ret?.state !== "received" || refunded) throw new RefundError(RETURN_NOT_REFUNDABLE, "conflict");
}

const stateOf = (outcome: CallOutcome): RefundOutcome["state"] => (outcome === "done" ? "succeeded" : outcome === "failed" ? "failed" : "pending");

/**
 * Decides a refund in one transaction (docs/money-path.md, "The walk of a refund"): the order
 * locked and its version checked, the amounts worked out and capped, the ledger row and its
 * provider call recorded, stock given back or written off once, the order's version bumped and the
 * timeline told. After the commit the provider is asked at once; the call's job is the guarantee.
 */
export async function refundOrder(db: Db, input: RefundInput, opts: { providers?: Providers } = {}): Promise<RefundOutcome> {
  checkInput(input);
  const decided = await db.transaction(async (tx) => {
    const order = await lockRefundableOrder(tx, input.orderId, input.expectedVersion);
    if (input.returnId) await checkReturnToRefund(tx, order.id, input.returnId);
    const { items, ledger } = await ledgerOf(tx, order);
    const plan = planRefund(ledger, { lines: input.lines, shippingCents: input.shippingCents, adjustmentCents: input.adjustmentCents });
    if (isRefundProblem(plan)) throw new RefundError(plan.message, "bad_input", plan.field);
    const note = refundNote(plan.amountCents, plan.lines, items, plan.shippingCents, plan.adjustmentCents);
    const recorded = await recordRefund(
      tx,
      order,
      {
        ...plan,
        adjustmentReason: plan.adjustmentCents > 0 ? input.adjustmentReason!.trim() : null,
        reason: input.reason?.trim() ?? "",
        note,
        returnId: input.returnId ?? null,
      },
      input.actor,
    );
    // A return's units were settled when it was received.
    if (!input.returnId) await moveStock(tx, order, items, { source: "refund", sourceId: recorded.movementId }, plan.lines, input.actor);
    await tx.update(orders).set({ version: sql`${orders.version} + 1`, updatedAt: new Date() }).where(eq(orders.id, order.id));
    await addOrderEvent(tx, { orderId: order.id, kind: "payment", note: input.reason?.trim() ? `${note} ${input.reason.trim()}` : note, ...input.actor });
    return { ...recorded, amountCents: plan.amountCents };
  });
  const outcome = await runProviderCall(db, decided.taskId, { providers: opts.providers, actor: input.actor });
  return { movementId: decided.movementId, amountCents: decided.amountCents, state: stateOf(outcome) };
}

/**
 * A paid order cancelled after partial refunds: what is left of every line and of the shipping
 * becomes one more refund row (its own call), instead of the whole-payment refund of an order
 * nothing was refunded from. Stock is the cancel's to give back. "whole": nothing was refunded
 * before (the whole-payment refund applies); "nothing": nothing is left to refund.
 */
export async function recordRestRefund(tx: Db, order: OrderRow, note: string, actor: RefundActor): Promise<"whole" | "rest" | "nothing"> {
  if (!(await countedRefunds(tx, order.id)).length) return "whole";
  const { ledger } = await ledgerOf(tx, order);
  const plan = planRefund(ledger, {
    lines: ledger.lines.map((l) => ({ orderItemId: l.orderItemId, quantity: l.quantity - l.refundedQuantity, restock: true })),
    shippingCents: ledger.shipping.paidCents - ledger.shipping.refundedCents,
    adjustmentCents: 0,
  });
  const left = ledger.paidCents - ledger.refundedCents;
  if (left <= 0) return "nothing";
  // The rest of every line and the shipping, when that is what is left; else (a goodwill amount
  // refunded before, say) the amount alone.
  const planned = !isRefundProblem(plan) && plan.amountCents === left ? plan : null;
  await recordRefund(
    tx,
    order,
    {
      amountCents: left,
      lines: planned?.lines ?? [],
      shippingCents: planned?.shippingCents ?? 0,
      adjustmentCents: 0,
      adjustmentReason: null,
      taxCents: planned?.taxCents ?? 0,
      reason: note,
      note,
      returnId: null,
    },
    actor,
  );
  return "rest";
}

/** Refund calls of an order decided per ledger row and not answered yet (a cancel's rest refund). */
export async function pendingRefundCalls(db: Db, orderId: string): Promise<string[]> {
  const rows = await db
    .select({ id: paymentTasks.id })
    .from(paymentTasks)
    .where(and(eq(paymentTasks.orderId, orderId), eq(paymentTasks.state, "pending"), sql`${paymentTasks.movementId} is not null`));
  return rows.map((r) => r.id);
}

async function failedRefund(db: Db, movementId: string) {
  const [row] = await db
    .select({ movement: orderMoneyMovements, task: paymentTasks })
    .from(orderMoneyMovements)
    .innerJoin(paymentTasks, eq(paymentTasks.id, orderMoneyMovements.paymentTaskId))
    .where(and(eq(orderMoneyMovements.id, movementId), eq(orderMoneyMovements.kind, "refund")));
  if (!row) throw new RefundError("Refund not found.", "not_found");
  if (row.movement.state !== "failed" || row.movement.closedAt || row.task.state !== "pending") {
    throw new RefundError("This refund is no longer waiting: reload the order.", "conflict");
  }
  return row;
}

/** The owner's 'Retry' of a refund the provider refused: asked again now, with the same key. */
export async function retryFailedRefund(db: Db, movementId: string, actor: RefundActor, opts: { providers?: Providers } = {}): Promise<RefundOutcome> {
  const { movement, task } = await failedRefund(db, movementId);
  await db.update(paymentTasks).set({ nextAttemptAt: sql`now()` }).where(eq(paymentTasks.id, task.id));
  const outcome = await runProviderCall(db, task.id, { providers: opts.providers, actor, flagOnce: true });
  return { movementId, amountCents: movement.amountCents, state: stateOf(outcome) };
}

/**
 * The owner's 'Close': the refused refund is given up (refunded by hand elsewhere, or not at all).
 * Its row stays failed with the time it was closed and no longer counts as refunded; its call is
 * not tried again and the order leaves 'Needs attention'.
 */
export async function closeFailedRefund(db: Db, movementId: string, actor: RefundActor): Promise<void> {
  await db.transaction(async (tx) => {
    const [locked] = await tx.select({ orderId: orderMoneyMovements.orderId }).from(orderMoneyMovements).where(eq(orderMoneyMovements.id, movementId));
    if (!locked) throw new RefundError("Refund not found.", "not_found");
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, locked.orderId)).for("update");
    const { movement, task } = await failedRefund(tx, movementId);
    await tx.update(orderMoneyMovements).set({ closedAt: sql`now()` }).where(eq(orderMoneyMovements.id, movement.id));
    await tx.update(paymentTasks).set({ state: "closed", doneAt: sql`now()` }).where(eq(paymentTasks.id, task.id));
    await tx.update(orders).set({ version: sql`${orders.version} + 1`, updatedAt: new Date() }).where(eq(orders.id, movement.orderId));
    await addOrderEvent(tx, { orderId: movement.orderId, kind: "payment", note: `Refund of ${formatMoney(movement.amountCents)} closed: it was not made.`, ...actor });
  });
}

export type StockMove = {
  id: string;
  orderItemId: string;
  name: string;
  quantity: number;
  kind: "restocked" | "written_off";
  source: "refund" | "return";
  movementId: string | null;
  returnId: string | null;
  createdAt: Date;
};

/**
 * In the returns flow's 'received' transaction: restocked units go back to the catalogue, the
 * others are written off, each recorded once (a second call for the same return and lines moves nothing).
 */
export async function settleReturnedStock(
  tx: Db,
  input: { orderId: string; returnId: string; lines: RefundLineInput[]; actor: RefundActor },
): Promise<void> {
  const [order] = await tx.select({ id: orders.id, stockReleasedAt: orders.stockReleasedAt }).from(orders).where(eq(orders.id, input.orderId)).for("update");
  if (!order) throw new RefundError("Order not found.", "not_found");
  const ids = input.lines.map((l) => l.orderItemId);
  const items = ids.length ? await tx.select().from(orderItems).where(and(eq(orderItems.orderId, order.id), inArray(orderItems.id, ids))) : [];
  for (const [i, line] of input.lines.entries()) {
    const item = items.find((it) => it.id === line.orderItemId);
    if (!item) throw new RefundError("This line is not part of the order.", "bad_input", `lines.${i}.orderItemId`);
    if (!Number.isInteger(line.quantity) || line.quantity < 0 || line.quantity > item.quantity) {
      throw new RefundError(`Enter a whole number of ${item.name} from 0 to ${item.quantity}.`, "bad_input", `lines.${i}.quantity`);
    }
  }
  await moveStock(tx, order, items, { source: "return", sourceId: input.returnId }, input.lines, input.actor);
}

/** Every restocked or written-off quantity of an order, oldest first (the admin order page). */
export async function orderStockMoves(db: Db, orderId: string): Promise<StockMove[]> {
  const rows = await db
    .select({ move: stockMoves, name: orderItems.name })
    .from(stockMoves)
    .innerJoin(orderItems, eq(orderItems.id, stockMoves.orderItemId))
    .where(eq(stockMoves.orderId, orderId))
    .orderBy(asc(stockMoves.createdAt), asc(stockMoves.id));
  return rows.map(({ move, name }) => ({
    id: move.id,
    orderItemId: move.orderItemId,
    name,
    quantity: move.quantity,
    kind: move.kind,
    source: move.source,
    movementId: move.source === "refund" ? move.sourceId : null,
    returnId: move.source === "return" ? move.sourceId : null,
    createdAt: move.createdAt,
  }));
}

/** Units of each line already restocked or written off after the sale: a cancel gives back only the rest. */
export async function unitsComeBack(db: Db, orderId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ orderItemId: stockMoves.orderItemId, units: sql<number>`sum(${stockMoves.quantity})`.mapWith(Number) })
    .from(stockMoves)
    .where(eq(stockMoves.orderId, orderId))
    .groupBy(stockMoves.orderItemId);
  return new Map(rows.map((r) => [r.orderItemId, r.units]));
}
