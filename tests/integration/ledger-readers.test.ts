// Everything that shows money reads the order ledger (docs/money-path.md, "Who reads the ledger"):
// the order's cached payment status, the order list and its filter, analytics and reports (each
// refund on the day it succeeded), customer totals, the dashboard and the CSV exports.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { keepPaymentStatus, orderMoney, recordCharge, recordPendingRefund, settleRefund } from "~/server/commerce/settlement/ledger.server";
import type { Db } from "~/server/platform/db/client.server";
import { orderMoneyMovements, orders, paymentTasks } from "~/server/platform/db/schema";
import { runShopJobs } from "../factories/jobs";
import { makeAdmin } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { orderRow, paidOrder } from "./admin-orders-helpers";

const t = useTestDatabase();

/**
 * A refund of `cents` that succeeded at `at` (ISO), written through the ledger's own functions
 * with a done provider call, as a partial refund is: the row, then its success.
 */
export async function partlyRefund(db: Db, orderId: string, cents: number, at?: string) {
  const [task] = await db
    .insert(paymentTasks)
    .values({ orderId, kind: "refund", idempotencyKey: `test-refund-${randomUUID()}`, state: "done", amountCents: cents, doneAt: new Date() })
    .returning();
  await db.transaction(async (tx) => {
    await recordPendingRefund(tx, { orderId, paymentTaskId: task!.id, amountCents: cents, reason: "Part refunded" });
    await settleRefund(tx, task!.id, "succeeded");
  });
  if (at) await db.update(orderMoneyMovements).set({ createdAt: new Date(at), settledAt: new Date(at) }).where(eq(orderMoneyMovements.paymentTaskId, task!.id));
}

/** The ledger's charge for an order inserted as it stands (tests/factories/sold-orders.ts). */
export async function chargeFor(db: Db, order: typeof orders.$inferSelect) {
  await db.transaction((tx) => recordCharge(tx, order, order.totalAmountCents, null));
}

async function cacheOf(orderId: string) {
  const row = await orderRow(t.db, orderId);
  return { paymentStatus: row.paymentStatus, refundedCents: row.refundedCents };
}

describe("the order's payment status is the ledger's", () => {
  it("after a partial refund, a second one and a cancel that refunds the rest, payment_status and refunded_cents equal the ledger's", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId } = await paidOrder(t.db, { quantity: 2, priceCents: 2500 });
    const total = (await orderRow(t.db, orderId)).totalAmountCents;
    const expectLedger = async (paymentStatus: string, refundedCents: number) => {
      expect((await orderMoney(t.db, orderId)).paymentState).toBe(paymentStatus);
      expect(await cacheOf(orderId)).toEqual({ paymentStatus, refundedCents });
    };
    await expectLedger("paid", 0);

    await partlyRefund(t.db, orderId, 1000);
    await expectLedger("partially_refunded", 1000);
    await partlyRefund(t.db, orderId, 500);
    await expectLedger("partially_refunded", 1500);

    // Cancelling gives back what is left, and the order ends refunded.
    const order = await orderRow(t.db, orderId);
    const result = await changeOrderStatus(t.db, {
      orderId,
      to: "cancelled",
      expectedVersion: order.version,
      actor: { id: admin.id, name: "Ada", email: admin.email },
      refund: true,
    });
    expect(result.refund).toBe("refunded");
    await runShopJobs(t.db);
    expect((await orderMoney(t.db, orderId)).refundedCents).toBe(total);
    await expectLedger("refunded", total);

    // Recomputing changes nothing.
    await t.db.transaction((tx) => keepPaymentStatus(tx, orderId));
    await expectLedger("refunded", total);
  });
});
