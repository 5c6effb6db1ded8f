import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orders, testPaymentSessions } from "~/server/platform/db/schema";
import { payTestSession } from "~/server/commerce/payments/test-provider.server";
import { settleLostPayments } from "~/server/commerce/settlement/lost-payments.server";
import { payWithTestCard } from "~/server/commerce/settlement/test-payments.server";
import { useFakeStripe } from "../fakes/stripe";
import { openCheckout, orderTimeline, stockOf } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();
const card = { cardNumber: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" };
const orderOf = async (id: string) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;

describe("payments whose confirmation was lost", () => {
  it("the test payment page charges the card and settles the order in one transaction", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 3 });
    const { orderId, sessionId } = await openCheckout(t.db, [[product, 2]]);
    const result = await payWithTestCard(t.db, sessionId, card);
    expect(result).toMatchObject({ kind: "done", outcome: "paid" });
    expect(await orderOf(orderId)).toMatchObject({ paymentStatus: "paid", status: "processing" });
    expect(await stockOf(t.db, product.id)).toBe(1);
    // The settling step fails (the database refuses the order's update): the charge rolls back with it.
    const other = await openCheckout(t.db, [[product, 1]]);
    await t.db.$client.query(`
      create function refuse_paid() returns trigger language plpgsql as $$
      begin if new.payment_status = 'paid' and new.id = '${other.orderId}' then raise exception 'the server died here'; end if; return new; end $$;
      create trigger refuse_paid before update on orders for each row execute function refuse_paid();`);
    try {
      await expect(payWithTestCard(t.db, other.sessionId, card)).rejects.toThrow();
    } finally {
      await t.db.$client.query("drop trigger refuse_paid on orders; drop function refuse_paid();");
    }
    const [session] = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, other.sessionId));
    expect(session?.status).toBe("open");
    expect(await orderOf(other.orderId)).toMatchObject({ paymentStatus: "unpaid" });
    // The shopper presses Pay again: charged and settled.
    expect(await payWithTestCard(t.db, other.sessionId, card)).toMatchObject({ outcome: "paid" });
    expect(await orderOf(other.orderId)).toMatchObject({ paymentStatus: "paid" });
  });

  it("settles a session paid at the test provider whose order never heard of it (a crash between the two)", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 5 });
    const { orderId, sessionId } = await openCheckout(t.db, [[product, 1]]);
    // The provider's side alone, as a process killed right after it would leave it.
    expect(await payTestSession(t.db, sessionId, card)).toMatchObject({ outcome: "paid" });
    expect(await orderOf(orderId)).toMatchObject({ paymentStatus: "unpaid" });

    expect(await settleLostPayments(t.db)).toBe(1);
    expect(await orderOf(orderId)).toMatchObject({ paymentStatus: "paid", status: "processing" });
    expect(await stockOf(t.db, product.id)).toBe(4);
    expect((await orderTimeline(t.db, orderId)).filter((e) => e.kind === "payment")).toHaveLength(1);
    // Nothing left: a second run settles nothing and takes no more stock.
    expect(await settleLostPayments(t.db)).toBe(0);
    expect(await stockOf(t.db, product.id)).toBe(4);
  });

  describe("with Stripe", () => {
    const stripe = useFakeStripe();

    it("settles a Checkout Session Stripe marked paid when its webhook never came, and leaves open ones alone", async () => {
      const product = await makeProduct(t.db, { stockQuantity: 5 });
      const { getPaymentProvider } = await import("~/server/commerce/payments/index.server");
      const paid = await openCheckout(t.db, [[product, 1]], { provider: getPaymentProvider(t.db, "stripe") });
      const open = await openCheckout(t.db, [[product, 1]], { provider: getPaymentProvider(t.db, "stripe") });
      stripe.complete(paid.sessionId);
      expect(await settleLostPayments(t.db)).toBe(1);
      expect(await orderOf(paid.orderId)).toMatchObject({ paymentStatus: "paid", status: "processing" });
      expect(await orderOf(open.orderId)).toMatchObject({ paymentStatus: "unpaid", status: "pending" });
      expect(await stockOf(t.db, product.id)).toBe(4);
    });
  });
});
