import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loader as profileLoader } from "~/routes/account/profile";
import { testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { payTestSession } from "~/server/commerce/payments/test-provider.server";
import { orderTimeline, stockOf } from "../factories/orders";
import { makeOrder } from "../factories/account-orders";
import { makeAdmin, makeCustomer } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get } from "./admin-catalog-helpers";
import { mailsTo, moveNow, moveOrder, openOrderPage, orderRow, paidOrder, unpaidOrder } from "./admin-orders-helpers";

const t = useTestDatabase();

describe("allowed status moves", () => {
  it("a paid order goes processing → shipped → completed; each change is on the timeline with the admin, and the shopper sees it", async () => {
    const admin = await makeAdmin(t.db, { firstName: "Ada", lastName: "Admin" });
    const shopper = await makeCustomer(t.db);
    const { orderId } = await paidOrder(t.db, { userId: shopper.id });
    const before = await orderRow(t.db, orderId);
    expect(before.status).toBe("processing");

    const shipped = await moveNow(t.db, admin, orderId, "shipped", { trackingNumber: "1Z999AA10123456784" });
    expect(shipped).toMatchObject({ status: 200, body: { ok: true, message: "Order marked as shipped. The customer has been emailed." } });
    const afterShip = await orderRow(t.db, orderId);
    expect(afterShip).toMatchObject({ status: "shipped", version: before.version + 1 });

    const mails = await mailsTo(t.db, before.email);
    const shipMail = mails.find((m) => m.kind === "order-shipped");
    expect(shipMail?.subject).toBe(`Order ${before.orderNumber} has shipped`);
    expect(shipMail?.text).toContain("Tracking number: 1Z999AA10123456784");

    const shopperView = await get(t.db, profileLoader, shopper, "/profile?tab=orders");
    expect(shopperView.body.orders).toEqual([expect.objectContaining({ orderNumber: before.orderNumber, status: "shipped" })]);

    expect(await moveNow(t.db, admin, orderId, "completed")).toMatchObject({ status: 200, body: { ok: true, message: "Order marked as completed." } });
    expect((await orderRow(t.db, orderId)).status).toBe("completed");
    expect((await get(t.db, profileLoader, shopper, "/profile")).body.orders[0].status).toBe("completed");

    const changes = (await orderTimeline(t.db, orderId)).filter((e) => e.kind === "status" && e.fromStatus);
    expect(changes.map((e) => [e.fromStatus, e.toStatus, e.actorUserId, e.actorLabel])).toEqual([
      ["processing", "shipped", admin.id, "Ada Admin"],
      ["shipped", "completed", admin.id, "Ada Admin"],
    ]);
    expect(changes[0]!.note).toBe("Tracking number: 1Z999AA10123456784");

    // The order page shows the same history, with who and when.
    const page = await openOrderPage(t.db, admin, orderId);
    const statusEvents = page.body.order.events.filter((e: { fromStatus: string | null }) => e.fromStatus);
    expect(statusEvents.at(-1)).toMatchObject({ toStatus: "completed", actorLabel: "Ada Admin", actorEmail: admin.email });
    expect(page.body.order.moves).toEqual([]);
  });

  it("an unpaid order goes pending → processing (accepted without online payment); no stock is taken or mail sent", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId, product } = await unpaidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    expect(order).toMatchObject({ status: "pending", paymentStatus: "unpaid" });
    expect(await moveNow(t.db, admin, orderId, "processing")).toMatchObject({ status: 200, body: { message: "Order marked as processing." } });
    expect(await orderRow(t.db, orderId)).toMatchObject({ status: "processing", paymentStatus: "unpaid" });
    expect(await stockOf(t.db, product.id)).toBe(10);
  });

  it("an order accepted unpaid closes its payment page: neither a later payment attempt nor the session's lapse takes it back from the admin", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId, sessionId } = await unpaidOrder(t.db);
    await moveNow(t.db, admin, orderId, "processing");
    await moveNow(t.db, admin, orderId, "shipped");
    const paid = await payTestSession(t.db, sessionId, { cardNumber: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" });
    expect(paid).toMatchObject({ kind: "done", outcome: "closed" });
    // The webhook, the result page and reloads all look at the lapsed session again.
    for (let i = 0; i < 3; i++) await confirmPayment(t.db, sessionId);
    expect(await orderRow(t.db, orderId)).toMatchObject({ status: "shipped", paymentStatus: "unpaid" });
  });

  it("a payment that got in just before the admin accepted the order keeps the admin's status and takes the stock", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId, sessionId, product } = await unpaidOrder(t.db);
    // Paid at the provider, not yet confirmed by the shop, while the admin moves it on.
    await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_race" }).where(eq(testPaymentSessions.id, sessionId));
    await moveNow(t.db, admin, orderId, "processing");
    await moveNow(t.db, admin, orderId, "shipped");
    await confirmPayment(t.db, sessionId);
    expect(await orderRow(t.db, orderId)).toMatchObject({ status: "shipped", paymentStatus: "paid" });
    expect(await stockOf(t.db, product.id)).toBe(9);
  });

  it("pending → cancelled closes the unpaid order's payment page, so the shopper can no longer pay", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId, sessionId, product } = await unpaidOrder(t.db);
    const res = await moveNow(t.db, admin, orderId, "cancelled");
    expect(res).toMatchObject({ status: 200, body: { ok: true, message: "Order cancelled." } });
    const order = await orderRow(t.db, orderId);
    expect(order).toMatchObject({ status: "cancelled", paymentStatus: "expired", stockReleasedAt: null });
    expect((await mailsTo(t.db, order.email)).map((m) => m.subject)).toContain(`Order ${order.orderNumber} cancelled`);

    // The shopper still has the payment page open and presses Pay: nothing is charged.
    const paid = await payTestSession(t.db, sessionId, { cardNumber: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" });
    expect(paid).toMatchObject({ kind: "done", outcome: "closed" });
    const [session] = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, sessionId));
    expect(session).toMatchObject({ status: "expired", paymentReference: null });
    expect((await confirmPayment(t.db, sessionId)).state).toBe("expired");
    expect(await orderRow(t.db, orderId)).toMatchObject({ status: "cancelled", paymentStatus: "expired" });
    expect(await stockOf(t.db, product.id)).toBe(10);
  });

  it("a payment that got in before the cancel is refunded in full, never kept, and the shopper is told", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId, sessionId, product } = await unpaidOrder(t.db);
    // The shopper paid a moment ago; the result page has not confirmed it yet when the admin cancels.
    expect(await payTestSession(t.db, sessionId, { cardNumber: "4242424242424242", expiry: "12/40", cvc: "123" })).toMatchObject({
      outcome: "paid",
    });
    const res = await moveNow(t.db, admin, orderId, "cancelled");
    expect(res).toMatchObject({ status: 200, body: { ok: true, message: "Order cancelled. The payment was refunded." } });

    const order = await orderRow(t.db, orderId);
    expect(order).toMatchObject({ status: "cancelled", paymentStatus: "refunded" });
    expect(order.paymentReference).toMatch(/^test_pi_/);
    const [session] = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, sessionId));
    expect(session!.status).toBe("refunded");
    expect(await stockOf(t.db, product.id)).toBe(10);
    const timeline = (await orderTimeline(t.db, orderId)).map((e) => [e.kind, e.note]);
    expect(timeline).toContainEqual(["late_payment", "This order was cancelled before your payment went through."]);
    expect(timeline).toContainEqual(["refund", "Payment refunded in full: the order was cancelled before the payment went through."]);
    expect((await mailsTo(t.db, order.email)).map((m) => m.subject)).toEqual(
      expect.arrayContaining([`Order ${order.orderNumber} could not be completed`, `Order ${order.orderNumber} cancelled`]),
    );

    // The result page, opened now or later, says so; looking again refunds nothing twice.
    for (let i = 0; i < 2; i++) {
      expect(await confirmPayment(t.db, sessionId)).toMatchObject({
        state: "cancelled",
        message: "This order was cancelled before your payment went through. Your payment has been refunded.",
      });
    }
    expect((await orderTimeline(t.db, orderId)).filter((e) => e.kind === "refund")).toHaveLength(1);
    expect(await stockOf(t.db, product.id)).toBe(10);
  });

  it("processing → cancelled on a paid order puts its stock back once and refunds the payment", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId, product, sessionId } = await paidOrder(t.db, { stock: 6, quantity: 2 });
    expect(await stockOf(t.db, product.id)).toBe(4);
    const res = await moveNow(t.db, admin, orderId, "cancelled", { refund: "yes" });
    expect(res).toMatchObject({
      status: 200,
      body: { ok: true, message: "Order cancelled. Its items are back in stock. The payment was refunded." },
    });
    expect(await stockOf(t.db, product.id)).toBe(6);
    const order = await orderRow(t.db, orderId);
    expect(order).toMatchObject({ status: "cancelled", paymentStatus: "refunded" });
    expect(order.stockReleasedAt).toBeInstanceOf(Date);
    const [session] = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, sessionId));
    expect(session!.status).toBe("refunded");
    const notes = (await orderTimeline(t.db, orderId)).map((e) => e.note);
    expect(notes).toContain("Stock returned: 2 units");
    expect(notes).toContain("Payment refunded in full: the order was cancelled.");
    const cancelMail = (await mailsTo(t.db, order.email)).find((m) => m.kind === "order-cancelled");
    expect(cancelMail?.text).toContain("Your payment of $50.00 has been refunded in full.");
    // The payment result page, opened again, no longer says the order is confirmed.
    expect(await confirmPayment(t.db, sessionId)).toMatchObject({
      state: "cancelled",
      message: "This order has been cancelled. Your payment has been refunded.",
    });
  });

  it("a paid order cancelled without the refund box keeps its payment; the stock still comes back", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId, product, sessionId } = await paidOrder(t.db, { stock: 3, quantity: 1 });
    expect((await moveNow(t.db, admin, orderId, "cancelled")).body.message).toBe("Order cancelled. Its items are back in stock.");
    expect(await orderRow(t.db, orderId)).toMatchObject({ status: "cancelled", paymentStatus: "paid" });
    expect(await stockOf(t.db, product.id)).toBe(3);
    expect(await confirmPayment(t.db, sessionId)).toMatchObject({
      state: "cancelled",
      message: "This order has been cancelled. Contact us if you have questions about your payment.",
    });
    // Nothing was refunded behind the admin's back.
    expect(await orderRow(t.db, orderId)).toMatchObject({ paymentStatus: "paid" });
  });
});

describe("refused status moves", () => {
  const REFUSED: [string, string, string][] = [
    ["completed", "pending", "This order is completed: it cannot go back to pending."],
    ["completed", "processing", "This order is completed: it cannot go back to processing."],
    ["completed", "shipped", "This order is completed: it cannot go back to shipped."],
    ["completed", "cancelled", "This order is completed: it cannot go back to cancelled."],
    ["cancelled", "pending", "This order is cancelled: its status can no longer change."],
    ["cancelled", "processing", "This order is cancelled: its status can no longer change."],
    ["cancelled", "shipped", "This order is cancelled: its status can no longer change."],
    ["cancelled", "completed", "This order is cancelled: its status can no longer change."],
    ["pending", "shipped", "A pending order cannot be moved to shipped. It can only become processing or cancelled."],
    ["pending", "completed", "A pending order cannot be moved to completed. It can only become processing or cancelled."],
    ["processing", "pending", "A processing order cannot be moved to pending. It can only become shipped or cancelled."],
    ["processing", "completed", "A processing order cannot be moved to completed. It can only become shipped or cancelled."],
    ["shipped", "pending", "A shipped order cannot be moved to pending. It can only become completed."],
    ["shipped", "processing", "A shipped order cannot be moved to processing. It can only become completed."],
    ["shipped", "cancelled", "A shipped order cannot be moved to cancelled. It can only become completed."],
    ["shipped", "shipped", "This order is already shipped."],
  ];

  it.each(REFUSED)("%s → %s is refused with a clear message and changes nothing", async (from, to, message) => {
    const admin = await makeAdmin(t.db);
    const order = await makeOrder(t.db, { status: from as "pending", paymentStatus: "paid", paidAt: new Date() });
    const res = await moveOrder(t.db, admin, order.id, { to, version: order.version });
    expect(res).toMatchObject({ status: 409, body: { ok: false, message, code: "not_allowed" } });
    const after = await orderRow(t.db, order.id);
    expect(after).toMatchObject({ status: from, version: order.version, stockReleasedAt: null });
    expect(await orderTimeline(t.db, order.id)).toEqual([]);
  });

  it("bad input: unknown status, missing version, unknown action → 400 with a message", async () => {
    const admin = await makeAdmin(t.db);
    const order = await makeOrder(t.db);
    expect(await moveOrder(t.db, admin, order.id, { to: "teleported", version: 1 })).toMatchObject({
      status: 400,
      body: { ok: false, message: "Unknown status" },
    });
    expect(await moveOrder(t.db, admin, order.id, { to: "processing", version: "abc" })).toMatchObject({
      status: 400,
      body: { message: "Reload the order and try again." },
    });
    expect(await moveOrder(t.db, admin, order.id, { to: "processing", version: 1, intent: "delete" })).toMatchObject({
      status: 400,
      body: { message: "This action is not supported" },
    });
    expect(await moveOrder(t.db, admin, order.id, { to: "processing", version: 1 })).toMatchObject({ status: 200 });
    expect((await orderRow(t.db, order.id)).status).toBe("processing");
    expect(await moveOrder(t.db, admin, order.id, { to: "shipped", version: 2, trackingNumber: "x".repeat(101) })).toMatchObject({
      status: 400,
      body: { message: "The tracking number is too long (100 characters at most)." },
    });
  });

  it("unknown, garbage and other-shaped order ids answer 404 on the page and the action", async () => {
    const admin = await makeAdmin(t.db);
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-an-id", "ORD-20260101-ZZZZ", "1;drop table orders", "%00"]) {
      expect((await openOrderPage(t.db, admin, id)).status).toBe(404);
      expect((await moveOrder(t.db, admin, id, { to: "processing", version: 1 })).status).toBe(404);
    }
  });

  it("the action is admins only: anonymous people go to sign in, customers get 403", async () => {
    const customer = await makeCustomer(t.db);
    const order = await makeOrder(t.db);
    const anon = await moveOrder(t.db, null, order.id, { to: "processing", version: 1 });
    expect(anon.status).toBe(302);
    expect(anon.location).toMatch(/^\/auth\?redirectTo=/);
    expect((await moveOrder(t.db, customer, order.id, { to: "processing", version: 1 })).status).toBe(403);
    expect((await orderRow(t.db, order.id)).status).toBe("pending");
  });
});

describe("two admins changing the same order at once", () => {
  it("both cancelling a paid order: one wins, the other is told; stock comes back once, one refund", async () => {
    const [ada, bob] = [await makeAdmin(t.db), await makeAdmin(t.db)];
    const { orderId, product } = await paidOrder(t.db, { stock: 5, quantity: 3 });
    const { version } = await orderRow(t.db, orderId);
    const results = await Promise.all([
      moveOrder(t.db, ada, orderId, { to: "cancelled", version, refund: "yes" }),
      moveOrder(t.db, bob, orderId, { to: "cancelled", version, refund: "yes" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body).toMatchObject({
      ok: false,
      code: "stale",
      message: "Someone else changed this order while you were looking at it: it is now cancelled. Check it and try again.",
    });
    expect(await stockOf(t.db, product.id)).toBe(5);
    const timeline = await orderTimeline(t.db, orderId);
    expect(timeline.filter((e) => e.toStatus === "cancelled")).toHaveLength(1);
    expect(timeline.filter((e) => e.note.startsWith("Stock returned"))).toHaveLength(1);
    expect(timeline.filter((e) => e.kind === "refund")).toHaveLength(1);
  });

  it("one ships while the other cancels: exactly one change lands, and the stock matches it", async () => {
    const [ada, bob] = [await makeAdmin(t.db), await makeAdmin(t.db)];
    for (let round = 0; round < 5; round++) {
      const { orderId, product } = await paidOrder(t.db, { stock: 4, quantity: 1 });
      const { version } = await orderRow(t.db, orderId);
      const [ship, cancel] = await Promise.all([
        moveOrder(t.db, ada, orderId, { to: "shipped", version }),
        moveOrder(t.db, bob, orderId, { to: "cancelled", version }),
      ]);
      expect([ship.status, cancel.status].sort()).toEqual([200, 409]);
      const order = await orderRow(t.db, orderId);
      expect(order.status).toBe(ship.status === 200 ? "shipped" : "cancelled");
      expect(order.version).toBe(version + 1);
      expect(await stockOf(t.db, product.id)).toBe(order.status === "cancelled" ? 4 : 3);
    }
  });

  it("a change made on an old copy of the page is refused even when the move itself would be allowed", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId } = await paidOrder(t.db);
    const stale = (await orderRow(t.db, orderId)).version;
    await moveNow(t.db, admin, orderId, "shipped");
    await moveNow(t.db, admin, orderId, "completed");
    const res = await moveOrder(t.db, admin, orderId, { to: "cancelled", version: stale });
    expect(res).toMatchObject({ status: 409, body: { code: "stale" } });
    expect((await orderRow(t.db, orderId)).status).toBe("completed");
  });

  it("the domain function itself refuses a stale version (callers other than the page are held to it too)", async () => {
    const admin = await makeAdmin(t.db);
    const order = await makeOrder(t.db);
    await expect(
      changeOrderStatus(t.db, { orderId: order.id, to: "processing", expectedVersion: order.version + 1, actor: { id: admin.id, name: admin.name, email: admin.email } }),
    ).rejects.toMatchObject({ kind: "stale", code: "stale" });
  });
});
