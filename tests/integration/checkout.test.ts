import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { action as checkoutAction } from "~/routes/resources/checkout";
import { orders, rateLimits, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { ORDER_NUMBER_PATTERN } from "~/server/commerce/orders/order-number.server";
import { payTestSession } from "~/server/commerce/payments/test-provider.server";
import { useTestDatabase } from "../setup/database";
import { cartLines, checkoutRequest, countOrders, orderLines, orderTimeline, routeArgs, shippingForm } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { makeCustomer, sessionCookie } from "../factories/users";

const t = useTestDatabase();

type Body = {
  url?: string;
  orderNumber?: string;
  error?: string;
  title?: string;
  fieldErrors?: Record<string, string>;
  problems?: { id: string; message: string }[];
};

async function post(body: unknown, opts: Parameters<typeof checkoutRequest>[1] = {}) {
  const res = (await checkoutAction(routeArgs(checkoutRequest(body, opts)))) as Response;
  return { status: res.status, body: (await res.json()) as Body };
}

/** A refusal: the status, the message, and no order (nor payment session) left behind. */
async function expectRefused(body: unknown, status: number, message: RegExp | string, opts = {}) {
  const before = await countOrders(t.db);
  const res = await post(body, opts);
  expect(res.status).toBe(status);
  expect(res.body.error).toMatch(message);
  expect(await countOrders(t.db)).toBe(before);
  return res.body;
}

describe("POST /api/checkout", () => {
  beforeEach(async () => {
    await t.db.delete(rateLimits);
  });

  it("creates a pending, unpaid order priced by the server, and answers with the hosted payment page", async () => {
    const sheets = await makeProduct(t.db, { name: "Percale Sheet Set", priceCents: 8900, stockQuantity: 5 });
    const throw_ = await makeProduct(t.db, { name: "Waffle Throw", priceCents: 4550, unlimitedStock: true, stockQuantity: 0 });
    const form = shippingForm({ firstName: "Ada", lastName: "Lovelace", phone: "555-0100" });
    const res = await post({ cartItems: cartLines([sheets, 2], [throw_, 1]), formData: form });

    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^http:\/\/localhost:3000\/pay\/test\/test_cs_[\w-]{20,}$/);
    expect(res.body.orderNumber).toMatch(ORDER_NUMBER_PATTERN);
    expect(res.body.orderNumber!.slice(4, 12)).toBe(new Date().toISOString().slice(0, 10).replaceAll("-", ""));

    const [order] = await t.db.select().from(orders).where(eq(orders.orderNumber, res.body.orderNumber!));
    expect(order).toMatchObject({
      status: "pending",
      paymentStatus: "unpaid",
      subtotalCents: 2 * 8900 + 4550,
      shippingCents: 0,
      taxCents: 0,
      totalAmountCents: 2 * 8900 + 4550,
      email: form.email,
      firstName: "Ada",
      lastName: "Lovelace",
      phone: "555-0100",
      address: "1 Linen Lane",
      zipCode: "62701",
      country: "US",
      userId: null,
      paymentProvider: "test",
    });
    const sessionId = res.body.url!.split("/").pop()!;
    expect(order!.paymentSessionId).toBe(sessionId);
    const [session] = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, sessionId));
    expect(session).toMatchObject({ status: "open", amountCents: 2 * 8900 + 4550, customerEmail: form.email });

    const lines = await orderLines(t.db, order!.id);
    expect(lines.map((l) => [l.name, l.unitPriceCents, l.quantity, l.lineTotalCents, l.stockTracked]).sort()).toEqual(
      [
        ["Percale Sheet Set", 8900, 2, 17800, true],
        ["Waffle Throw", 4550, 1, 4550, false],
      ].sort(),
    );
    const timeline = await orderTimeline(t.db, order!.id);
    expect(timeline.map((e) => e.toStatus)).toEqual(["pending"]);
  });

  it("records the signed-in shopper on the order", async () => {
    const customer = await makeCustomer(t.db);
    const product = await makeProduct(t.db);
    const res = await post(
      { cartItems: cartLines([product, 1]), formData: shippingForm() },
      { cookie: await sessionCookie(t.db, customer.id) },
    );
    expect(res.status).toBe(200);
    const [order] = await t.db.select().from(orders).where(eq(orders.orderNumber, res.body.orderNumber!));
    expect(order!.userId).toBe(customer.id);
  });

  it("refuses a tampered price, naming the product and the real price", async () => {
    const product = await makeProduct(t.db, { name: "Linen Duvet", priceCents: 12000 });
    const body = await expectRefused(
      { cartItems: [{ id: product.id, quantity: 1, priceCents: 1 }], formData: shippingForm() },
      400,
      'The price of "Linen Duvet" is $120.00, not $0.01.',
    );
    expect(body.problems).toEqual([{ id: product.id, message: expect.stringContaining("Linen Duvet") }]);
  });

  it.each([
    ["negative", -1],
    ["zero", 0],
    ["fractional", 1.5],
    ["huge", 1_000_000],
    ["a string", "2"],
    ["missing", undefined],
  ])("refuses a %s quantity", async (_label, quantity) => {
    const product = await makeProduct(t.db, { name: "Oatmeal Blanket" });
    await expectRefused(
      { cartItems: [{ id: product.id, quantity, name: "Oatmeal Blanket" }], formData: shippingForm() },
      400,
      /quantity of "Oatmeal Blanket" is not valid/,
    );
  });

  it("refuses unknown product ids, whatever their shape", async () => {
    await expectRefused(
      { cartItems: [{ id: "00000000-0000-4000-8000-000000000000", quantity: 1, name: "Ghost Pillow" }], formData: shippingForm() },
      400,
      '"Ghost Pillow" is no longer available.',
    );
    await expectRefused(
      { cartItems: [{ id: "'; drop table orders; --", quantity: 1 }], formData: shippingForm() },
      400,
      "A product in your cart is no longer available.",
    );
  });

  it("refuses an inactive product and out-of-stock lines, naming each product", async () => {
    const hidden = await makeProduct(t.db, { name: "Retired Quilt", active: false });
    const empty = await makeProduct(t.db, { name: "Sold Out Sham", stockQuantity: 0 });
    const low = await makeProduct(t.db, { name: "Last Few Towels", stockQuantity: 2 });
    const body = await expectRefused(
      { cartItems: cartLines([hidden, 1], [empty, 1], [low, 3]), formData: shippingForm() },
      400,
      '"Retired Quilt" is no longer available. "Sold Out Sham" is out of stock. Only 2 of "Last Few Towels" left in stock.',
    );
    expect(body.problems!.map((p) => p.id)).toEqual([hidden.id, empty.id, low.id]);
  });

  it("judges duplicate lines for the same product as one line of their sum", async () => {
    const product = await makeProduct(t.db, { name: "Twin Pillowcase", stockQuantity: 2 });
    await expectRefused(
      { cartItems: cartLines([product, 1], [product, 2]), formData: shippingForm() },
      400,
      'Only 2 of "Twin Pillowcase" left in stock.',
    );
  });

  it("refuses 10,000 lines before loading a single product", async () => {
    const cartItems = Array.from({ length: 10_000 }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      quantity: 1,
      priceCents: 2500,
    }));
    await expectRefused({ cartItems, formData: shippingForm() }, 400, "A cart can hold at most 100 different products; this one has 10000.");
  });

  it("refuses a body that is not JSON, not an object, or too large", async () => {
    await expectRefused("cartItems=1&formData=2", 400, "The request body must be JSON.", { contentType: "application/x-www-form-urlencoded" });
    await expectRefused("{ not json", 400, "The request body must be JSON.");
    await expectRefused("[1,2,3]", 400, "The request must be a JSON object.");
    await expectRefused({ cartItems: "everything", formData: shippingForm() }, 400, "cartItems must be a list of cart lines.");
    await expectRefused("x".repeat(1024 * 1024 + 1), 413, "The request is too large.");
  });

  it("answers an empty cart with 'Empty Cart'", async () => {
    const body = await expectRefused({ cartItems: [], formData: shippingForm() }, 400, "Your cart is empty. Add some items before checking out.");
    expect(body.title).toBe("Empty Cart");
  });

  it("answers missing required fields with 'Missing Information' and a message per field", async () => {
    const product = await makeProduct(t.db);
    const body = await expectRefused(
      { cartItems: cartLines([product, 1]), formData: shippingForm({ firstName: "  ", city: "", zipCode: undefined as never }) },
      400,
      "Please fill in all required fields.",
    );
    expect(body.title).toBe("Missing Information");
    expect(body.fieldErrors).toEqual({ firstName: "Required", city: "Required", zipCode: "Required" });
  });

  it("refuses a malformed email or an unknown country beside the field", async () => {
    const product = await makeProduct(t.db);
    const body = await expectRefused(
      { cartItems: cartLines([product, 1]), formData: shippingForm({ email: "not-an-email", country: "ZZ" }) },
      400,
      "Please correct the highlighted fields.",
    );
    expect(body.fieldErrors).toEqual({ email: "Enter a valid email address", country: "Choose a country" });
  });

  it("makes one order per submission: a repeated idempotency key returns the same payment page", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 5 });
    const body = { cartItems: cartLines([product, 1]), formData: shippingForm(), idempotencyKey: "page-1234.abcd1234" };
    const before = await countOrders(t.db);
    // A double click, two tabs, a retry: all at once, all sent to the one payment page.
    const results = await Promise.all([post(body), post(body), post(body)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.body.url)).size).toBe(1);
    const again = await post(body);
    expect(again.body.url).toBe(results[0]!.body.url);
    expect(await countOrders(t.db)).toBe(before + 1);
  });

  it("once the key's order is paid or declined, the same key makes a new order (a new purchase)", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 5 });
    const body = { cartItems: cartLines([product, 1]), formData: shippingForm(), idempotencyKey: "cart-5678.ef01ef01" };
    const first = await post(body);
    const firstSession = first.body.url!.split("/").pop()!;
    await payTestSession(t.db, firstSession, { cardNumber: "4000000000000002", expiry: "12/34", cvc: "123" });
    await confirmPayment(t.db, firstSession);

    const second = await post(body);
    expect(second.status).toBe(200);
    expect(second.body.orderNumber).not.toBe(first.body.orderNumber);
    const secondSession = second.body.url!.split("/").pop()!;
    await payTestSession(t.db, secondSession, { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" });
    await confirmPayment(t.db, secondSession);

    const third = await post(body);
    expect(third.status).toBe(200);
    expect(new Set([first.body.orderNumber, second.body.orderNumber, third.body.orderNumber]).size).toBe(3);
    const [keyed] = await t.db.select().from(orders).where(eq(orders.checkoutKey, body.idempotencyKey));
    expect(keyed!.orderNumber).toBe(third.body.orderNumber);
  });

  it("refuses a malformed idempotency key", async () => {
    const product = await makeProduct(t.db);
    await expectRefused(
      { cartItems: cartLines([product, 1]), formData: shippingForm(), idempotencyKey: "<script>" },
      400,
      "The checkout key is not valid.",
    );
  });

  it("limits checkouts per client address (429 with a wait)", async () => {
    const ip = "192.0.2.77";
    for (let i = 0; i < 20; i++) {
      const res = await post({ cartItems: [], formData: shippingForm() }, { ip });
      expect(res.status).toBe(400);
    }
    const limited = (await checkoutAction(routeArgs(checkoutRequest({ cartItems: [] }, { ip })))) as Response;
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await limited.json()) as Body).error).toMatch(/^Too many attempts, try again in \d+ minutes?$/);
    // Another address is not affected.
    expect((await post({ cartItems: [], formData: shippingForm() }, { ip: "192.0.2.78" })).status).toBe(400);
  });
});
