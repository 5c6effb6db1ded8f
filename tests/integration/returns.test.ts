import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { WINDOW_CLOSED } from "~/lib/returns";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { listReturns, moveReturn, orderReturnsView, requestReturn, returnableLines, returnToRefund } from "~/server/commerce/returns/returns.server";
import { saveReturnsSetting } from "~/server/commerce/returns/returns-setting.server";
import { requestOrderLink } from "~/server/commerce/returns/order-link-request.server";
import { orderStockMoves, refundOrder, RETURN_NOT_REFUNDABLE } from "~/server/commerce/settlement/refunds.server";
import { mailOutbox, orderEvents, orderItems, orderReturns, products } from "~/server/platform/db/schema";
import { makeAdmin } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { orderRow, paidOrder } from "./admin-orders-helpers";

const t = useTestDatabase();

const actor = { actorUserId: null, actorLabel: "Ada Admin" };

/** A paid order of 2 units, marked shipped `daysAgo` days ago. */
async function shippedOrder(daysAgo = 1) {
  const admin = await makeAdmin(t.db);
  const { orderId, product } = await paidOrder(t.db, { quantity: 2 });
  const before = await orderRow(t.db, orderId);
  await changeOrderStatus(t.db, { orderId, to: "shipped", expectedVersion: before.version, actor: { id: admin.id, name: "Ada Admin", email: admin.email }, trackingNumber: "1Z999AA10123456784" });
  await t.db.execute(sql`update order_events set created_at = now() - make_interval(days => ${daysAgo}) where order_id = ${orderId} and to_status = 'shipped'`);
  const order = await orderRow(t.db, orderId);
  const [item] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  return { order, item: item!, product };
}

const ask = (order: Awaited<ReturnType<typeof orderRow>>, itemId: string, quantity: number, requestKey = crypto.randomUUID(), kind: "return" | "withdrawal" = "return") =>
  requestReturn(t.db, { order, kind, lines: [{ orderItemId: itemId, quantity }], reason: "damaged", reasonText: "", requestKey, userId: null });

const mailsOf = (to: string, kind: string) => t.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, to), eq(mailOutbox.kind, kind)));

describe("returns", () => {
  it("within the window, a return gets its number R-<order number>-<n>, goes on the timeline and mails its instructions", async () => {
    const { order, item } = await shippedOrder(5);
    expect(await ask(order, item.id, 1)).toEqual({ returnNumber: `R-${order.orderNumber}-1`, created: true });
    expect(await ask(order, item.id, 1)).toEqual({ returnNumber: `R-${order.orderNumber}-2`, created: true });
    const view = await orderReturnsView(t.db, order);
    expect(view.returns.map((r) => [r.returnNumber, r.state, r.reason])).toEqual([
      [`R-${order.orderNumber}-1`, "requested", "Damaged"],
      [`R-${order.orderNumber}-2`, "requested", "Damaged"],
    ]);
    expect(view.windowOpen).toBe(true);
    const events = await t.db.select().from(orderEvents).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, "return")));
    expect(events.map((e) => e.note)).toContain(`Return R-${order.orderNumber}-1 requested: 1 × ${item.name} (Damaged).`);
    const mails = await mailsOf(order.email, "return-requested");
    expect(mails).toHaveLength(2);
    expect(mails[0]!.subject).toBe(`Your return for order ${order.orderNumber}`);
    expect(mails[0]!.text).toContain(`R-${order.orderNumber}-1`);
  });

  it("after the window is refused with 'The return window for this order has closed.'; a window of 0 turns returns off", async () => {
    const { order, item } = await shippedOrder(31);
    await expect(ask(order, item.id, 1)).rejects.toThrow(WINDOW_CLOSED);
    expect((await orderReturnsView(t.db, order)).windowClosed).toBe(true);

    const fresh = await shippedOrder(1);
    await saveReturnsSetting(t.db, { returnWindowDays: 0, withdrawalEnabled: false, withdrawalDays: 14 });
    const view = await orderReturnsView(t.db, fresh.order);
    expect(view).toMatchObject({ windowOpen: false, windowClosed: false });
    await expect(ask(fresh.order, fresh.item.id, 1)).rejects.toThrow("This order cannot be returned.");
    await saveReturnsSetting(t.db, { returnWindowDays: 40, withdrawalEnabled: false, withdrawalDays: 14 });
    expect((await ask(order, item.id, 1)).created).toBe(true);
    expect(await t.db.select().from(orderReturns).where(eq(orderReturns.orderId, fresh.order.id))).toHaveLength(0);
  });

  it("a line fully returned is no longer offered, and a forged request (too many, another order's line) is refused, changing nothing", async () => {
    const { order, item } = await shippedOrder();
    const other = await shippedOrder();
    await expect(ask(order, item.id, 3)).rejects.toThrow(`You can return at most 2 of ${item.name}.`);
    await expect(ask(order, other.item.id, 1)).rejects.toThrow("Choose the items to return from this order.");
    await ask(order, item.id, 2);
    expect((await orderReturnsView(t.db, order)).returnable).toEqual([]);
    expect((await returnableLines(t.db, order.id))[0]).toMatchObject({ quantity: 2, returnable: 0 });
    await expect(ask(order, item.id, 1)).rejects.toThrow(`${item.name} has already been returned.`);
    expect(await t.db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id))).toHaveLength(1);
  });

  it("the same form sent twice at once makes one return", async () => {
    const { order, item } = await shippedOrder();
    const key = crypto.randomUUID();
    const [a, b] = await Promise.all([ask(order, item.id, 1, key), ask(order, item.id, 1, key)]);
    expect(a.returnNumber).toBe(b.returnNumber);
    expect(await t.db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id))).toHaveLength(1);
    expect(await mailsOf(order.email, "return-requested")).toHaveLength(1);
  });

  it("the owner approves or rejects (with a message), each step on the timeline and mailed; a rejected return's units can be asked for again", async () => {
    const { order, item } = await shippedOrder();
    await ask(order, item.id, 2);
    const [ret] = await listReturns(t.db, { state: "requested" });
    await expect(moveReturn(t.db, ret!.id, { to: "rejected", message: " " }, actor)).rejects.toThrow("Tell the shopper why the return is rejected.");
    await moveReturn(t.db, ret!.id, { to: "rejected", message: "The duvet has been used." }, actor);
    await expect(moveReturn(t.db, ret!.id, { to: "approved" }, actor)).rejects.toThrow("This return is rejected: it cannot be approved now.");
    const [mail] = await mailsOf(order.email, "return-rejected");
    expect(mail!.subject).toBe(`Return R-${order.orderNumber}-1 not accepted`);
    expect(mail!.text).toContain("The duvet has been used.");
    expect((await orderReturnsView(t.db, order)).returns[0]).toMatchObject({ state: "rejected", shopperMessage: "The duvet has been used." });
    expect((await returnableLines(t.db, order.id))[0]!.returnable).toBe(2);

    await ask(order, item.id, 1);
    const [second] = await listReturns(t.db, { state: "requested" });
    await moveReturn(t.db, second!.id, { to: "approved", message: "Use the prepaid label." }, actor);
    expect(await mailsOf(order.email, "return-approved")).toHaveLength(1);
    expect((await listReturns(t.db, { state: "approved" })).map((r) => r.returnNumber)).toEqual([`R-${order.orderNumber}-2`]);
    const notes = (await t.db.select().from(orderEvents).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, "return")))).map((e) => e.note);
    expect(notes).toContain(`Return R-${order.orderNumber}-1 rejected. Message to the shopper: The duvet has been used.`);
    expect(notes).toContain(`Return R-${order.orderNumber}-2 approved. Message to the shopper: Use the prepaid label.`);
  });

  it("receiving settles each line's stock once through settlement (restocked back to the catalogue) and mails; a ledger refund made for it makes it read refunded", async () => {
    const { order, item, product } = await shippedOrder();
    const stock = async () => (await t.db.select({ n: products.stockQuantity }).from(products).where(eq(products.id, product.id)))[0]!.n;
    const before = await stock();
    await ask(order, item.id, 2);
    const [ret] = await listReturns(t.db, { state: "requested" });
    await expect(moveReturn(t.db, ret!.id, { to: "received", restock: { [item.id]: true } }, actor)).rejects.toThrow("This return is requested: it cannot be received now.");
    await moveReturn(t.db, ret!.id, { to: "approved" }, actor);
    await moveReturn(t.db, ret!.id, { to: "received", restock: { [item.id]: true } }, actor);
    expect(await stock()).toBe(before + 2);
    expect((await orderStockMoves(t.db, order.id)).map((m) => [m.kind, m.quantity, m.source, m.returnId])).toEqual([["restocked", 2, "return", ret!.id]]);
    await expect(moveReturn(t.db, ret!.id, { to: "received", restock: { [item.id]: true } }, actor)).rejects.toThrow("This return is received: it cannot be received now.");
    expect(await stock()).toBe(before + 2);
    expect(await mailsOf(order.email, "return-received")).toHaveLength(1);
    const [received] = await listReturns(t.db, { state: "received" });
    expect(received).toMatchObject({ id: ret!.id, state: "received", lines: [{ orderItemId: item.id, quantity: 2, restock: true }] });

    // The refund dialog's refund for this return: a ledger row with its return id.
    await t.db.execute(sql`insert into order_money_movements (order_id, kind, amount_cents, state, return_id) values (${order.id}, 'refund', 100, 'pending', ${ret!.id})`);
    expect((await listReturns(t.db, { state: "received" })).map((r) => r.id)).not.toContain(ret!.id);
    expect((await listReturns(t.db, { state: "refunded" })).map((r) => r.id)).toEqual([ret!.id]);
    expect((await orderReturnsView(t.db, order)).returns[0]!.state).toBe("refunded");
    await expect(moveReturn(t.db, ret!.id, { to: "closed" }, actor)).rejects.toThrow("This return is refunded: it cannot be closed now.");
  });

  it("refunds a received return once, through the dialog's prefill, without moving its stock again; a return not received, another order's, or one refunded already is refused", async () => {
    const { order, item, product } = await shippedOrder();
    const other = await shippedOrder();
    const stock = async () => (await t.db.select({ n: products.stockQuantity }).from(products).where(eq(products.id, product.id)))[0]!.n;
    await ask(order, item.id, 1);
    const [ret] = await listReturns(t.db, { state: "requested" });
    const refund = async (orderId: string, returnId: string) =>
      refundOrder(t.db, {
        orderId,
        expectedVersion: (await orderRow(t.db, orderId)).version,
        lines: [{ orderItemId: item.id, quantity: 1, restock: false }],
        shippingCents: 0,
        adjustmentCents: 0,
        returnId,
        actor,
      });
    // Not received yet: no prefill, and a forged refund for it is refused.
    expect(await returnToRefund(t.db, order.id, ret!.id)).toBeNull();
    await expect(refund(order.id, ret!.id)).rejects.toThrow(RETURN_NOT_REFUNDABLE);
    await moveReturn(t.db, ret!.id, { to: "approved" }, actor);
    await moveReturn(t.db, ret!.id, { to: "received", restock: { [item.id]: true } }, actor);
    const restocked = await stock();
    expect(await returnToRefund(t.db, order.id, ret!.id)).toEqual({ id: ret!.id, returnNumber: ret!.returnNumber, lines: [{ orderItemId: item.id, quantity: 1 }] });
    // Another order's page cannot refund it, nor prefill it; a bad id prefills nothing.
    expect(await returnToRefund(t.db, other.order.id, ret!.id)).toBeNull();
    expect(await returnToRefund(t.db, order.id, "not-a-uuid")).toBeNull();
    await expect(refund(other.order.id, ret!.id)).rejects.toThrow(RETURN_NOT_REFUNDABLE);

    const made = await refund(order.id, ret!.id);
    expect(made.amountCents).toBeGreaterThan(0);
    // Stock was settled at receipt: the refund gives nothing back and writes nothing off.
    expect(await stock()).toBe(restocked);
    expect((await orderStockMoves(t.db, order.id)).map((m) => [m.kind, m.source])).toEqual([["restocked", "return"]]);
    expect((await listReturns(t.db, { state: "refunded" })).map((r) => r.id)).toContain(ret!.id);
    await expect(refund(order.id, ret!.id)).rejects.toThrow(RETURN_NOT_REFUNDABLE);
  });

  it("closing a return ends it and mails the shopper", async () => {
    const { order, item } = await shippedOrder();
    await ask(order, item.id, 1);
    const [ret] = await listReturns(t.db, { state: "requested" });
    await moveReturn(t.db, ret!.id, { to: "approved" }, actor);
    await moveReturn(t.db, ret!.id, { to: "closed", message: "Nothing arrived." }, actor);
    expect((await listReturns(t.db, { state: "closed" })).map((r) => r.id)).toEqual([ret!.id]);
    expect(await mailsOf(order.email, "return-closed")).toHaveLength(1);
    // Closed before it came back: its units are the shopper's to return again.
    expect((await returnableLines(t.db, order.id))[0]!.returnable).toBe(2);
  });
});

describe("the EU withdrawal", () => {
  it("is offered only when the owner turns it on, within its period", async () => {
    const { order } = await shippedOrder(20);
    expect((await orderReturnsView(t.db, order)).withdrawalOpen).toBe(false);
    await saveReturnsSetting(t.db, { returnWindowDays: 30, withdrawalEnabled: true, withdrawalDays: 14 });
    expect((await orderReturnsView(t.db, order)).withdrawalOpen).toBe(false);
    const recent = await shippedOrder(3);
    expect((await orderReturnsView(t.db, recent.order)).withdrawalOpen).toBe(true);
  });

  it("confirming records the withdrawal with its time, opens a return of the chosen items and queues the acknowledgement at once", async () => {
    await saveReturnsSetting(t.db, { returnWindowDays: 30, withdrawalEnabled: true, withdrawalDays: 14 });
    const { order, item } = await shippedOrder(2);
    const done = await ask(order, item.id, 2, crypto.randomUUID(), "withdrawal");
    const [ret] = await t.db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id));
    expect(ret).toMatchObject({ kind: "withdrawal", state: "requested", returnNumber: done.returnNumber });
    expect(ret!.withdrawnAt).toBeInstanceOf(Date);
    const [mail] = await mailsOf(order.email, "withdrawal-received");
    expect(mail!.subject).toBe(`We received your withdrawal from order ${order.orderNumber}`);
    const stamp = `${ret!.withdrawnAt!.toISOString().slice(0, 19).replace("T", " ")} UTC`;
    expect(mail!.text).toContain(`We received your withdrawal from the contract for order ${order.orderNumber} on ${stamp}.`);
    expect(mail!.text).toContain(`2 × ${item.name}`);
    const notes = (await t.db.select().from(orderEvents).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, "return")))).map((e) => e.note);
    expect(notes).toContain(`Withdrawal from the contract declared (${done.returnNumber}): 2 × ${item.name}.`);
  });
});

describe("the footer's order link form", () => {
  it("mails the signed link only for a matching order number and email, and answers the same for both", async () => {
    const { order } = await shippedOrder();
    const client = { ip: "203.0.113.9" };
    expect(await requestOrderLink(t.db, { orderNumber: order.orderNumber, email: order.email.toUpperCase() }, client)).toBeUndefined();
    expect(await requestOrderLink(t.db, { orderNumber: order.orderNumber, email: "someone@example.com" }, client)).toBeUndefined();
    expect(await requestOrderLink(t.db, { orderNumber: "ORD-20990101-ZZZZZZ", email: order.email }, client)).toBeUndefined();
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "order-link"));
    expect(mails.map((m) => m.to)).toEqual([order.email]);
    expect(mails[0]!.text).toContain(`/profile/orders/${order.orderNumber}?t=`);
  });

  it("is limited per client address like the other forms that send mail", async () => {
    const client = { ip: "203.0.113.10" };
    for (let i = 0; i < 5; i++) await requestOrderLink(t.db, { orderNumber: "ORD-1", email: "a@example.com" }, client);
    await expect(requestOrderLink(t.db, { orderNumber: "ORD-1", email: "a@example.com" }, client)).rejects.toMatchObject({ kind: "rate_limited" });
  });
});
