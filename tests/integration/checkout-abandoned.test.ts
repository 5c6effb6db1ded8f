import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action as checkoutAction } from "~/routes/resources/checkout";
import { checkoutAnswer } from "~/routes/_edge/checkout.server";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { getPaymentProvider, type PaymentProvider } from "~/server/commerce/payments/index.server";
import { closeInterruptedCheckout } from "~/server/commerce/settlement/close.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { closeAbandonedCheckouts } from "~/server/commerce/settlement/sweeper.server";
import { orders, testPaymentSessions } from "~/server/platform/db/schema";
import { useTestDatabase } from "../setup/database";
import { cartLines, checkoutRequest, openCheckout, orderTimeline, routeArgs, shippingForm } from "../factories/orders";
import { makeProduct } from "../factories/products";

const t = useTestDatabase();

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

/** What a server killed between saving the order and opening its payment page leaves behind. */
async function interruptedCheckout(key: string | undefined, createdAt: Date) {
  const product = await makeProduct(t.db, { stockQuantity: 5 });
  const checkout = await openCheckout(t.db, [[product, 1]], { key });
  await t.db.update(orders).set({ paymentSessionId: null, createdAt }).where(eq(orders.id, checkout.orderId));
  return { product, orderId: checkout.orderId };
}

async function orderRow(id: string) {
  const [row] = await t.db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

describe("checkouts nobody will finish", () => {
  it("lets the shopper try again with the same submission once a checkout was interrupted before its payment page opened", async () => {
    const key = "page-abandon.0000aaaa";
    const { product, orderId } = await interruptedCheckout(key, minutesAgo(3));
    const res = (await checkoutAction(
      routeArgs(checkoutRequest({ cartItems: cartLines([product, 1]), formData: shippingForm(), idempotencyKey: key })),
    )) as Response;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string; orderNumber: string };
    expect(body.url).toMatch(/\/pay\/test\//);
    const old = await orderRow(orderId);
    expect(old).toMatchObject({ status: "cancelled", paymentStatus: "failed", checkoutKey: null });
    expect(body.orderNumber).not.toBe(old.orderNumber);
    expect((await orderTimeline(t.db, orderId)).at(-1)?.note).toBe("The checkout was interrupted before its payment page opened");
  });

  it("still answers 'already being processed' while the first submission may be opening its payment page", async () => {
    const key = "page-abandon.1111bbbb";
    const { product, orderId } = await interruptedCheckout(key, new Date());
    const res = (await checkoutAction(
      routeArgs(checkoutRequest({ cartItems: cartLines([product, 1]), formData: shippingForm(), idempotencyKey: key })),
    )) as Response;
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toBe("This checkout is already being processed.");
    expect(await orderRow(orderId)).toMatchObject({ status: "pending", paymentStatus: "unpaid" });
  }, 15_000);

  it("closes interrupted checkouts and lapsed payment pages in the background, and leaves live ones alone", async () => {
    const interrupted = await interruptedCheckout(undefined, minutesAgo(3));
    const product = await makeProduct(t.db, { stockQuantity: 5 });
    const lapsed = await openCheckout(t.db, [[product, 1]]);
    await t.db.update(orders).set({ createdAt: minutesAgo(25 * 60) }).where(eq(orders.id, lapsed.orderId));
    await t.db.update(testPaymentSessions).set({ expiresAt: minutesAgo(60) }).where(eq(testPaymentSessions.id, lapsed.sessionId));
    const live = await openCheckout(t.db, [[product, 1]]);
    const justStarted = await interruptedCheckout(undefined, new Date());

    expect(await closeAbandonedCheckouts(t.db)).toBe(2);
    expect(await orderRow(interrupted.orderId)).toMatchObject({ status: "cancelled", paymentStatus: "failed" });
    expect(await orderRow(lapsed.orderId)).toMatchObject({ status: "cancelled", paymentStatus: "expired" });
    expect(await orderRow(live.orderId)).toMatchObject({ status: "pending", paymentStatus: "unpaid" });
    expect(await orderRow(justStarted.orderId)).toMatchObject({ status: "pending", paymentStatus: "unpaid" });
    // A second sweep finds nothing more to do.
    expect(await closeAbandonedCheckouts(t.db)).toBe(0);
  });

  it("works through lapsed checkouts its provider cannot settle, sweep after sweep, instead of asking about the same ones forever", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 50 });
    const lapse = async (providerKnowsIt: boolean) => {
      const checkout = await openCheckout(t.db, [[product, 1]]);
      await t.db.update(orders).set({ createdAt: minutesAgo(25 * 60) }).where(eq(orders.id, checkout.orderId));
      if (providerKnowsIt) {
        await t.db.update(testPaymentSessions).set({ expiresAt: minutesAgo(60) }).where(eq(testPaymentSessions.id, checkout.sessionId));
      } else {
        await t.db.delete(testPaymentSessions).where(eq(testPaymentSessions.id, checkout.sessionId));
      }
      return checkout.orderId;
    };
    const stuck = [];
    for (let i = 0; i < 5; i++) stuck.push(await lapse(false));
    const closable = await lapse(true);

    // Two at a time, three look-ups a sweep: wherever the closable one sorts, two sweeps reach it.
    const sweeper = { cursor: null };
    const limits = { batch: 2, maxLookups: 3 };
    let closed = 0;
    for (let sweep = 0; sweep < 2; sweep++) closed += await closeAbandonedCheckouts(t.db, new Date(), sweeper, limits);
    expect(closed).toBe(1);
    expect(await orderRow(closable)).toMatchObject({ status: "cancelled", paymentStatus: "expired" });
    for (const id of stuck) expect(await orderRow(id)).toMatchObject({ status: "pending", paymentStatus: "unpaid" });
  });

  it("leaves a checkout opening its payment page alone when this server's clock runs minutes ahead", async () => {
    const { orderId } = await interruptedCheckout(undefined, new Date());
    const aheadBy3Minutes = Date.now() + 3 * 60_000;
    expect(await closeInterruptedCheckout(t.db, await orderRow(orderId), aheadBy3Minutes)).toBe(false);
    expect(await closeAbandonedCheckouts(t.db, new Date(aheadBy3Minutes))).toBe(0);
    expect(await orderRow(orderId)).toMatchObject({ status: "pending", paymentStatus: "unpaid" });
  });

  it("closes the payment page again when the order was cancelled while it opened, and tells the shopper", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 5 });
    const test = getPaymentProvider(t.db, "test");
    let sessionId = "";
    // An admin cancels the order in the moment between saving it and its payment page opening.
    const provider: PaymentProvider = Object.assign(Object.create(test) as PaymentProvider, {
      async createSession(...args: Parameters<PaymentProvider["createSession"]>) {
        await t.db.update(orders).set({ status: "cancelled" }).where(eq(orders.id, args[0].id));
        const session = await test.createSession(...args);
        sessionId = session.id;
        return session;
      },
    });
    const result = await createCheckout(
      t.db,
      { lines: cartLines([product, 1]), form: shippingForm(), idempotencyKey: null },
      { userId: null, providers: onlyProvider(provider), baseUrl: "http://localhost:3000" },
    );
    expect(checkoutAnswer(result)).toMatchObject({ status: 409, body: { error: "Failed to create checkout session. Please try again." } });
    const [session] = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, sessionId));
    expect(session?.status).toBe("expired");
    expect((await test.retrieveSession(sessionId))?.state).toBe("expired");
  });

  describe("a resubmitted checkout (second tab, retry) whose first order already has a payment page", () => {
    const resubmit = (product: { id: string; priceCents: number; name: string }, email: string, key: string, provider?: PaymentProvider) =>
      createCheckout(
        t.db,
        { lines: cartLines([product, 1]), form: shippingForm({ email }), idempotencyKey: key },
        { userId: null, providers: onlyProvider(provider ?? getPaymentProvider(t.db, "test")), baseUrl: "http://localhost:3000" },
      );
    const ordersWithKey = async (orderId: string) => {
      const first = await orderRow(orderId);
      return t.db.select().from(orders).where(eq(orders.email, first.email));
    };

    it("answers 502 and makes no second order when that page cannot be read (it may still be paid)", async () => {
      const product = await makeProduct(t.db, { stockQuantity: 5 });
      const first = await openCheckout(t.db, [[product, 1]], { key: "resubmit.unreadable", form: { email: "unreadable@example.test" } });
      const test = getPaymentProvider(t.db, "test");
      const down: PaymentProvider = Object.assign(Object.create(test) as PaymentProvider, {
        retrieveSession: async () => {
          throw new Error("provider timed out");
        },
      });
      const again = await resubmit(product, "unreadable@example.test", "resubmit.unreadable", down);
      expect(checkoutAnswer(again)).toMatchObject({ status: 502 });
      expect(await ordersWithKey(first.orderId)).toHaveLength(1);
      expect(await orderRow(first.orderId)).toMatchObject({ status: "pending", checkoutKey: "resubmit.unreadable" });
    });

    it("settles a payment whose confirmation has not arrived yet, and makes no second order", async () => {
      const product = await makeProduct(t.db, { stockQuantity: 5 });
      const first = await openCheckout(t.db, [[product, 1]], { key: "resubmit.paid", form: { email: "paidmeanwhile@example.test" } });
      await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_meanwhile" }).where(eq(testPaymentSessions.id, first.sessionId));
      const again = await resubmit(product, "paidmeanwhile@example.test", "resubmit.paid");
      expect(checkoutAnswer(again)).toMatchObject({ status: 409, body: { error: "This order has already been paid." } });
      expect(await ordersWithKey(first.orderId)).toHaveLength(1);
      expect(await orderRow(first.orderId)).toMatchObject({ status: "processing", paymentStatus: "paid" });
    });

    it("closes a declined first order and makes a new one", async () => {
      const product = await makeProduct(t.db, { stockQuantity: 5 });
      const first = await openCheckout(t.db, [[product, 1]], { key: "resubmit.declined", form: { email: "declined@example.test" } });
      await t.db.update(testPaymentSessions).set({ status: "declined" }).where(eq(testPaymentSessions.id, first.sessionId));
      const again = await resubmit(product, "declined@example.test", "resubmit.declined");
      expect(again).toMatchObject({ ok: true });
      expect(await orderRow(first.orderId)).toMatchObject({ status: "cancelled", paymentStatus: "failed", checkoutKey: null });
      expect(await ordersWithKey(first.orderId)).toHaveLength(2);
    });
  });
});
