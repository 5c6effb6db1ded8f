import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderItems, orders } from "~/server/platform/db/schema";
import { verifiedPurchase } from "~/server/catalog/reviews/reviews.server";
import { countOrdersNeeding } from "~/server/commerce/orders/attention.server";
import { statusText, shopperTimeline } from "~/server/commerce/orders/shopper-order.server";
import { refundOrder } from "~/server/commerce/settlement/refunds.server";
import { makeCustomer } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { orderRow, paidOrder } from "./admin-orders-helpers";

const t = useTestDatabase();

/** One of the order's two units refunded (a damaged pillowcase): the rest stays bought and paid. */
async function partlyRefunded(userId: string | null = null) {
  const { orderId, product } = await paidOrder(t.db, { quantity: 2, priceCents: 2500, userId });
  const [line] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  const order = await orderRow(t.db, orderId);
  await refundOrder(t.db, {
    orderId,
    expectedVersion: order.version,
    lines: [{ orderItemId: line!.id, quantity: 1, restock: true }],
    shippingCents: 0,
    adjustmentCents: 0,
    actor: { actorUserId: null, actorLabel: "Ada Admin" },
  });
  const after = await orderRow(t.db, orderId);
  expect(after.paymentStatus).toBe("partially_refunded");
  return { order: after, product };
}

describe("a partially refunded order is still a paid order for the rest", () => {
  it("reads 'Paid: being prepared' to the shopper, with its Paid step done, not 'Being prepared'", async () => {
    const { order } = await partlyRefunded();
    expect(statusText(order)).toBe("Paid: being prepared");
    expect(statusText({ ...order, status: "pending" })).toBe("Paid");
    expect(shopperTimeline(order, []).find((s) => s.key === "paid")).toMatchObject({ done: true });
  });

  it("keeps its buyer a verified buyer who may review the product", async () => {
    const shopper = await makeCustomer(t.db);
    const { product } = await partlyRefunded(shopper.id);
    expect(await verifiedPurchase(t.db, shopper.id, product.id)).not.toBeNull();
  });

  it("stays in Needs attention while it waits to ship", async () => {
    const { order } = await partlyRefunded();
    // Paid three days ago and still processing.
    await t.db.update(orders).set({ paidAt: sql`now() - interval '3 days'` }).where(eq(orders.id, order.id));
    expect((await countOrdersNeeding(t.db, "unshipped")).count).toBe(1);
  });
});
