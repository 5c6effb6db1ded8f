import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderItems, orders } from "~/server/platform/db/schema";
import { getPaymentProvider } from "~/server/commerce/payments/index.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { refundOrder } from "~/server/commerce/settlement/refunds.server";
import { useFakeStripe } from "../fakes/stripe";
import { openCheckout } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();
const stripe = useFakeStripe();

describe("a partial refund through Stripe", () => {
  it("refunds that amount of the payment intent under the ledger row's own key, one Stripe refund per refund", async () => {
    const provider = getPaymentProvider(t.db, "stripe");
    const providers = onlyProvider(provider);
    const product = await makeProduct(t.db, { priceCents: 2500, stockQuantity: 5 });
    const checkout = await openCheckout(t.db, [[product, 2]], { provider });
    stripe.complete(checkout.sessionId);
    expect((await confirmPayment(t.db, checkout.sessionId, { providers })).state).toBe("paid");
    const [line] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, checkout.orderId));
    const version = async () => (await t.db.select({ v: orders.version }).from(orders).where(eq(orders.id, checkout.orderId)))[0]!.v;
    const first = await refundOrder(
      t.db,
      { orderId: checkout.orderId, expectedVersion: await version(), lines: [{ orderItemId: line!.id, quantity: 1, restock: true }], shippingCents: 0, adjustmentCents: 0, actor: { actorUserId: null, actorLabel: "Ada" } },
      { providers },
    );
    expect(first.state).toBe("succeeded");
    const second = await refundOrder(
      t.db,
      { orderId: checkout.orderId, expectedVersion: await version(), lines: [{ orderItemId: line!.id, quantity: 1, restock: true }], shippingCents: 0, adjustmentCents: 0, actor: { actorUserId: null, actorLabel: "Ada" } },
      { providers },
    );
    expect(second.state).toBe("succeeded");
    const pi = stripe.sessions.get(checkout.sessionId)!.payment_intent;
    expect(stripe.refunds.map((r) => ({ payment_intent: r.payment_intent, amount: r.amount, key: r.idempotencyKey }))).toEqual([
      { payment_intent: pi, amount: 2500, key: `refund-${first.movementId}` },
      { payment_intent: pi, amount: 2500, key: `refund-${second.movementId}` },
    ]);
  });
});
