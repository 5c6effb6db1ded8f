import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderMoneyMovements, orders, paymentTasks, testPaymentSessions } from "~/server/platform/db/schema";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import type { PaymentProvider } from "~/server/commerce/payments/index.server";
import { getPaymentProvider } from "~/server/commerce/payments/index.server";
import { recordOrderClosing } from "~/server/commerce/settlement/cancel.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { confirmRefundDifference } from "~/server/commerce/settlement/refund-difference.server";
import { orderMoney, orderMovements } from "~/server/commerce/settlement/ledger.server";
import { scheduleCallJob } from "~/server/commerce/settlement/provider-calls.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { runShopJobs } from "../factories/jobs";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { cartLines, openCheckout, shippingForm } from "../factories/orders";
import { makeDiscountCode } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { makeAdmin } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { orderRow, paidOrder, unpaidOrder } from "./admin-orders-helpers";

const t = useTestDatabase();

const rows = async (orderId: string) =>
  (await orderMovements(t.db, orderId)).map((m) => ({ kind: m.kind, amountCents: m.amountCents, state: m.state, providerReference: m.providerReference }));

const refusing = onlyProvider({
  name: "test",
  async refund() {
    throw new Error("card network unreachable");
  },
} as unknown as PaymentProvider);

describe("the order ledger", () => {
  it("a paid order has one succeeded charge of its total, with the provider's reference, and is paid", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    expect(await rows(orderId)).toEqual([{ kind: "charge", amountCents: order.totalAmountCents, state: "succeeded", providerReference: order.paymentReference }]);
    expect(await orderMoney(t.db, orderId)).toEqual({ paidCents: order.totalAmountCents, refundedCents: 0, balanceCents: order.totalAmountCents, paymentState: "paid" });
  });

  it("an unpaid order has no rows and is unpaid", async () => {
    const { orderId } = await unpaidOrder(t.db);
    expect(await rows(orderId)).toEqual([]);
    expect((await orderMoney(t.db, orderId)).paymentState).toBe("unpaid");
  });

  it("cancelling a paid order records a pending refund in the cancel, which the job makes: succeeded, and the order is refunded", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    await t.db.transaction((tx) => recordOrderClosing(tx, order, { to: "cancelled", actor: { actorUserId: admin.id, actorLabel: "Ada Admin" } }));
    const [refund] = (await orderMovements(t.db, orderId)).filter((m) => m.kind === "refund");
    expect(refund).toMatchObject({ amountCents: order.totalAmountCents, state: "pending", actorUserId: admin.id, actorLabel: "Ada Admin", reason: "Payment refunded in full: the order was cancelled." });
    expect((await orderMoney(t.db, orderId)).paymentState).toBe("paid");

    // The request that decided it did not make the call (a crash): the job does, once due.
    await scheduleCallJob(t.db, refund!.paymentTaskId!, new Date());
    await runShopJobs(t.db);
    expect((await rows(orderId)).map((r) => [r.kind, r.state])).toEqual([["charge", "succeeded"], ["refund", "succeeded"]]);
    expect(await orderMoney(t.db, orderId)).toEqual({ paidCents: order.totalAmountCents, refundedCents: order.totalAmountCents, balanceCents: 0, paymentState: "refunded" });
  });

  it("a refund the provider refuses shows failed, and the order stays paid", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    const result = await changeOrderStatus(
      t.db,
      { orderId, to: "cancelled", expectedVersion: order.version, actor: { id: admin.id, name: "Ada", email: admin.email }, refund: true },
      { providers: refusing },
    );
    expect(result).toMatchObject({ refund: "failed" });
    expect((await rows(orderId)).map((r) => [r.kind, r.state])).toEqual([["charge", "succeeded"], ["refund", "failed"]]);
    expect(await orderMoney(t.db, orderId)).toMatchObject({ refundedCents: 0, balanceCents: order.totalAmountCents, paymentState: "paid" });
  });

  it("a $0.00 order (a 100 % code) is paid at once with a $0.00 charge: paid, nothing held", async () => {
    const code = await makeDiscountCode(t.db, { percentBasisPoints: 10_000 });
    const pillow = await makeProduct(t.db, { priceCents: 2500, stockQuantity: 3 });
    const result = await createCheckout(
      t.db,
      { lines: cartLines([pillow, 1]), form: shippingForm(), idempotencyKey: null, discountCode: code.code },
      { userId: null, providers: onlyProvider(getPaymentProvider(t.db, "test")), baseUrl: "http://localhost:3000" },
    );
    if (!result.ok) throw new Error("checkout refused");
    const [order] = await t.db.select().from(orders).where(eq(orders.orderNumber, result.orderNumber));
    expect(await rows(order!.id)).toEqual([{ kind: "charge", amountCents: 0, state: "succeeded", providerReference: `free_${order!.id}` }]);
    expect(await orderMoney(t.db, order!.id)).toEqual({ paidCents: 0, refundedCents: 0, balanceCents: 0, paymentState: "paid" });
  });

  it("paid $30.00 for a $25.00 order: $30.00 in, the $5.00 refund on the ledger once the owner confirms it, $25.00 held and still paid", async () => {
    const admin = await makeAdmin(t.db);
    const product = await makeProduct(t.db, { priceCents: 2500, stockQuantity: 10 });
    const checkout = await openCheckout(t.db, [[product, 1]]);
    await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_over" }).where(eq(testPaymentSessions.id, checkout.sessionId));
    const test = getPaymentProvider(t.db, "test");
    const paying30 = onlyProvider(
      Object.assign(Object.create(test) as PaymentProvider, {
        async retrieveSession(id: string) {
          const remote = await test.retrieveSession(id);
          return remote && { ...remote, amountTotalCents: 3000 };
        },
      }),
    );
    await confirmPayment(t.db, checkout.sessionId, { providers: paying30 });
    const total = (await orderRow(t.db, checkout.orderId)).totalAmountCents;
    expect(await orderMoney(t.db, checkout.orderId)).toMatchObject({ paidCents: 3000, refundedCents: 0, paymentState: "paid" });
    // Waiting for the owner: no refund decided yet.
    expect((await rows(checkout.orderId)).filter((r) => r.kind === "refund")).toEqual([]);

    expect(await confirmRefundDifference(t.db, checkout.orderId, { actorUserId: admin.id, actorLabel: "Ada Admin" }, { providers: paying30 })).toBe("done");
    expect((await rows(checkout.orderId)).filter((r) => r.kind === "refund")).toEqual([{ kind: "refund", amountCents: 3000 - total, state: "succeeded", providerReference: "test_pi_over" }]);
    expect(await orderMoney(t.db, checkout.orderId)).toEqual({ paidCents: 3000, refundedCents: 3000 - total, balanceCents: total, paymentState: "paid" });
  });
});

/** The migration's back-fill statements, as they run on a shop's existing orders. */
function backFillStatements(): string[] {
  const migration = readFileSync("drizzle/0026_order_money_movements.sql", "utf8");
  const backFill = migration.slice(migration.indexOf("-- Back-fill"));
  return backFill.split("--> statement-breakpoint").map((s) => s.trim()).filter(Boolean);
}

describe("the ledger's back-fill of orders made before it", () => {
  it("gives a paid order a charge, a cancelled-and-refunded one a charge and a refund as its recorded call ended, an unpaid one nothing", async () => {
    const admin = await makeAdmin(t.db);
    const paid = await paidOrder(t.db);
    const refunded = await paidOrder(t.db);
    const failed = await paidOrder(t.db);
    const refundedLongAgo = await paidOrder(t.db);
    const unpaid = await unpaidOrder(t.db);
    const cancel = async (orderId: string, providers?: ReturnType<typeof onlyProvider>) =>
      changeOrderStatus(
        t.db,
        { orderId, to: "cancelled", expectedVersion: (await orderRow(t.db, orderId)).version, actor: { id: admin.id, name: "Ada", email: admin.email }, refund: true },
        { providers },
      );
    expect(await cancel(refunded.orderId)).toMatchObject({ refund: "refunded" });
    expect(await cancel(failed.orderId, refusing)).toMatchObject({ refund: "failed" });
    // Refunded before refunds were recorded calls: only the order's payment status says so.
    await t.db.update(orders).set({ paymentStatus: "refunded" }).where(eq(orders.id, refundedLongAgo.orderId));

    // The old shape: no ledger at all.
    await t.db.delete(orderMoneyMovements);
    for (const statement of backFillStatements()) await t.db.execute(sql.raw(statement));

    const total = (await orderRow(t.db, paid.orderId)).totalAmountCents;
    const reference = (await orderRow(t.db, paid.orderId)).paymentReference;
    expect(await rows(paid.orderId)).toEqual([{ kind: "charge", amountCents: total, state: "succeeded", providerReference: reference }]);
    expect(await orderMoney(t.db, paid.orderId)).toMatchObject({ paymentState: "paid", balanceCents: total });

    const [task] = await t.db.select().from(paymentTasks).where(eq(paymentTasks.orderId, refunded.orderId));
    const refundedRows = await orderMovements(t.db, refunded.orderId);
    expect(refundedRows.map((r) => [r.kind, r.amountCents, r.state])).toEqual([["charge", total, "succeeded"], ["refund", total, "succeeded"]]);
    expect(refundedRows[1]).toMatchObject({ paymentTaskId: task!.id, actorUserId: admin.id, reason: "Payment refunded in full: the order was cancelled." });
    expect(await orderMoney(t.db, refunded.orderId)).toMatchObject({ paymentState: "refunded", balanceCents: 0 });

    expect((await rows(failed.orderId)).map((r) => [r.kind, r.state])).toEqual([["charge", "succeeded"], ["refund", "failed"]]);
    expect((await orderMoney(t.db, failed.orderId)).paymentState).toBe("paid");

    expect((await rows(refundedLongAgo.orderId)).map((r) => [r.kind, r.state])).toEqual([["charge", "succeeded"], ["refund", "succeeded"]]);
    expect((await orderMoney(t.db, refundedLongAgo.orderId)).paymentState).toBe("refunded");

    expect(await rows(unpaid.orderId)).toEqual([]);
  });
});
