import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { CartReview } from "~/lib/pricing-view";
import { checkoutAnswer } from "~/routes/_edge/checkout.server";
import { loader as quoteLoader } from "~/routes/resources/cart-quote";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { discountCodes, discountUses, orderItems, orders, testPaymentSessions } from "~/server/platform/db/schema";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { closeAbandonedCheckouts } from "~/server/commerce/settlement/sweeper.server";
import { action as checkoutAction } from "~/routes/resources/checkout";
import { cartLines, checkoutRequest, routeArgs, shippingForm } from "../factories/orders";
import { makeDiscountCode, makeZone, resetPricing, setTax, withoutDefaultZone } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { makeAdmin } from "../factories/users";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();
beforeEach(() => resetPricing(t.db));

type Line = { id: string; priceCents: number; name: string };

async function quote(lines: [Line, number][], params: Record<string, string> = {}) {
  const q = new URLSearchParams({ lines: lines.map(([p, n]) => `${p.id}:${n}`).join(","), ...params });
  const res = (await quoteLoader(routeArgs(new Request(`http://localhost:3000/api/cart/quote?${q}`)))) as Response;
  return (await res.json()) as CartReview;
}

async function checkout(lines: [Line, number][], extra: { code?: string; rateId?: string; form?: Parameters<typeof shippingForm>[0] } = {}) {
  const result = await createCheckout(
    t.db,
    { lines: cartLines(...lines), form: shippingForm(extra.form), idempotencyKey: null, discountCode: extra.code ?? null, shippingRateId: extra.rateId ?? null },
    { userId: null, baseUrl: "http://localhost:3000" },
  );
  return { result, answer: checkoutAnswer(result) };
}

async function pay(sessionId: string, outcome: "paid" | "declined" | "expired" = "paid") {
  await t.db
    .update(testPaymentSessions)
    .set(outcome === "expired" ? { expiresAt: new Date(Date.now() - 1000) } : { status: outcome, paymentReference: outcome === "paid" ? `test_pi_${sessionId.slice(-8)}` : null })
    .where(eq(testPaymentSessions.id, sessionId));
  return confirmPayment(t.db, sessionId);
}

const codeRow = async (id: string) => (await t.db.select().from(discountCodes).where(eq(discountCodes.id, id)))[0]!;
const orderCount = async () => (await t.db.select({ id: orders.id }).from(orders)).length;
const orderRow = async (id: string) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;

describe("shipping by address and weight", () => {
  it("a fresh shop ships everywhere for free and charges no tax", async () => {
    const p = await makeProduct(t.db, { priceCents: 2500, stockQuantity: 5 });
    const review = await quote([[p, 2]]);
    expect(review.shipping).toMatchObject({ state: "known", options: [{ name: "Standard", amountCents: 0 }] });
    expect(review.taxPending).toBe(false);
    expect(review.quote).toMatchObject({ subtotalCents: 5000, shipping: { amountCents: 0 }, tax: { amountCents: 0 }, totalCents: 5000 });
  });

  it("offers the most specific zone's rates, cheapest first, priced by weight and subtotal; the order stores the chosen rate", async () => {
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { name: "US", countries: ["US"] }, [
      { name: "Express", priceCents: 2500, estimate: "1–2 business days" },
      { name: "Standard", kind: "free_over", priceCents: 695, freeOverCents: 7500, estimate: "3–5 business days" },
    ]);
    const { rates: caRates } = await makeZone(t.db, { name: "California", countries: ["US"], regions: ["CA"] }, [
      { name: "Ground", kind: "weight", weightBands: [{ fromGrams: 0, toGrams: 2000, priceCents: 800 }, { fromGrams: 2000, toGrams: null, priceCents: 1500 }] },
    ]);
    const duvet = await makeProduct(t.db, { priceCents: 4000, stockQuantity: 9, weightGrams: 1200 });

    const il = await quote([[duvet, 1]], { country: "US", state: "IL", zip: "62701" });
    expect(il.shipping).toMatchObject({ state: "known", options: [{ name: "Standard", amountCents: 695 }, { name: "Express", amountCents: 2500 }] });
    const il2 = await quote([[duvet, 2]], { country: "US", state: "il", zip: "62701" });
    expect(il2.shipping.state === "known" && il2.shipping.options.map((o) => [o.name, o.amountCents])).toEqual([["Standard", 0], ["Express", 2500]]);

    const ca = await quote([[duvet, 2]], { country: "US", state: "CA", zip: "94103" });
    expect(ca.shipping.state === "known" && ca.shipping.options.map((o) => [o.name, o.amountCents])).toEqual([["Ground", 1500]]);
    const caLight = await quote([[duvet, 1]], { country: "US", state: "CA" });
    expect(caLight.quote.shipping).toMatchObject({ name: "Ground", amountCents: 800 });

    // A rate id of another zone is ignored: the address's cheapest rate is charged.
    const { result } = await checkout([[duvet, 2]], { rateId: caRates[0]!.id, form: { state: "IL" } });
    expect(result.ok).toBe(true);
    const order = await orderRow(result.ok ? result.orderId : "");
    expect(order).toMatchObject({ shippingName: "Standard", shippingCents: 0, totalAmountCents: 8000 });
  });

  it("says 'We don't ship to this address yet.' outside every zone, on the quote and at checkout", async () => {
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { name: "US", countries: ["US"] });
    const p = await makeProduct(t.db, { priceCents: 1000, stockQuantity: 5 });
    const review = await quote([[p, 1]], { country: "DE" });
    expect(review.shipping).toEqual({ state: "unavailable", message: "We don't ship to this address yet." });
    const before = await orderCount();
    const { answer } = await checkout([[p, 1]], { form: { country: "DE", state: "BE" } });
    expect(answer).toMatchObject({ status: 400, body: { error: "We don't ship to this address yet." } });
    expect(await orderCount()).toBe(before);
    // Without an address the cart cannot know: 'Calculated at checkout'.
    expect((await quote([[p, 1]])).shipping).toEqual({ state: "needs_address" });
  });

  it("matches postcode prefixes before regions before countries", async () => {
    await makeZone(t.db, { name: "UK", countries: ["GB"] }, [{ name: "UK", priceCents: 400 }]);
    await makeZone(t.db, { name: "Highlands", countries: ["GB"], postcodePrefixes: ["IV", "KW"] }, [{ name: "Highlands", priceCents: 1200 }]);
    const p = await makeProduct(t.db, { priceCents: 1000, stockQuantity: 5 });
    expect((await quote([[p, 1]], { country: "GB", zip: "iv2 3ab" })).quote.shipping.name).toBe("Highlands");
    expect((await quote([[p, 1]], { country: "GB", zip: "SW1A 1AA" })).quote.shipping.name).toBe("UK");
    expect((await quote([[p, 1]], { country: "FR" })).quote.shipping.name).toBe("Standard");
  });
});

describe("a tampered quote from the browser", () => {
  it("figures sent with the order (discount, shipping, tax, total) are ignored: the server prices from ids, the address and the code", async () => {
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { countries: ["US"] }, [{ name: "Standard", priceCents: 900 }]);
    await setTax(t.db, { taxName: "Sales tax" }, [{ country: "US", percent: 10 }]);
    await makeDiscountCode(t.db, { code: "FIVE", kind: "fixed", percentBasisPoints: null, amountCents: 500 });
    const p = await makeProduct(t.db, { priceCents: 2000, stockQuantity: 50 });
    const res = (await checkoutAction(
      routeArgs(
        checkoutRequest({
          cartItems: cartLines([p, 2]),
          formData: shippingForm({ email: "tamper@example.test" }),
          discountCode: "FIVE",
          discountCents: 4000,
          shippingCents: 0,
          taxCents: 0,
          totalAmountCents: 1,
          quote: { totalCents: 1 },
        }),
      ),
    )) as Response;
    expect(res.status).toBe(200);
    const [order] = await t.db.select().from(orders).where(eq(orders.email, "tamper@example.test"));
    // 40.00 − 5.00 + 9.00 shipping + 10% of 35.00 (3.50) = 47.50.
    expect(order).toMatchObject({ subtotalCents: 4000, discountCents: 500, shippingCents: 900, taxCents: 350, totalAmountCents: 4750 });
  });
});

describe("tax", () => {
  it("included (EU style): 'VAT 20% (included)', the total unchanged, tax per line and in total on the order", async () => {
    await setTax(t.db, { taxName: "VAT", pricesIncludeTax: true }, [{ country: "GB", percent: 20 }]);
    const p = await makeProduct(t.db, { priceCents: 1199, stockQuantity: 5 });
    const review = await quote([[p, 3]], { country: "GB" });
    // 3 × £11.99 = 35.97; the VAT inside it: 35.97 × 20/120 = 5.995 → 6.00.
    expect(review.quote).toMatchObject({ subtotalCents: 3597, totalCents: 3597, tax: { name: "VAT", rateBasisPoints: 2000, included: true, amountCents: 600 } });
    const { result } = await checkout([[p, 3]], { form: { country: "GB", state: "Kent" } });
    const order = await orderRow(result.ok ? result.orderId : "");
    expect(order).toMatchObject({ taxCents: 600, taxName: "VAT", taxRateBasisPoints: 2000, pricesIncludeTax: true, totalAmountCents: 3597 });
    const [line] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(line).toMatchObject({ taxCents: 600 });
  });

  it("added (US style) by state, on shipping when the owner says so", async () => {
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { countries: ["US"] }, [{ name: "Standard", priceCents: 1000 }]);
    await setTax(t.db, { taxName: "Sales tax", shippingTaxable: true }, [
      { country: "US", percent: 5 },
      { country: "US", region: "IL", percent: 7.25 },
    ]);
    const p = await makeProduct(t.db, { priceCents: 1999, stockQuantity: 5 });
    const il = await quote([[p, 1]], { country: "US", state: "IL" });
    // 7.25% of 19.99 = 1.449 → 1.45; of 10.00 shipping = 0.725 → 0.73.
    expect(il.quote).toMatchObject({ tax: { amountCents: 218, rateBasisPoints: 725 }, totalCents: 1999 + 1000 + 218 });
    const ny = await quote([[p, 1]], { country: "US", state: "NY" });
    expect(ny.quote.tax).toMatchObject({ amountCents: 150, rateBasisPoints: 500 });
    expect((await quote([[p, 1]])).taxPending).toBe(true);
  });
});

describe("discount codes", () => {
  it("answers each refusal in the shop's words, on the quote and at checkout", async () => {
    const p = await makeProduct(t.db, { priceCents: 2000, stockQuantity: 50 });
    const other = await makeProduct(t.db, { priceCents: 2000, stockQuantity: 50 });
    const cases: [string, string][] = [
      [(await makeDiscountCode(t.db, { active: false })).code, "This code is not valid."],
      [(await makeDiscountCode(t.db, { startsAt: new Date(Date.now() + 3_600_000) })).code, "This code is not valid."],
      [(await makeDiscountCode(t.db, { endsAt: new Date(Date.now() - 1000), startsAt: new Date(Date.now() - 7_200_000) })).code, "This code has expired."],
      // A used-up code reads like an unknown one (docs/rules/cart-and-checkout.md, "Discount codes cannot be guessed").
      [(await makeDiscountCode(t.db, { usageLimit: 2, usesCount: 2 })).code, "This code is not valid."],
      [(await makeDiscountCode(t.db, { minSubtotalCents: 5000 })).code, "This code needs a subtotal of $50.00 or more."],
      [(await makeDiscountCode(t.db, { productIds: [other.id] })).code, "This code is not valid."],
      ["NO-SUCH-CODE", "This code is not valid."],
      ["with spaces", "This code is not valid."],
      ["🎉", "This code is not valid."],
      ["X".repeat(500), "This code is not valid."],
    ];
    const before = await orderCount();
    for (const [code, message] of cases) {
      expect((await quote([[p, 1]], { code })).discount, code).toMatchObject({ applied: false, message });
      expect((await checkout([[p, 1]], { code })).answer, code).toMatchObject({ status: 400, body: { error: message } });
    }
    expect(await orderCount()).toBe(before);
  });

  it("applies a code whatever its case, shows it as its own line, and stores it on the order", async () => {
    const code = await makeDiscountCode(t.db, { code: "WELCOME10", percentBasisPoints: 1000 });
    const p = await makeProduct(t.db, { priceCents: 3333, stockQuantity: 50 });
    const review = await quote([[p, 3]], { code: "welcome10" });
    expect(review.discount).toEqual({ code: "WELCOME10", applied: true });
    expect(review.quote).toMatchObject({ subtotalCents: 9999, discount: { code: "WELCOME10", amountCents: 1000 }, totalCents: 8999 });
    const { result } = await checkout([[p, 3]], { code: " Welcome10 " });
    const order = await orderRow(result.ok ? result.orderId : "");
    expect(order).toMatchObject({ discountCode: "WELCOME10", discountCents: 1000, totalAmountCents: 8999 });
    expect((await codeRow(code.id)).usesCount).toBe(1);
  });

  it("once per email: a second order with the same email is refused, another email is fine", async () => {
    await makeDiscountCode(t.db, { code: "ONCE", oncePerEmail: true });
    const p = await makeProduct(t.db, { priceCents: 2000, stockQuantity: 50 });
    expect((await checkout([[p, 1]], { code: "ONCE", form: { email: "ada@example.test" } })).result.ok).toBe(true);
    // The quote does not tell another address's use; the checkout, which takes the use, refuses it like an unknown code.
    expect((await quote([[p, 1]], { code: "ONCE", email: "ADA@example.test" })).discount).toEqual({ code: "ONCE", applied: true });
    expect((await checkout([[p, 1]], { code: "once", form: { email: "Ada@Example.test" } })).answer).toMatchObject({
      status: 400,
      body: { error: "This code is not valid." },
    });
    expect((await checkout([[p, 1]], { code: "ONCE", form: { email: "bob@example.test" } })).result.ok).toBe(true);
  });

  it("a fixed amount larger than the cart takes the goods to $0.00 and leaves shipping; free shipping zeroes shipping", async () => {
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { countries: ["US"] }, [{ name: "Standard", priceCents: 700 }]);
    await makeDiscountCode(t.db, { code: "BIG", kind: "fixed", percentBasisPoints: null, amountCents: 100_000 });
    await makeDiscountCode(t.db, { code: "SHIPFREE", kind: "free_shipping", percentBasisPoints: null });
    const p = await makeProduct(t.db, { priceCents: 1500, stockQuantity: 50 });
    expect((await quote([[p, 2]], { code: "BIG", country: "US" })).quote).toMatchObject({ discount: { amountCents: 3000 }, totalCents: 700 });
    expect((await quote([[p, 2]], { code: "SHIPFREE", country: "US" })).quote).toMatchObject({
      discount: { code: "SHIPFREE", freeShipping: true, amountCents: 0 },
      shipping: { amountCents: 0 },
      totalCents: 3000,
    });
  });

  it("a code deactivated after it was applied refuses the checkout with 'This code is not valid.'", async () => {
    const code = await makeDiscountCode(t.db, { code: "SPRING" });
    const p = await makeProduct(t.db, { priceCents: 2000, stockQuantity: 50 });
    expect((await quote([[p, 1]], { code: "SPRING" })).discount).toMatchObject({ applied: true });
    await t.db.update(discountCodes).set({ active: false }).where(eq(discountCodes.id, code.id));
    expect((await checkout([[p, 1]], { code: "SPRING" })).answer).toMatchObject({ status: 400, body: { error: "This code is not valid." } });
  });

  it("holds a use with the unpaid order: declined, lapsed and cancelled-before-payment give it back; paid keeps it, a refund does not give it back", async () => {
    const code = await makeDiscountCode(t.db, { code: "LIMITED", usageLimit: 10 });
    const p = await makeProduct(t.db, { priceCents: 2000, stockQuantity: 50 });
    const open = async () => {
      const { result } = await checkout([[p, 1]], { code: "LIMITED" });
      if (!result.ok) throw new Error("refused");
      return result;
    };
    const uses = async () => (await codeRow(code.id)).usesCount;

    const declined = await open();
    expect(await uses()).toBe(1);
    await pay(declined.sessionId, "declined");
    expect(await uses()).toBe(0);

    const lapsed = await open();
    await t.db.update(orders).set({ createdAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(orders.id, lapsed.orderId));
    await pay(lapsed.sessionId, "expired");
    expect(await uses()).toBe(0);

    const abandoned = await open();
    await t.db.update(orders).set({ createdAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(orders.id, abandoned.orderId));
    await t.db.update(testPaymentSessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(testPaymentSessions.id, abandoned.sessionId));
    await closeAbandonedCheckouts(t.db);
    expect(await uses()).toBe(0);

    const admin = await makeAdmin(t.db);
    const cancelled = await open();
    await changeOrderStatus(t.db, { orderId: cancelled.orderId, to: "cancelled", expectedVersion: (await orderRow(cancelled.orderId)).version, actor: { id: admin.id, name: "Ada", email: admin.email } });
    expect(await uses()).toBe(0);

    const paid = await open();
    expect((await pay(paid.sessionId)).state).toBe("paid");
    expect(await uses()).toBe(1);
    await changeOrderStatus(t.db, { orderId: paid.orderId, to: "cancelled", expectedVersion: (await orderRow(paid.orderId)).version, actor: { id: admin.id, name: "Ada", email: admin.email }, refund: true });
    expect(await orderRow(paid.orderId)).toMatchObject({ paymentStatus: "refunded" });
    expect(await uses()).toBe(1);
    const states = await t.db.select({ order: discountUses.orderId, state: discountUses.state }).from(discountUses);
    expect(states.filter((s) => s.state === "kept").map((s) => s.order)).toEqual([paid.orderId]);
    expect(states.filter((s) => s.state === "released")).toHaveLength(4);
  });
});
