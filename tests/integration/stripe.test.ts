import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PaymentVerification } from "~/lib/checkout";
import { action as checkoutAction } from "~/routes/resources/checkout";
import { action as webhookAction } from "~/routes/resources/stripe-webhook";
import { action as verifyAction } from "~/routes/resources/verify-payment";
import { mailOutbox, orders } from "~/server/platform/db/schema";
import { getEnv, resetEnvCache } from "~/server/platform/env.server";
import { StripePaymentProvider } from "~/server/commerce/payments/stripe-provider.server";
import { priceQuote } from "~/server/commerce/pricing/quote.server";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { useFakeStripe } from "../fakes/stripe";
import { useTestDatabase } from "../setup/database";
import { cartLines, checkoutRequest, orderBySession, routeArgs, shippingForm, stockOf, verifyRequest } from "../factories/orders";
import { makeDiscountCode, makeZone, resetPricing, setTax } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { makeAdmin } from "../factories/users";

const t = useTestDatabase();
const stripe = useFakeStripe();

let ip = 0;
async function checkout(lines: ReturnType<typeof cartLines>, email = "shopper@example.test") {
  const res = (await checkoutAction(
    routeArgs(checkoutRequest({ cartItems: lines, formData: shippingForm({ email }) }, { ip: `172.16.0.${++ip}` })),
  )) as Response;
  return { status: res.status, body: (await res.json()) as { url?: string; orderNumber?: string; error?: string } };
}

async function openSession(lines: ReturnType<typeof cartLines>, email?: string) {
  const res = await checkout(lines, email);
  expect(res.status).toBe(200);
  const sessionId = res.body.url!.split("/").pop()!;
  return { sessionId, url: res.body.url!, orderNumber: res.body.orderNumber! };
}

async function deliver(payload: string, signature?: string) {
  const headers = new Headers({ "content-type": "application/json" });
  if (signature) headers.set("stripe-signature", signature);
  const request = new Request("http://localhost:3000/api/webhooks/stripe", { method: "POST", headers, body: payload });
  const res = (await webhookAction(routeArgs(request))) as Response;
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function verify(sessionId: string) {
  const res = (await verifyAction(routeArgs(verifyRequest(sessionId, `172.17.0.${++ip % 250}`)))) as Response;
  return { status: res.status, body: (await res.json()) as PaymentVerification & { error?: string } };
}

describe("Stripe Checkout through the official SDK, against a local fake of Stripe's API", () => {
  it("opens a Checkout Session with line items in cents, the result and cancel URLs and the shopper's email", async () => {
    const sheets = await makeProduct(t.db, { name: "Percale Sheet Set", priceCents: 8900 });
    const pillow = await makeProduct(t.db, { name: "Down Pillow", priceCents: 3999, imageUrl: "https://cdn.example.test/p.jpg" });
    const { sessionId, url } = await openSession(cartLines([sheets, 2], [pillow, 1]), "ada@example.test");

    expect(url).toBe(`https://checkout.stripe.test/c/pay/${sessionId}`);
    const order = await orderBySession(t.db, sessionId);
    expect(order).toMatchObject({ paymentProvider: "stripe", status: "pending", paymentStatus: "unpaid", totalAmountCents: 21799 });

    const create = stripe.requests.find((r) => r.method === "POST" && r.path === "/v1/checkout/sessions" && stripe.sessions.get(sessionId)?.client_reference_id === order.id)!;
    expect(create.idempotencyKey).toBe(`checkout-${order.id}`);
    expect(create.body).toMatchObject({
      mode: "payment",
      success_url: "http://localhost:3000/order-success?session_id={CHECKOUT_SESSION_ID}",
      // Leaving the page closes the checkout, then comes back to the cart (docs/money-path.md, "Discount codes").
      cancel_url: expect.stringMatching(new RegExp(`^http://localhost:3000/api/checkout/leave\\?order=${order.id}&t=[\\w-]{43}$`)),
      customer_email: "ada@example.test",
      client_reference_id: order.id,
      metadata: { order_id: order.id, order_number: order.orderNumber },
    });
    expect(create.body.line_items).toEqual([
      { quantity: "2", price_data: { currency: "usd", unit_amount: "8900", product_data: { name: "Percale Sheet Set" } } },
      {
        quantity: "1",
        price_data: { currency: "usd", unit_amount: "3999", product_data: { name: "Down Pillow", images: ["https://cdn.example.test/p.jpg"] } },
      },
    ]);
  });

  it("confirms on a signed checkout.session.completed, once, however often it is delivered or verified", async () => {
    const duvet = await makeProduct(t.db, { name: "Linen Duvet", priceCents: 12000, stockQuantity: 4 });
    const { sessionId, orderNumber } = await openSession(cartLines([duvet, 3]), "grace@example.test");

    expect((await verify(sessionId)).body).toMatchObject({ status: "pending", payment_successful: false });
    expect(await stockOf(t.db, duvet.id)).toBe(4);

    const paid = stripe.complete(sessionId);
    const delivery = stripe.webhook("checkout.session.completed", paid);
    const first = await deliver(delivery.payload, delivery.signature);
    expect(first).toEqual({ status: 200, body: { received: true, state: "paid" } });

    // Stripe retries deliveries; the result page verifies too, sometimes first.
    await Promise.all([deliver(delivery.payload, delivery.signature), verify(sessionId), verify(sessionId)]);
    const v = await verify(sessionId);
    expect(v.body).toEqual({
      payment_successful: true,
      status: "paid",
      order_number: orderNumber,
      total_amount: 360,
      total_amount_cents: 36000,
      customer_email: "grace@example.test",
    });
    expect(await stockOf(t.db, duvet.id)).toBe(1);
    const order = await orderBySession(t.db, sessionId);
    expect(order).toMatchObject({ paymentStatus: "paid", status: "processing", paymentReference: paid.payment_intent });
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "grace@example.test"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("3 × Linen Duvet ($120.00 each): $360.00");
  });

  it("refuses a webhook with a missing, forged or replayed-onto-other-bytes signature (400), and nothing changes", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 2 });
    const { sessionId } = await openSession(cartLines([product, 1]));
    const paid = stripe.complete(sessionId);
    const genuine = stripe.webhook("checkout.session.completed", paid);

    const missing = await deliver(genuine.payload);
    expect(missing).toEqual({ status: 400, body: { error: "Missing Stripe-Signature header." } });

    const forged = stripe.webhook("checkout.session.completed", paid, "whsec_someone_else");
    expect(await deliver(forged.payload, forged.signature)).toEqual({ status: 400, body: { error: "Invalid Stripe signature." } });

    const tampered = genuine.payload.replace('"livemode":false', '"livemode":true');
    expect((await deliver(tampered, genuine.signature)).status).toBe(400);
    expect((await deliver(genuine.payload, "t=1,v1=deadbeef")).status).toBe(400);

    expect((await orderBySession(t.db, sessionId)).paymentStatus).toBe("unpaid");
    expect(await stockOf(t.db, product.id)).toBe(2);
  });

  it("closes the order on checkout.session.expired; stock was never taken", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 2 });
    const { sessionId } = await openSession(cartLines([product, 2]));
    const expired = stripe.expire(sessionId);
    const delivery = stripe.webhook("checkout.session.expired", expired);
    expect(await deliver(delivery.payload, delivery.signature)).toEqual({ status: 200, body: { received: true, state: "expired" } });
    expect(await orderBySession(t.db, sessionId)).toMatchObject({ paymentStatus: "expired", status: "cancelled" });
    expect(await stockOf(t.db, product.id)).toBe(2);
    expect((await verify(sessionId)).body).toMatchObject({ status: "expired", payment_successful: false });
  });

  it("waits while a delayed payment is in flight, and closes the order when checkout.session.async_payment_failed arrives", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 2 });
    const { sessionId } = await openSession(cartLines([product, 1]));
    const inFlight = stripe.completeAsync(sessionId);
    const completed = stripe.webhook("checkout.session.completed", inFlight);
    expect(await deliver(completed.payload, completed.signature)).toEqual({ status: 200, body: { received: true, state: "pending" } });
    expect(await orderBySession(t.db, sessionId)).toMatchObject({ paymentStatus: "unpaid", status: "pending" });

    const failed = stripe.webhook("checkout.session.async_payment_failed", stripe.failAsync(sessionId));
    expect(await deliver(failed.payload, failed.signature)).toEqual({ status: 200, body: { received: true, state: "failed" } });
    expect(await orderBySession(t.db, sessionId)).toMatchObject({ paymentStatus: "failed", status: "cancelled" });
    expect(await stockOf(t.db, product.id)).toBe(2);
    expect((await verify(sessionId)).body).toMatchObject({ payment_successful: false });
  });

  it("acknowledges events it does not handle and sessions it never opened", async () => {
    const other = stripe.webhook("customer.created", { id: "cus_123" });
    expect(await deliver(other.payload, other.signature)).toEqual({ status: 200, body: { received: true, ignored: "customer.created" } });
    const stranger = stripe.webhook("checkout.session.completed", { id: "cs_test_not_ours", object: "checkout.session" });
    expect(await deliver(stranger.payload, stranger.signature)).toEqual({ status: 200, body: { received: true, state: "not_found" } });
  });

  it("refunds through Stripe when the last units sold while the shopper was paying", async () => {
    const lamp = await makeProduct(t.db, { name: "Brass Lamp", priceCents: 7500, stockQuantity: 1 });
    const a = await openSession(cartLines([lamp, 1]), "first@example.test");
    const b = await openSession(cartLines([lamp, 1]), "second@example.test");
    stripe.complete(a.sessionId);
    const paidB = stripe.complete(b.sessionId);

    expect((await verify(a.sessionId)).body.status).toBe("paid");
    const late = await verify(b.sessionId);
    expect(late.body).toMatchObject({
      status: "sold_out",
      payment_successful: false,
      message: '"Brass Lamp" sold out before your payment went through. Your payment has been refunded.',
    });
    expect(await stockOf(t.db, lamp.id)).toBe(0);
    const orderB = await orderBySession(t.db, b.sessionId);
    expect(orderB).toMatchObject({ status: "cancelled", paymentStatus: "refunded" });
    expect(stripe.refunds.filter((r) => r.payment_intent === paidB.payment_intent)).toHaveLength(1);
    const refundCall = stripe.requests.find((r) => r.path === "/v1/refunds" && r.body.payment_intent === paidB.payment_intent)!;
    expect(refundCall.idempotencyKey).toBe(`refund-${orderB.id}`);
  });

  it("an admin's cancel closes the Stripe session; a payment that beat it is refunded through Stripe, once", async () => {
    const admin = await makeAdmin(t.db);
    const cancel = async (sessionId: string) => {
      const order = await orderBySession(t.db, sessionId);
      return changeOrderStatus(t.db, { orderId: order.id, to: "cancelled", expectedVersion: order.version, actor: admin });
    };
    const product = await makeProduct(t.db, { priceCents: 6400, stockQuantity: 3 });

    const open = await openSession(cartLines([product, 1]));
    expect(await cancel(open.sessionId)).toMatchObject({ refund: "none" });
    expect(stripe.sessions.get(open.sessionId)!.status).toBe("expired");
    expect(stripe.requests.some((r) => r.method === "POST" && r.path === `/v1/checkout/sessions/${open.sessionId}/expire`)).toBe(true);
    expect((await verify(open.sessionId)).body).toMatchObject({ status: "expired", payment_successful: false });

    // The shopper paid on Stripe's page; the admin cancels before the webhook arrives.
    const raced = await openSession(cartLines([product, 2]), "raced@example.test");
    const paid = stripe.complete(raced.sessionId);
    expect(await cancel(raced.sessionId)).toMatchObject({ refund: "refunded" });
    expect(stripe.refunds.filter((r) => r.payment_intent === paid.payment_intent)).toHaveLength(1);
    const delivery = stripe.webhook("checkout.session.completed", paid);
    expect(await deliver(delivery.payload, delivery.signature)).toEqual({ status: 200, body: { received: true, state: "cancelled" } });
    expect((await verify(raced.sessionId)).body).toMatchObject({
      status: "cancelled",
      payment_successful: false,
      message: "This order was cancelled before your payment went through. Your payment has been refunded.",
    });
    expect(stripe.refunds.filter((r) => r.payment_intent === paid.payment_intent)).toHaveLength(1);
    expect(await orderBySession(t.db, raced.sessionId)).toMatchObject({ status: "cancelled", paymentStatus: "refunded" });
    expect(await stockOf(t.db, product.id)).toBe(3);
  });

  it("refuses a session that Stripe says belongs to another order, or whose amount differs", async () => {
    const product = await makeProduct(t.db, { priceCents: 5000, stockQuantity: 5 });
    const mine = await openSession(cartLines([product, 1]));
    const theirs = await openSession(cartLines([product, 2]));
    const theirsOrder = await orderBySession(t.db, theirs.sessionId);
    Object.assign(stripe.complete(mine.sessionId), { client_reference_id: theirsOrder.id });
    const v = await verify(mine.sessionId);
    expect(v).toEqual({ status: 502, body: { error: "Failed to verify payment" } });

    const cheap = await openSession(cartLines([product, 1]));
    Object.assign(stripe.complete(cheap.sessionId), { amount_total: 1 });
    expect((await verify(cheap.sessionId)).status).toBe(502);

    for (const s of [mine, theirs, cheap]) expect((await orderBySession(t.db, s.sessionId)).paymentStatus).toBe("unpaid");
    expect(await stockOf(t.db, product.id)).toBe(5);
  });

  it("answers 'Checkout Failed' when Stripe cannot open a session, leaving no open order behind", async () => {
    const product = await makeProduct(t.db);
    stripe.failNext(10);
    const res = await checkout(cartLines([product, 1]), "unlucky@example.test");
    stripe.failNext(0);
    expect(res).toEqual({ status: 502, body: { title: "Checkout Failed", error: "Failed to create checkout session. Please try again." } });
    const left = await t.db.select().from(orders).where(eq(orders.email, "unlucky@example.test"));
    expect(left.map((o) => [o.status, o.paymentStatus])).toEqual([["cancelled", "failed"]]);
  }, 20_000);

  it("charges exactly the quote when it has shipping, added tax and a discount: shipping as a shipping option, tax as a line, the discount as a coupon", async () => {
    const lines = [
      { productId: "p1", name: "Linen Duvet", imageUrl: "", unitPriceCents: 12_999, quantity: 2 },
      { productId: "p2", name: "Pillow", imageUrl: "", unitPriceCents: 1_505, quantity: 3 },
    ];
    const quote = priceQuote(lines, {
      currency: "usd",
      shipping: { name: "Express", amountCents: 1_250 },
      tax: { name: "Sales tax", rateBasisPoints: 725, pricesIncludeTax: false, shippingTaxable: true },
      discount: { code: "WELCOME10", kind: "percent", basisPoints: 1_000 },
    });
    expect(quote.discount?.amountCents).toBeGreaterThan(0);
    expect(quote.tax.amountCents).toBeGreaterThan(0);
    const session = await new StripePaymentProvider(getEnv()).createSession(
      { id: crypto.randomUUID(), orderNumber: "ORD-TEST-1", email: "quote@example.test", currency: "usd", quote },
      { successUrl: "http://localhost:3000/order-success?session_id={CHECKOUT_SESSION_ID}", cancelUrl: "http://localhost:3000/cart" },
      { idempotencyKey: `checkout-quote-${Date.now()}` },
    );
    const opened = stripe.sessions.get(session.id)!;
    expect(opened.amount_total).toBe(quote.totalCents);
    expect(opened.line_items.map((l) => [l.price_data.product_data.name, l.price_data.unit_amount, l.quantity])).toEqual([
      ["Linen Duvet", 12_999, 2],
      ["Pillow", 1_505, 3],
      ["Sales tax 7.25%", quote.tax.amountCents, 1],
    ]);
    const coupon = stripe.requests.find((r) => r.path === "/v1/coupons")!;
    expect(coupon.body).toMatchObject({ amount_off: String(quote.discount!.amountCents), currency: "usd", name: "WELCOME10" });
  });

  it("for 100 random carts with shipping, added tax and discount codes, Stripe's session total is the order's total to the cent", async () => {
    await makeZone(t.db, { name: "Illinois", countries: ["US"], regions: ["IL"] }, [
      { name: "Standard", kind: "free_over", priceCents: 695, freeOverCents: 15_000 },
      { name: "Heavy", kind: "weight", weightBands: [{ fromGrams: 0, toGrams: 3000, priceCents: 900 }, { fromGrams: 3000, toGrams: null, priceCents: 2100 }] },
    ]);
    await setTax(t.db, { taxName: "Sales tax", shippingTaxable: true }, [{ country: "US", region: "IL", percent: 7.25 }]);
    const codes = [
      (await makeDiscountCode(t.db, { code: "STRIPE-PCT", percentBasisPoints: 1500 })).code,
      (await makeDiscountCode(t.db, { code: "STRIPE-FIX", kind: "fixed", percentBasisPoints: null, amountCents: 1234 })).code,
      (await makeDiscountCode(t.db, { code: "STRIPE-SHIP", kind: "free_shipping", percentBasisPoints: null })).code,
      "",
    ];
    const products = await Promise.all(
      Array.from({ length: 6 }, (_, i) => makeProduct(t.db, { priceCents: 199 + i * 3_737, unlimitedStock: true, weightGrams: 150 * i })),
    );
    try {
      for (let n = 0; n < 100; n++) {
        const lines = products.filter((_, i) => (n >> i) % 2 === 1 || i === n % 6).map((p, i) => [p, 1 + ((n + i) % 4)] as [typeof p, number]);
        const code = codes[n % codes.length]!;
        const res = (await checkoutAction(
          routeArgs(
            checkoutRequest(
              { cartItems: cartLines(...lines), formData: shippingForm({ state: "IL", email: `stripe-${n}@example.test` }), ...(code ? { discountCode: code } : {}) },
              { ip: `172.17.${n % 250}.${1 + (n % 200)}` },
            ),
          ),
        )) as Response;
        expect(res.status, `cart ${n}`).toBe(200);
        const { url } = (await res.json()) as { url: string };
        const session = stripe.sessions.get(url.split("/").pop()!)!;
        const order = await orderBySession(t.db, session.id);
        expect(session.amount_total, `cart ${n}`).toBe(order.totalAmountCents);
        expect(order.totalAmountCents, `cart ${n}`).toBe(order.subtotalCents - order.discountCents + order.shippingCents + order.taxCents);
      }
    } finally {
      await resetPricing(t.db);
    }
  }, 60_000);

  it("refuses webhooks while Stripe is not configured", async () => {
    delete process.env.STRIPE_SECRET_KEY;
    resetEnvCache();
    try {
      const delivery = stripe.webhook("checkout.session.completed", { id: "cs_test_x" });
      expect(await deliver(delivery.payload, delivery.signature)).toEqual({ status: 400, body: { error: "Stripe is not configured." } });
    } finally {
      process.env.STRIPE_SECRET_KEY = stripe.secretKey;
      resetEnvCache();
    }
  });

  it("the Checkout Session lapses within an hour, so an unpaid checkout holds its code's use no longer", async () => {
    const sheets = await makeProduct(t.db, { name: "Percale Sheet Set", priceCents: 8900 });
    const before = Math.floor(Date.now() / 1000);
    const { sessionId } = await openSession(cartLines([sheets, 1]));
    const order = await orderBySession(t.db, sessionId);
    const create = stripe.requests.find((r) => r.method === "POST" && r.path === "/v1/checkout/sessions" && r.body.client_reference_id === order.id)!;
    const expiresAt = Number(create.body.expires_at);
    // Stripe accepts 30 minutes to 24 hours.
    expect(expiresAt - before).toBeGreaterThanOrEqual(30 * 60);
    expect(expiresAt - before).toBeLessThanOrEqual(60 * 60 + 5);
  });
});
