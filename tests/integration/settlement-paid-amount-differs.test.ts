import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { action as orderAction } from "~/routes/admin/orders/order";
import { getPaymentProvider, type PaymentProvider } from "~/server/commerce/payments/index.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { confirmRefundDifference } from "~/server/commerce/settlement/refund-difference.server";
import { getAttentionItems } from "~/server/insight/index.server";
import { paymentTasks, testPaymentSessions } from "~/server/platform/db/schema";
import { openCheckout, orderTimeline } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { makeAdmin, requestAs, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { args, settle } from "./admin-catalog-helpers";
import { openOrderPage, orderRow } from "./admin-orders-helpers";

const t = useTestDatabase();
let admin: TestUser;

/** The test provider, except that its paid sessions report `paidCents`; counts the refunds asked for. */
function providerPaying(paidCents: number) {
  const test = getPaymentProvider(t.db, "test");
  const refunds: { key: string; amountCents: number | null | undefined }[] = [];
  const provider: PaymentProvider = Object.assign(Object.create(test) as PaymentProvider, {
    async retrieveSession(id: string) {
      const remote = await test.retrieveSession(id);
      return remote && { ...remote, amountTotalCents: paidCents };
    },
    async refund(...a: Parameters<PaymentProvider["refund"]>) {
      refunds.push({ key: a[1].idempotencyKey, amountCents: a[1].amountCents });
      return test.refund(...a);
    },
  });
  return { providers: onlyProvider(provider), refunds };
}

/** A $25.00 order whose payment page was paid. */
async function paidCheckout() {
  const product = await makeProduct(t.db, { priceCents: 2500, stockQuantity: 10 });
  const checkout = await openCheckout(t.db, [[product, 1]]);
  await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: `test_pi_${checkout.orderId.slice(0, 8)}` }).where(eq(testPaymentSessions.id, checkout.sessionId));
  return checkout;
}

const attention = async () => (await getAttentionItems(t.db)).find((i) => i.kind === "refunds_to_confirm");

async function pressConfirmRefund(orderNumber: string) {
  const request = await requestAs(t.db, admin, `/admin/orders/${orderNumber}`, { method: "POST", body: new URLSearchParams({ intent: "confirm-refund" }) });
  return settle(() => orderAction(args(request, { id: orderNumber })));
}

beforeAll(async () => {
  admin = await makeAdmin(t.db);
});

describe("a paid amount that differs from the order's total", () => {
  it("paid $30.00 for $25.00: the order is paid, flagged in 'Needs attention', and the $5.00 refund waits for the owner's one button, which makes it through the recorded provider call", async () => {
    const checkout = await paidCheckout();
    const { providers, refunds } = providerPaying(3000);

    expect((await confirmPayment(t.db, checkout.sessionId, { providers })).state).toBe("paid");
    expect(await confirmPayment(t.db, checkout.sessionId, { providers })).toMatchObject({ state: "paid" });
    const order = await orderRow(t.db, checkout.orderId);
    expect(order).toMatchObject({ paymentStatus: "paid", status: "processing", totalAmountCents: 2500 });
    expect(refunds).toEqual([]);
    expect(await attention()).toEqual({
      kind: "refunds_to_confirm",
      count: 1,
      capped: false,
      label: "payment that differs from its order's total",
      action: "Confirm refund",
      href: "/admin/orders?needs=refund-to-confirm",
    });
    const page = (await openOrderPage(t.db, admin, order.orderNumber)).body.order;
    expect(page.refundToConfirm).toEqual({ amountCents: 500 });
    expect(page.events.map((e: { note: string }) => e.note)).toContain("Paid $30.00 for a total of $25.00: confirm the refund of the $5.00 difference.");

    const res = await pressConfirmRefund(order.orderNumber);
    expect(res.body).toEqual({ ok: true, message: "The refund was sent." });
    const [task] = await t.db.select().from(paymentTasks).where(eq(paymentTasks.orderId, checkout.orderId));
    expect(task).toMatchObject({ kind: "refund_difference", idempotencyKey: `refund-difference-${checkout.orderId}`, state: "done", amountCents: 500, attempts: 1 });
    const timeline = await orderTimeline(t.db, checkout.orderId);
    expect(timeline.at(-1)).toMatchObject({ kind: "refund", note: "Refunded $5.00: paid more than the order's total.", actorUserId: admin.id });
    expect(await orderRow(t.db, checkout.orderId)).toMatchObject({ paymentStatus: "paid" });
    expect(await attention()).toBeUndefined();
    expect((await openOrderPage(t.db, admin, order.orderNumber)).body.order.refundToConfirm).toBeNull();
    // Nothing is left to confirm: a second press says so and changes nothing.
    expect((await pressConfirmRefund(order.orderNumber)).body).toEqual({ ok: false, message: "There is no refund to confirm on this order." });
  });

  it("paid $20.00 for $25.00: the order is not taken, and the whole $20.00 waits for the owner; confirming asks the provider for exactly that and closes the order", async () => {
    const checkout = await paidCheckout();
    const { providers, refunds } = providerPaying(2000);

    expect((await confirmPayment(t.db, checkout.sessionId, { providers })).state).toBe("error");
    expect((await confirmPayment(t.db, checkout.sessionId, { providers })).state).toBe("error");
    expect(await orderRow(t.db, checkout.orderId)).toMatchObject({ paymentStatus: "unpaid" });
    expect((await attention())?.count).toBe(1);
    const notes = (await orderTimeline(t.db, checkout.orderId)).filter((e) => e.kind === "attention").map((e) => e.note);
    expect(notes).toEqual(["Paid $20.00 for a total of $25.00: the order was not taken. Confirm the refund of the whole payment, or ask the customer for the rest."]);
    expect(refunds).toEqual([]);

    expect(await confirmRefundDifference(t.db, checkout.orderId, { actorUserId: admin.id, actorLabel: "Admin" }, { providers })).toBe("done");
    expect(refunds).toEqual([{ key: `refund-difference-${checkout.orderId}`, amountCents: 2000 }]);
    expect(await attention()).toBeUndefined();
    // All of it given back: the order is closed, and the result page says so.
    expect(await orderRow(t.db, checkout.orderId)).toMatchObject({ paymentStatus: "refunded", status: "cancelled" });
    expect(await confirmPayment(t.db, checkout.sessionId, { providers })).toMatchObject({
      state: "cancelled",
      message: "This order has been cancelled. Your payment has been refunded.",
    });
  });
});
