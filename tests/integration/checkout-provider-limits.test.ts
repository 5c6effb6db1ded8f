import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { CheckoutErrorBody } from "~/lib/checkout";
import { action as checkoutAction } from "~/routes/resources/checkout";
import { loader as orderSuccess } from "~/routes/store/order-success";
import { stripeCheckoutParts, stripeTotal } from "~/server/commerce/payments/stripe-lines.server";
import { priceQuote } from "~/server/commerce/pricing/quote.server";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { mailOutbox, orderEvents, orders, paymentTasks, rateLimits } from "~/server/platform/db/schema";
import { useFakeStripe } from "../fakes/stripe";
import { cartLines, checkoutRequest, countOrders, routeArgs, shippingForm, stockOf } from "../factories/orders";
import { makeDiscountCode, resetPricing, setTax } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { makeAdmin } from "../factories/users";
import { useTestDatabase } from "../setup/database";

/**
 * Carts Stripe would refuse never reach it: more lines than a session holds are folded, a total
 * under the minimum charge is refused with what to do, and a $0.00 order needs no payment page.
 */
const t = useTestDatabase();
const stripe = useFakeStripe();

beforeEach(async () => {
  await t.db.delete(rateLimits);
  await resetPricing(t.db);
});

let ip = 0;
async function post(body: unknown) {
  const res = (await checkoutAction(routeArgs(checkoutRequest(body, { ip: `172.18.0.${++ip}` })))) as Response;
  return { status: res.status, body: (await res.json()) as CheckoutErrorBody & { url?: string; orderNumber?: string } };
}

const sessionRequests = () => stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions").length;

describe("a cart of 100 products with tax added", () => {
  it("opens a Stripe session of at most 100 line items for exactly the order's total", async () => {
    await setTax(t.db, { taxName: "Sales tax" }, [{ country: "US", percent: 10 }]);
    const products = await Promise.all(Array.from({ length: 100 }, (_, i) => makeProduct(t.db, { name: `Napkin ${i + 1}`, priceCents: 1000 + i, stockQuantity: 5 })));
    const res = await post({ cartItems: cartLines(...products.map((p): [typeof p, number] => [p, 1])), formData: shippingForm() });
    expect(res.status).toBe(200);
    const sessionId = res.body.url!.split("/").pop()!;
    const session = stripe.sessions.get(sessionId)!;
    expect(session.line_items.length).toBe(100);
    const [order] = await t.db.select().from(orders).where(eq(orders.orderNumber, res.body.orderNumber!));
    expect(session.amount_total).toBe(order!.totalAmountCents);
    expect(order!.taxCents).toBeGreaterThan(0);
  });

  it("folds the last lines into one so every line, the tax and the coupon still add up to the quote", () => {
    const lines = Array.from({ length: 120 }, (_, i) => ({ productId: `p${i}`, name: `Towel ${i}`, imageUrl: "", unitPriceCents: 500 + i, quantity: 1 + (i % 3), category: "", weightGrams: null }));
    const quote = priceQuote(lines, {
      currency: "usd",
      shipping: { name: "Standard", amountCents: 700 },
      tax: { name: "Tax", rateBasisPoints: 825, pricesIncludeTax: false, shippingTaxable: true },
      discount: { code: "TAKE15", kind: "fixed", amountCents: 1500 },
    });
    const parts = stripeCheckoutParts(quote);
    expect(parts.lineItems.length).toBe(100);
    expect(parts.lineItems.at(-1)!.name).toBe("Tax 8.25%");
    expect(parts.lineItems.at(-2)!.name).toMatch(/^22 more items: Towel 98 × 3, Towel 99, /);
    expect(stripeTotal(parts)).toBe(quote.totalCents);
  });
});

describe("a total under Stripe's minimum charge", () => {
  it("is refused with what to do, before any order or Stripe session", async () => {
    const sticker = await makeProduct(t.db, { name: "Sticker", priceCents: 30 });
    const before = await countOrders(t.db);
    const requests = sessionRequests();
    const res = await post({ cartItems: cartLines([sticker, 1]), formData: shippingForm() });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Card payments start at $0.50 and this order comes to $0.30. Add $0.20 or more to your cart and try again.");
    expect(await countOrders(t.db)).toBe(before);
    expect(sessionRequests()).toBe(requests);
  });

  it("takes 50 cents, the minimum itself", async () => {
    const sticker = await makeProduct(t.db, { name: "Big Sticker", priceCents: 50 });
    const res = await post({ cartItems: cartLines([sticker, 1]), formData: shippingForm() });
    expect(res.status).toBe(200);
  });
});

describe("a $0.00 order (a 100 % code)", () => {
  it("is paid at once without a payment page: stock taken, confirmation queued, and the result page says it", async () => {
    const code = await makeDiscountCode(t.db, { percentBasisPoints: 10_000 });
    const pillow = await makeProduct(t.db, { name: "Sample Pillow", priceCents: 2500, stockQuantity: 3 });
    const requests = sessionRequests();
    const form = shippingForm();
    const res = await post({ cartItems: cartLines([pillow, 2]), formData: form, discountCode: code.code });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^http:\/\/localhost:3000\/order-success\?session_id=free_/);
    expect(sessionRequests()).toBe(requests);

    const [order] = await t.db.select().from(orders).where(eq(orders.orderNumber, res.body.orderNumber!));
    expect(order).toMatchObject({ totalAmountCents: 0, paymentStatus: "paid", status: "processing", discountCode: code.code });
    expect(await stockOf(t.db, pillow.id)).toBe(1);
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, form.email));
    expect(mails.map((m) => m.kind)).toEqual(["order-confirmation"]);
    expect(await t.db.select().from(paymentTasks).where(eq(paymentTasks.orderId, order!.id))).toEqual([]);

    const page = (await orderSuccess(routeArgs(new Request(res.body.url!, { headers: { "x-shop-client-ip": "172.18.1.1" } })))) as {
      result: { phase: string; verification?: { payment_successful: boolean; total_amount_cents: number } };
    };
    expect(page.result).toMatchObject({ phase: "verified", verification: { payment_successful: true, total_amount_cents: 0 } });
  });

  it("the same submission again leads to the same order, not a second one", async () => {
    const code = await makeDiscountCode(t.db, { percentBasisPoints: 10_000 });
    const pillow = await makeProduct(t.db, { name: "Sample Sham", priceCents: 2500, stockQuantity: 3 });
    const body = { cartItems: cartLines([pillow, 1]), formData: shippingForm(), discountCode: code.code, idempotencyKey: "free-order-key-1" };
    const first = await post(body);
    const second = await post(body);
    expect(second.status).toBe(200);
    expect(second.body.orderNumber).toBe(first.body.orderNumber);
    expect(await stockOf(t.db, pillow.id)).toBe(2);
  });

  it("cancelled by the shop, gives its stock back and asks Stripe for no refund of a payment that never was", async () => {
    const code = await makeDiscountCode(t.db, { percentBasisPoints: 10_000 });
    const pillow = await makeProduct(t.db, { name: "Sample Bolster", priceCents: 2500, stockQuantity: 3 });
    const res = await post({ cartItems: cartLines([pillow, 1]), formData: shippingForm(), discountCode: code.code });
    const [order] = await t.db.select().from(orders).where(eq(orders.orderNumber, res.body.orderNumber!));
    const admin = await makeAdmin(t.db);
    const refunds = stripe.refunds.length;
    const result = await changeOrderStatus(t.db, {
      orderId: order!.id,
      to: "cancelled",
      expectedVersion: order!.version,
      actor: { id: admin.id, name: admin.name, email: admin.email },
      refund: true,
    });
    expect(result.refund).toBe("none");
    expect(await stockOf(t.db, pillow.id)).toBe(3);
    expect(stripe.refunds.length).toBe(refunds);
    expect(await t.db.select().from(paymentTasks).where(eq(paymentTasks.orderId, order!.id))).toEqual([]);
    const notes = (await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, order!.id))).map((e) => e.note);
    expect(notes).not.toContain("Automatic refund failed: refund this payment by hand.");
  });
});
