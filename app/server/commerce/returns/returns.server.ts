import { and, asc, desc, eq, inArray, max, sql } from "drizzle-orm";
import { isUuid } from "~/lib/uuid";
import {
  RETURN_REASON_LABELS,
  RETURN_STATE_LABELS,
  WINDOW_CLOSED,
  type OrderReturnsView,
  type ReturnableLineView,
  type ReturnReason,
  type ReturnState,
  type ShopperReturnView,
} from "~/lib/returns";
import { type Db, DomainError, orderEvents, orderItems, orderReturns, orders, type ReturnedLine } from "../../platform/index.server";
import { addOrderEvent } from "../orders/events.server";
import { settleReturnedStock } from "../settlement/refunds.server";
import { queueReturnMail } from "./return-mails.server";
import { getReturnsSetting } from "./returns-setting.server";

type OrderRow = typeof orders.$inferSelect;
type ReturnRow = typeof orderReturns.$inferSelect;

/** A return refused: the message shown, beside `field` when it is about one. */
export class ReturnError extends DomainError<"bad_input" | "not_found" | "conflict" | "rejected"> {
  constructor(
    message: string,
    kind: "bad_input" | "not_found" | "conflict" | "rejected" = "bad_input",
    readonly field?: string,
  ) {
    super(message, kind);
    this.name = "ReturnError";
  }
}

export type ReturnActor = { actorUserId: string | null; actorLabel: string };

const DAY_MS = 24 * 60 * 60 * 1000;

/** When the order shipped and was delivered, from its timeline (the first time each was reached). */
async function shippingDates(db: Db, order: Pick<OrderRow, "id" | "status">): Promise<{ shippedAt: Date | null; deliveredAt: Date | null }> {
  const rows = await db
    .select({ toStatus: orderEvents.toStatus, at: sql<Date>`min(${orderEvents.createdAt})`.mapWith((v) => new Date(v)) })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, order.id), inArray(orderEvents.toStatus, ["shipped", "completed"])))
    .groupBy(orderEvents.toStatus);
  const at = (s: string) => rows.find((r) => r.toStatus === s)?.at ?? null;
  const deliveredAt = at("completed");
  // An order marked delivered without a shipped step shipped no later than that.
  const shippedAt = at("shipped") ?? deliveredAt;
  return { shippedAt, deliveredAt };
}

/** Whether the order was paid for (and so has goods to give back). */
const wasPaid = (order: OrderRow) => order.paidAt !== null && order.status !== "cancelled";

type Windows = { windowOpen: boolean; windowClosed: boolean; withdrawalOpen: boolean };

/**
 * The return window: from shipping, `returnWindowDays` days (0: returns off). The withdrawal period:
 * from payment until `withdrawalDays` days after delivery, or after shipping when no delivery was
 * recorded (the button is offered before shipping too: the right starts with the contract).
 */
async function windowsOf(db: Db, order: OrderRow, now: Date): Promise<Windows> {
  const setting = await getReturnsSetting(db);
  if (!wasPaid(order)) return { windowOpen: false, windowClosed: false, withdrawalOpen: false };
  const { shippedAt, deliveredAt } = await shippingDates(db, order);
  let windowOpen = false;
  let windowClosed = false;
  if (setting.returnWindowDays > 0 && shippedAt) {
    windowOpen = now.getTime() <= shippedAt.getTime() + setting.returnWindowDays * DAY_MS;
    windowClosed = !windowOpen;
  }
  const from = deliveredAt ?? shippedAt;
  const withdrawalOpen = setting.withdrawalEnabled && (from === null || now.getTime() <= from.getTime() + setting.withdrawalDays * DAY_MS);
  return { windowOpen, windowClosed, withdrawalOpen };
}

/** Returns whose units no longer count as the shopper's to return: all but rejected ones and those closed before they came back. */
function countsAsReturned(r: Pick<ReturnRow, "state" | "lines">): boolean {
  if (r.state === "rejected") return false;
  if (r.state === "closed") return r.lines.some((l) => typeof l.restock === "boolean");
  return true;
}

/**
 * Units of each order line refunded outside any return (refunds of the ledger with lines, made
 * without a return id). Read through to_jsonb so it holds whether the ledger keeps a return id or
 * not yet: a refund made for a return is counted by that return, not twice.
 */
async function refundedOutsideReturns(db: Db, orderId: string): Promise<Map<string, number>> {
  const rows = await db.execute<{ order_item_id: string; quantity: string }>(sql`
    select l->>'orderItemId' as order_item_id, sum((l->>'quantity')::int)::text as quantity
    from order_money_movements m, jsonb_array_elements(m.lines) l
    where m.order_id = ${orderId} and m.kind = 'refund' and m.state in ('pending', 'succeeded')
      and (to_jsonb(m) ->> 'return_id') is null
    group by 1`);
  return new Map(rows.rows.map((r) => [r.order_item_id, Number(r.quantity)]));
}

/** Each line of the order with the units still the shopper's to return. */
export async function returnableLines(db: Db, orderId: string): Promise<ReturnableLineView[]> {
  const [lines, returns, refunded] = await Promise.all([
    db
      .select({ id: orderItems.id, name: orderItems.name, quantity: orderItems.quantity })
      .from(orderItems)
      .where(eq(orderItems.orderId, orderId))
      .orderBy(asc(orderItems.name), asc(orderItems.id)),
    db.select({ state: orderReturns.state, lines: orderReturns.lines }).from(orderReturns).where(eq(orderReturns.orderId, orderId)),
    refundedOutsideReturns(db, orderId),
  ]);
  const used = new Map<string, number>();
  for (const r of returns) {
    if (!countsAsReturned(r)) continue;
    for (const l of r.lines) used.set(l.orderItemId, (used.get(l.orderItemId) ?? 0) + l.quantity);
  }
  return lines.map((l) => ({
    orderItemId: l.id,
    name: l.name,
    quantity: l.quantity,
    returnable: Math.max(0, l.quantity - (used.get(l.id) ?? 0) - (refunded.get(l.id) ?? 0)),
  }));
}

/**
 * Ids of the returns a ledger refund was made for (pending or succeeded): such a return reads
 * 'refunded'. Read through to_jsonb, like refundedOutsideReturns.
 */
async function refundedReturnIds(db: Db, returnIds: string[]): Promise<Set<string>> {
  if (returnIds.length === 0) return new Set();
  const rows = await db.execute<{ return_id: string }>(sql`
    select distinct to_jsonb(m) ->> 'return_id' as return_id from order_money_movements m
    where m.kind = 'refund' and m.state in ('pending', 'succeeded')
      and (to_jsonb(m) ->> 'return_id') in (${sql.join(returnIds.map((id) => sql`${id}`), sql`, `)})`);
  return new Set(rows.rows.map((r) => r.return_id));
}

/** The state a return reads: a received one with a ledger refund made for it is refunded. */
const effectiveState = (r: Pick<ReturnRow, "id" | "state">, refunded: Set<string>): ReturnState =>
  r.state === "received" && refunded.has(r.id) ? "refunded" : r.state;

async function lineNames(db: Db, orderId: string): Promise<Map<string, string>> {
  const rows = await db.select({ id: orderItems.id, name: orderItems.name }).from(orderItems).where(eq(orderItems.orderId, orderId));
  return new Map(rows.map((r) => [r.id, r.name]));
}

const reasonText = (r: Pick<ReturnRow, "reason" | "reasonText" | "kind">) =>
  r.kind === "withdrawal" ? `Withdrawal${r.reasonText ? `: ${r.reasonText}` : ""}` : r.reason === "other" && r.reasonText ? `Other: ${r.reasonText}` : RETURN_REASON_LABELS[r.reason];

/** The order page's returns part: the returns so far, what is left to return, and which offers show. */
export async function orderReturnsView(db: Db, order: OrderRow, now = new Date()): Promise<OrderReturnsView> {
  const [rows, returnable, windows, names] = await Promise.all([
    db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id)).orderBy(asc(orderReturns.sequence)),
    returnableLines(db, order.id),
    windowsOf(db, order, now),
    lineNames(db, order.id),
  ]);
  const refunded = await refundedReturnIds(
    db,
    rows.map((r) => r.id),
  );
  const returns: ShopperReturnView[] = rows.map((r) => ({
    returnNumber: r.returnNumber,
    kind: r.kind,
    state: effectiveState(r, refunded),
    createdAt: r.createdAt.toISOString(),
    reason: reasonText(r),
    shopperMessage: r.shopperMessage,
    lines: r.lines.map((l) => ({ name: names.get(l.orderItemId) ?? "Item", quantity: l.quantity })),
  }));
  return { returns, returnable: returnable.filter((l) => l.returnable > 0), ...windows };
}

export type ReturnRequestInput = {
  order: OrderRow;
  kind: "return" | "withdrawal";
  lines: { orderItemId: string; quantity: number }[];
  reason: ReturnReason;
  reasonText: string;
  /** The form's own key: the same form sent twice makes one return. */
  requestKey: string;
  userId: string | null;
};

/**
 * Opens a return (or, for a withdrawal, records the declaration with its time and opens a return
 * of the chosen items), in one transaction with the order locked: the window or period is checked,
 * each line against what is left of it, the return numbered R-<order number>-<n>, put on the
 * order's timeline and its mail recorded (the return's instructions, or the withdrawal's
 * acknowledgement). A second submission of the same form answers with the return it made.
 */
export async function requestReturn(db: Db, input: ReturnRequestInput, now = new Date()): Promise<{ returnNumber: string; created: boolean }> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.order.id)).for("update");
    if (!order) throw new ReturnError("Order not found", "not_found");
    const [again] = await tx
      .select({ returnNumber: orderReturns.returnNumber })
      .from(orderReturns)
      .where(and(eq(orderReturns.orderId, order.id), eq(orderReturns.requestKey, input.requestKey)));
    if (again) return { returnNumber: again.returnNumber, created: false };

    const windows = await windowsOf(tx, order, now);
    if (input.kind === "return" && !windows.windowOpen) {
      throw new ReturnError(windows.windowClosed ? WINDOW_CLOSED : "This order cannot be returned.", "rejected");
    }
    if (input.kind === "withdrawal" && !windows.withdrawalOpen) {
      throw new ReturnError("The withdrawal period for this order has ended.", "rejected");
    }
    const left = new Map((await returnableLines(tx, order.id)).map((l) => [l.orderItemId, l]));
    const lines: ReturnedLine[] = [];
    const seen = new Set<string>();
    for (const l of input.lines) {
      if (l.quantity === 0) continue;
      const line = left.get(l.orderItemId);
      if (!line || seen.has(l.orderItemId) || !Number.isInteger(l.quantity) || l.quantity < 0) {
        throw new ReturnError("Choose the items to return from this order.", "bad_input", "lines");
      }
      if (l.quantity > line.returnable) {
        throw new ReturnError(
          line.returnable === 0 ? `${line.name} has already been returned.` : `You can return at most ${line.returnable} of ${line.name}.`,
          "bad_input",
          `quantity.${l.orderItemId}`,
        );
      }
      seen.add(l.orderItemId);
      lines.push({ orderItemId: l.orderItemId, quantity: l.quantity });
    }
    if (lines.length === 0) throw new ReturnError("Choose at least one item to return.", "bad_input", "lines");
    if (input.kind === "return" && input.reason === "other" && !input.reasonText.trim()) {
      throw new ReturnError("Tell us why you are returning the items.", "bad_input", "reasonText");
    }

    const [{ last }] = await tx.select({ last: max(orderReturns.sequence) }).from(orderReturns).where(eq(orderReturns.orderId, order.id));
    const sequence = (last ?? 0) + 1;
    const returnNumber = `R-${order.orderNumber}-${sequence}`;
    const [created] = await tx
      .insert(orderReturns)
      .values({
        orderId: order.id,
        sequence,
        returnNumber,
        kind: input.kind,
        reason: input.reason,
        reasonText: input.reasonText.trim(),
        lines,
        requestKey: input.requestKey,
        requestedByUserId: input.userId,
        withdrawnAt: input.kind === "withdrawal" ? sql`now()` : null,
      })
      .onConflictDoNothing()
      .returning();
    if (!created) {
      // The same form, sent twice at the same moment: the other request made it.
      const [other] = await tx
        .select({ returnNumber: orderReturns.returnNumber })
        .from(orderReturns)
        .where(and(eq(orderReturns.orderId, order.id), eq(orderReturns.requestKey, input.requestKey)));
      if (other) return { returnNumber: other.returnNumber, created: false };
      throw new ReturnError("Your request crossed another one. Please try again.", "conflict");
    }
    const names = await lineNames(tx, order.id);
    const what = lines.map((l) => `${l.quantity} × ${names.get(l.orderItemId) ?? "item"}`).join(", ");
    await addOrderEvent(tx, {
      orderId: order.id,
      kind: "return",
      note:
        input.kind === "withdrawal"
          ? `Withdrawal from the contract declared (${returnNumber}): ${what}.`
          : `Return ${returnNumber} requested: ${what} (${reasonText(created)}).`,
      actorUserId: input.userId,
      actorLabel: "shopper",
    });
    await queueReturnMail(tx, order, created, names, input.kind === "withdrawal" ? { step: "withdrawal" } : { step: "requested" });
    return { returnNumber, created: true };
  });
}

// ---------------------------------------------------------------------------------------------
// The owner's side: /admin/returns.

export type ReturnMove =
  | { to: "approved"; message?: string }
  | { to: "rejected"; message: string }
  | { to: "received"; restock: Record<string, boolean> }
  | { to: "closed"; message?: string };

const FROM: Record<ReturnMove["to"], ReturnState[]> = {
  approved: ["requested"],
  rejected: ["requested"],
  received: ["approved"],
  closed: ["requested", "approved", "received"],
};

/**
 * The owner moves a return one step, in one transaction with the return locked: approved or
 * rejected (with a message to the shopper), received (each line restocked or not, settled once
 * through settlement's settleReturnedStock), or closed. Each step goes on the order's timeline and
 * mails the shopper. A return already moved on by someone else is refused, changing nothing.
 */
export async function moveReturn(db: Db, returnId: string, move: ReturnMove, actor: ReturnActor): Promise<ReturnState> {
  return db.transaction(async (tx) => {
    const [ret] = await tx.select().from(orderReturns).where(eq(orderReturns.id, returnId)).for("update");
    if (!ret) throw new ReturnError("Return not found", "not_found");
    const refunded = await refundedReturnIds(tx, [ret.id]);
    const state = effectiveState(ret, refunded);
    if (!FROM[move.to].includes(state)) {
      throw new ReturnError(`This return is ${RETURN_STATE_LABELS[state].toLowerCase()}: it cannot be ${RETURN_STATE_LABELS[move.to].toLowerCase()} now.`, "conflict");
    }
    const message = "message" in move ? (move.message ?? "").trim() : "";
    if (move.to === "rejected" && !message) throw new ReturnError("Tell the shopper why the return is rejected.", "bad_input", "message");
    let lines = ret.lines;
    if (move.to === "received") {
      lines = ret.lines.map((l) => ({ ...l, restock: move.restock[l.orderItemId] === true }));
      await settleReturnedStock(tx, {
        orderId: ret.orderId,
        returnId: ret.id,
        lines: lines.map((l) => ({ orderItemId: l.orderItemId, quantity: l.quantity, restock: l.restock === true })),
        actor,
      });
    }
    const [after] = await tx
      .update(orderReturns)
      .set({ state: move.to, lines, shopperMessage: message || ret.shopperMessage, updatedAt: sql`now()` })
      .where(eq(orderReturns.id, ret.id))
      .returning();
    const [order] = await tx.select().from(orders).where(eq(orders.id, ret.orderId));
    const names = await lineNames(tx, ret.orderId);
    const restocked = move.to === "received" ? lines.filter((l) => l.restock).reduce((n, l) => n + l.quantity, 0) : 0;
    const written = move.to === "received" ? lines.filter((l) => !l.restock).reduce((n, l) => n + l.quantity, 0) : 0;
    const detail =
      move.to === "received" ? ` ${restocked} restocked, ${written} not restocked.` : message ? ` Message to the shopper: ${message}` : "";
    await addOrderEvent(tx, {
      orderId: ret.orderId,
      kind: "return",
      fromStatus: state,
      toStatus: move.to,
      note: `Return ${ret.returnNumber} ${RETURN_STATE_LABELS[move.to].toLowerCase()}.${detail}`,
      actorUserId: actor.actorUserId,
      actorLabel: actor.actorLabel,
    });
    if (order) await queueReturnMail(tx, order, after!, names, { step: move.to, message });
    return move.to;
  });
}

export type AdminReturnRow = {
  id: string;
  returnNumber: string;
  kind: "return" | "withdrawal";
  state: ReturnState;
  orderId: string;
  orderNumber: string;
  customer: string;
  email: string;
  reason: string;
  shopperMessage: string;
  createdAt: string;
  withdrawnAt: string | null;
  lines: { orderItemId: string; name: string; quantity: number; restock: boolean | null; stockTracked: boolean }[];
};

/** /admin/returns: newest first, optionally one state (a refunded return is one received with a refund made for it). */
export async function listReturns(db: Db, filter: { state?: ReturnState | null; limit?: number } = {}): Promise<AdminReturnRow[]> {
  const refundExists = sql`exists (select 1 from order_money_movements m where m.kind = 'refund' and m.state in ('pending', 'succeeded')
    and (to_jsonb(m) ->> 'return_id') = ${orderReturns.id}::text)`;
  const where =
    filter.state === "refunded"
      ? sql`(${orderReturns.state} = 'refunded' or (${orderReturns.state} = 'received' and ${refundExists}))`
      : filter.state === "received"
        ? sql`(${orderReturns.state} = 'received' and not ${refundExists})`
        : filter.state
          ? eq(orderReturns.state, filter.state)
          : undefined;
  const rows = await db
    .select({ ret: orderReturns, orderNumber: orders.orderNumber, firstName: orders.firstName, lastName: orders.lastName, email: orders.email })
    .from(orderReturns)
    .innerJoin(orders, eq(orders.id, orderReturns.orderId))
    .where(where)
    .orderBy(desc(orderReturns.createdAt), desc(orderReturns.id))
    .limit(filter.limit ?? 100);
  const ids = rows.map((r) => r.ret.id);
  const [refunded, items] = await Promise.all([
    refundedReturnIds(db, ids),
    rows.length
      ? db
          .select({ id: orderItems.id, name: orderItems.name, stockTracked: orderItems.stockTracked })
          .from(orderItems)
          .where(inArray(orderItems.orderId, [...new Set(rows.map((r) => r.ret.orderId))]))
      : Promise.resolve([]),
  ]);
  const item = new Map(items.map((i) => [i.id, i]));
  return rows.map(({ ret, orderNumber, firstName, lastName, email }) => ({
    id: ret.id,
    returnNumber: ret.returnNumber,
    kind: ret.kind,
    state: effectiveState(ret, refunded),
    orderId: ret.orderId,
    orderNumber,
    customer: `${firstName} ${lastName}`.trim(),
    email,
    reason: reasonText(ret),
    shopperMessage: ret.shopperMessage,
    createdAt: ret.createdAt.toISOString(),
    withdrawnAt: ret.withdrawnAt ? ret.withdrawnAt.toISOString() : null,
    lines: ret.lines.map((l) => ({
      orderItemId: l.orderItemId,
      name: item.get(l.orderItemId)?.name ?? "Item",
      quantity: l.quantity,
      restock: typeof l.restock === "boolean" ? l.restock : null,
      stockTracked: item.get(l.orderItemId)?.stockTracked ?? false,
    })),
  }));
}

/** What the order page's Refund dialog is prefilled with for a received return not refunded yet. */
export type ReturnToRefund = { id: string; returnNumber: string; lines: { orderItemId: string; quantity: number }[] };

/**
 * `/admin/orders/<n>?refundReturn=<id>` (the Refund link on /admin/returns): the return's lines,
 * when it is this order's and received; null otherwise (the dialog then opens empty, and the
 * refund itself checks the return again under the order's lock).
 */
export async function returnToRefund(db: Db, orderId: string, returnId: string | null): Promise<ReturnToRefund | null> {
  if (!returnId || !isUuid(returnId)) return null;
  const [ret] = await db
    .select({ id: orderReturns.id, returnNumber: orderReturns.returnNumber, state: orderReturns.state, lines: orderReturns.lines })
    .from(orderReturns)
    .where(and(eq(orderReturns.id, returnId), eq(orderReturns.orderId, orderId)));
  if (ret?.state !== "received") return null;
  return { id: ret.id, returnNumber: ret.returnNumber, lines: ret.lines.map((l) => ({ orderItemId: l.orderItemId, quantity: l.quantity })) };
}
