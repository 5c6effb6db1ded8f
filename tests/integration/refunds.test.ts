import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderItems, orderReturns, paymentTasks, products, testPaymentRefunds } from "~/server/platform/db/schema";
import { countOrdersNeeding } from "~/server/commerce/orders/attention.server";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import type { PaymentProvider } from "~/server/commerce/payments/index.server";
import { orderMoney, orderMovements } from "~/server/commerce/settlement/ledger.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { scheduleCallJob } from "~/server/commerce/settlement/provider-calls.server";
import { runShopJobs } from "../factories/jobs";
import {
  ORDER_CHANGED,
  RefundError,
  closeFailedRefund,
  orderStockMoves,
  refundOrder,
  refundableFor,
  retryFailedRefund,
  settleReturnedStock,
  type RefundInput,
} from "~/server/commerce/settlement/refunds.server";
import { makeProduct } from "../factories/products";
import { openCheckout } from "../factories/orders";
import { makeAdmin } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { mailsTo, orderRow, paidOrder } from "./admin-orders-helpers";

const t = useTestDatabase();

const actor = { actorUserId: null, actorLabel: "Ada Admin" };

const refusing = onlyProvider({
  name: "test",
  async refund() {
    throw new Error("card network unreachable");
  },
} as unknown as PaymentProvider);

async function lineOf(orderId: string) {
  const [line] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  return line!;
}

async function stockOf(productId: string) {
  const [p] = await t.db.select({ stock: products.stockQuantity }).from(products).where(eq(products.id, productId));
  return p!.stock;
}

/** A refund as the admin's dialog sends it, from the order's version now. */
async function request(orderId: string, input: Partial<RefundInput>): Promise<RefundInput> {
  return { orderId, expectedVersion: (await orderRow(t.db, orderId)).version, lines: [], shippingCents: 0, adjustmentCents: 0, actor, ...input };
}

async function refused(p: Promise<unknown>): Promise<RefundError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RefundError);
  return err as RefundError;
}

describe("partial refunds", () => {
  it("refunds one unit of a line with restock: stock back once, the row pending then succeeded, the order partially refunded", async () => {
    const { orderId, product, sessionId } = await paidOrder(t.db, { stock: 10, quantity: 2, priceCents: 2500 });
    const line = await lineOf(orderId);
    expect(await stockOf(product.id)).toBe(8);

    const result = await refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: line.id, quantity: 1, restock: true }], reason: "Broken" }));
    expect(result).toMatchObject({ amountCents: 2500, state: "succeeded" });
    expect(await stockOf(product.id)).toBe(9);

    const [refund] = (await orderMovements(t.db, orderId)).filter((m) => m.kind === "refund");
    expect(refund).toMatchObject({ id: result.movementId, amountCents: 2500, state: "succeeded", reason: "Broken", actorLabel: "Ada Admin" });
    expect(refund!.lines).toEqual([{ orderItemId: line.id, quantity: 1, amountCents: 2500, taxCents: 0, restock: true }]);
    expect((await orderMoney(t.db, orderId)).paymentState).toBe("partially_refunded");
    // The provider was asked for that amount with the row's own key.
    expect(await t.db.select({ amountCents: testPaymentRefunds.amountCents, key: testPaymentRefunds.idempotencyKey }).from(testPaymentRefunds).where(eq(testPaymentRefunds.sessionId, sessionId))).toEqual([
      { amountCents: 2500, key: `refund-${result.movementId}` },
    ]);
    expect((await orderStockMoves(t.db, orderId)).map((m) => ({ kind: m.kind, quantity: m.quantity, source: m.source, movementId: m.movementId }))).toEqual([
      { kind: "restocked", quantity: 1, source: "refund", movementId: result.movementId },
    ]);

    // The dialog now offers the one unit left; cancelling refunds the rest and gives back only that unit's stock.
    const after = await refundableFor(t.db, orderId);
    expect(after).toMatchObject({ refundedCents: 2500, maxRefundCents: 2500 });
    expect(after!.lines[0]).toMatchObject({ refundedQuantity: 1, refundableQuantity: 1, refundableCents: 2500 });
    const admin = await makeAdmin(t.db);
    const cancel = await changeOrderStatus(t.db, { orderId, to: "cancelled", expectedVersion: (await orderRow(t.db, orderId)).version, actor: { id: admin.id, name: "Ada", email: admin.email }, refund: true });
    expect(cancel.refund).toBe("refunded");
    expect(await stockOf(product.id)).toBe(10);
    expect(await orderMoney(t.db, orderId)).toMatchObject({ refundedCents: 5000, paymentState: "refunded" });
  });

  it("refuses over each cap with 'You can refund at most $X.' and changes nothing", async () => {
    const { orderId } = await paidOrder(t.db, { quantity: 2, priceCents: 2500 });
    const line = await lineOf(orderId);
    const before = await orderRow(t.db, orderId);

    const total = await refused(refundOrder(t.db, await request(orderId, { adjustmentCents: 5001, adjustmentReason: "Sorry" })));
    expect(total.message).toBe("You can refund at most $50.00.");
    const shipping = await refused(refundOrder(t.db, await request(orderId, { shippingCents: 1 })));
    expect(shipping.message).toBe("You can refund at most $0.00.");
    expect(shipping.field).toBe("shippingCents");
    const units = await refused(refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: line.id, quantity: 3, restock: false }] })));
    expect(units.message).toBe(`You can refund at most 2 of ${line.name}.`);
    expect(units.field).toBe("lines.0.quantity");

    // After one unit is refunded, the total left is $25.00.
    await refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: line.id, quantity: 1, restock: false }] }));
    const left = await refused(refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: line.id, quantity: 1, restock: false }], adjustmentCents: 1, adjustmentReason: "x" })));
    expect(left.message).toBe("You can refund at most $25.00.");
    expect((await orderMovements(t.db, orderId)).filter((m) => m.kind === "refund")).toHaveLength(1);
    expect((await orderRow(t.db, orderId)).version).toBe(before.version + 2); // the refund and its success, nothing else
  });

  it("refuses an order changed since it was opened, bad quantities naming the field, an adjustment without a reason, and an unpaid order", async () => {
    const { orderId } = await paidOrder(t.db);
    const line = await lineOf(orderId);
    const stale = await request(orderId, { lines: [{ orderItemId: line.id, quantity: 1, restock: false }] });
    const conflict = await refused(refundOrder(t.db, { ...stale, expectedVersion: stale.expectedVersion - 1 }));
    expect(conflict).toMatchObject({ kind: "conflict", message: ORDER_CHANGED });

    for (const quantity of [-1, 1.5]) {
      const bad = await refused(refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: line.id, quantity, restock: false }] })));
      expect(bad.field).toBe("lines.0.quantity");
    }
    const nothing = await refused(refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: line.id, quantity: 0, restock: false }] })));
    expect(nothing).toMatchObject({ field: "lines", message: "Choose something to refund." });
    const noReason = await refused(refundOrder(t.db, await request(orderId, { adjustmentCents: 100 })));
    expect(noReason.field).toBe("adjustmentReason");
    const foreign = await refused(refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: randomUUID(), quantity: 1, restock: false }] })));
    expect(foreign.field).toBe("lines.0.orderItemId");
    expect((await orderMovements(t.db, orderId)).filter((m) => m.kind === "refund")).toEqual([]);

    const product = await makeProduct(t.db, { stockQuantity: 5 });
    const unpaid = await openCheckout(t.db, [[product, 1]]);
    const unpaidLine = await lineOf(unpaid.orderId);
    const notPaid = await refused(refundOrder(t.db, await request(unpaid.orderId, { lines: [{ orderItemId: unpaidLine.id, quantity: 1, restock: false }] })));
    expect(notPaid).toMatchObject({ kind: "rejected", message: "This order is not paid, so there is nothing to refund." });
  });

  it("20 concurrent refunds of the last $10.00, each from the version it reads, refund $10.00 once", async () => {
    const { orderId } = await paidOrder(t.db, { quantity: 1, priceCents: 6000 });
    await refundOrder(t.db, await request(orderId, { adjustmentCents: 5000, adjustmentReason: "Most of it back" }));
    expect((await refundableFor(t.db, orderId))!.maxRefundCents).toBe(1000);

    // Each caller reads the version and tries again while the order changed under it: the cap, not the version, decides.
    const attempt = async (): Promise<string> => {
      for (;;) {
        try {
          await refundOrder(t.db, await request(orderId, { adjustmentCents: 1000, adjustmentReason: "The rest" }));
          return "refunded";
        } catch (err) {
          if (err instanceof RefundError && err.kind === "conflict") continue;
          if (err instanceof RefundError) return err.message;
          throw err;
        }
      }
    };
    const results = await Promise.all(Array.from({ length: 20 }, attempt));
    expect(results.filter((r) => r === "refunded")).toHaveLength(1);
    expect(new Set(results.filter((r) => r !== "refunded"))).toEqual(new Set(["You can refund at most $0.00."]));
    expect(await orderMoney(t.db, orderId)).toMatchObject({ refundedCents: 6000, balanceCents: 0, paymentState: "refunded" });
  });

  it("a refund the provider refuses is failed and needs attention; Retry makes it; a closed one no longer counts", async () => {
    const { orderId } = await paidOrder(t.db, { quantity: 2, priceCents: 2500 });
    const line = await lineOf(orderId);
    const failed = await refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: line.id, quantity: 1, restock: false }] }), { providers: refusing });
    expect(failed.state).toBe("failed");
    expect((await orderMovements(t.db, orderId)).find((m) => m.id === failed.movementId)!.state).toBe("failed");
    expect((await countOrdersNeeding(t.db, "refund-failed")).count).toBe(1);
    // Still owed: it counts against what may be refunded.
    expect((await refundableFor(t.db, orderId))!.maxRefundCents).toBe(2500);

    const retried = await retryFailedRefund(t.db, failed.movementId, actor);
    expect(retried.state).toBe("succeeded");
    expect((await countOrdersNeeding(t.db, "refund-failed")).count).toBe(0);
    expect((await orderMoney(t.db, orderId)).refundedCents).toBe(2500);

    const second = await refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: line.id, quantity: 1, restock: false }] }), { providers: refusing });
    expect(second.state).toBe("failed");
    await closeFailedRefund(t.db, second.movementId, actor);
    const [task] = await t.db.select().from(paymentTasks).where(eq(paymentTasks.movementId, second.movementId));
    expect(task!.state).toBe("closed");
    expect((await countOrdersNeeding(t.db, "refund-failed")).count).toBe(0);
    expect((await refundableFor(t.db, orderId))!.maxRefundCents).toBe(2500);
    expect((await orderMoney(t.db, orderId)).refundedCents).toBe(2500);
    // A closed refund is not retried.
    await refused(retryFailedRefund(t.db, second.movementId, actor));
  });

  it("settles a received return's stock once: restocked back, the rest written off; a refund for the return moves no stock", async () => {
    const { orderId, product } = await paidOrder(t.db, { stock: 10, quantity: 3, priceCents: 1000 });
    const line = await lineOf(orderId);
    const returnId = randomUUID();
    const lines = [
      { orderItemId: line.id, quantity: 1, restock: true },
      { orderItemId: line.id, quantity: 1, restock: false },
    ];
    // A return the owner received (a refund for a return refuses one that is not this order's received return).
    const order = await orderRow(t.db, orderId);
    await t.db.insert(orderReturns).values({
      id: returnId,
      orderId,
      sequence: 1,
      returnNumber: `R-${order.orderNumber}-1`,
      state: "received",
      reason: "damaged",
      lines: [{ orderItemId: line.id, quantity: 2 }],
      requestKey: randomUUID(),
    });
    await t.db.transaction((tx) => settleReturnedStock(tx, { orderId, returnId, lines, actor }));
    await t.db.transaction((tx) => settleReturnedStock(tx, { orderId, returnId, lines, actor }));
    expect(await stockOf(product.id)).toBe(8);
    expect((await orderStockMoves(t.db, orderId)).map((m) => [m.kind, m.quantity, m.returnId])).toEqual(
      expect.arrayContaining([
        ["restocked", 1, returnId],
        ["written_off", 1, returnId],
      ]),
    );
    expect(await orderStockMoves(t.db, orderId)).toHaveLength(2);

    const refund = await refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: line.id, quantity: 2, restock: true }], returnId }));
    expect(refund.state).toBe("succeeded");
    expect(await stockOf(product.id)).toBe(8);
    expect((await orderMovements(t.db, orderId)).find((m) => m.id === refund.movementId)!.returnId).toBe(returnId);
  });

  it("mails the shopper 'Refund issued' only once the provider made the refund: the amount, the lines and that the money goes back to the card", async () => {
    const { orderId } = await paidOrder(t.db, { quantity: 2, priceCents: 2500 });
    const order = await orderRow(t.db, orderId);
    const line = await lineOf(orderId);
    const refundMails = async () => (await mailsTo(t.db, order.email)).filter((m) => m.kind === "refund-issued");

    const failed = await refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: line.id, quantity: 1, restock: false }] }), { providers: refusing });
    expect(failed.state).toBe("failed");
    expect(await refundMails()).toEqual([]);

    await retryFailedRefund(t.db, failed.movementId, actor);
    const [mail] = await refundMails();
    expect(mail!.subject).toBe(`Your refund for order ${order.orderNumber}`);
    expect(mail!.text).toContain(`We refunded $25.00 for order ${order.orderNumber}.`);
    expect(mail!.text).toContain(`1 × ${line.name}: $25.00`);
    expect(mail!.text).toContain("The money goes back to the card you paid with");
    expect(await refundMails()).toHaveLength(1);
  });

  it("a refused refund is tried again on schedule by its job, with the same key, and succeeds", async () => {
    const { orderId, sessionId } = await paidOrder(t.db, { quantity: 2, priceCents: 2500 });
    const line = await lineOf(orderId);
    const failed = await refundOrder(t.db, await request(orderId, { lines: [{ orderItemId: line.id, quantity: 1, restock: false }] }), { providers: refusing });
    expect(failed.state).toBe("failed");
    const [task] = await t.db.select().from(paymentTasks).where(eq(paymentTasks.movementId, failed.movementId));
    expect(task).toMatchObject({ state: "pending", attempts: 1, idempotencyKey: `refund-${failed.movementId}` });

    // Its next try comes due: the job makes it with the shop's provider.
    await t.db.update(paymentTasks).set({ nextAttemptAt: new Date() }).where(eq(paymentTasks.id, task!.id));
    await scheduleCallJob(t.db, task!.id, new Date());
    await runShopJobs(t.db);
    expect((await orderMovements(t.db, orderId)).find((m) => m.id === failed.movementId)!.state).toBe("succeeded");
    expect(await t.db.select({ key: testPaymentRefunds.idempotencyKey }).from(testPaymentRefunds).where(eq(testPaymentRefunds.sessionId, sessionId))).toEqual([{ key: `refund-${failed.movementId}` }]);
  });
});
