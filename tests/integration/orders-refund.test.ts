import { describe, expect, it } from "vitest";
import type { PaymentProvider } from "~/server/payments/index.server";
import { refundOrderPayment } from "~/server/orders/refund.server";
import { orderTimeline } from "../factories/orders";
import { useTestDatabase } from "../setup/database";
import { orderRow, paidOrder } from "./admin-orders-helpers";

const t = useTestDatabase();

/** A provider whose refunds are refused, counting the attempts and the keys they carried. */
function refusingProvider() {
  const keys: string[] = [];
  const provider = {
    async refund(_session: unknown, opts: { idempotencyKey: string }) {
      keys.push(opts.idempotencyKey);
      throw new Error("card network unreachable");
    },
  } as unknown as PaymentProvider;
  return { provider, keys };
}

const attention = async (orderId: string) =>
  (await orderTimeline(t.db, orderId)).filter((e) => e.kind === "attention").map((e) => [e.note, e.actorLabel]);

describe("refundOrderPayment", () => {
  it("refunds once through the order's provider, marks the order refunded and notes who asked", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    const opts = { reason: "Payment refunded in full: the order was cancelled.", failureLog: "x", actor: { actorUserId: null, actorLabel: "Ada Admin" } };
    expect(await refundOrderPayment(t.db, order, opts)).toBe(true);
    expect(await refundOrderPayment(t.db, order, opts)).toBe(true);
    const after = await orderRow(t.db, orderId);
    expect(after).toMatchObject({ paymentStatus: "refunded", version: order.version + 1 });
    const refunds = (await orderTimeline(t.db, orderId)).filter((e) => e.kind === "refund");
    expect(refunds.map((e) => [e.note, e.actorLabel])).toEqual([["Payment refunded in full: the order was cancelled.", "Ada Admin"]]);
  });

  it("asks a person to refund by hand when the provider refuses, once per order on a retried path", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    const { provider, keys } = refusingProvider();
    const soldOut = { reason: "r", failureLog: "x", flagOnce: true, provider };
    expect(await refundOrderPayment(t.db, order, soldOut)).toBe(false);
    expect(await refundOrderPayment(t.db, order, soldOut)).toBe(false);
    expect(keys).toEqual([`refund-${orderId}`, `refund-${orderId}`]);
    expect(await attention(orderId)).toEqual([["Automatic refund failed: refund this payment by hand.", "system"]]);
    expect((await orderRow(t.db, orderId)).paymentStatus).toBe("paid");

    const cancel = { reason: "r", failureLog: "x", actor: { actorUserId: null, actorLabel: "Bob Admin" }, provider };
    expect(await refundOrderPayment(t.db, order, cancel)).toBe(false);
    expect(await attention(orderId)).toEqual([
      ["Automatic refund failed: refund this payment by hand.", "system"],
      ["Automatic refund failed: refund this payment by hand.", "Bob Admin"],
    ]);
  });
});
