import { beforeEach, describe, expect, it } from "vitest";
import type { CartReview } from "~/lib/pricing-view";
import { checkoutAnswer } from "~/routes/_edge/checkout.server";
import { loader as quoteLoader } from "~/routes/resources/cart-quote";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { CODE_GUESS_LIMIT } from "~/server/commerce/pricing/code-guesses.server";
import { clearRateLimits } from "~/server/platform/index.server";
import { cartLines, routeArgs, shippingForm } from "../factories/orders";
import { makeDiscountCode, resetPricing } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/**
 * Discount codes tried as an attacker would (docs/rules/cart-and-checkout.md, "Discount codes
 * cannot be guessed"): one client's guesses are cut off, and no answer tells a code that does
 * not apply to this shopper from a code that does not exist, or tells another address's use.
 */
const t = useTestDatabase();
beforeEach(async () => {
  await resetPricing(t.db);
  await clearRateLimits(t.db, [], ["discount-guess:"]);
});

type Line = { id: string; priceCents: number; name: string };

async function quote(lines: [Line, number][], params: Record<string, string>, ip = "203.0.113.7") {
  const q = new URLSearchParams({ lines: lines.map(([p, n]) => `${p.id}:${n}`).join(","), ...params });
  const request = new Request(`http://localhost:3000/api/cart/quote?${q}`, { headers: { "x-shop-client-ip": ip } });
  const res = (await quoteLoader(routeArgs(request))) as Response;
  return { status: res.status, body: (await res.json()) as CartReview };
}

async function checkout(lines: [Line, number][], code: string, email: string) {
  const result = await createCheckout(
    t.db,
    { lines: cartLines(...lines), form: shippingForm({ email }), idempotencyKey: null, discountCode: code, shippingRateId: null },
    { userId: null, baseUrl: "http://localhost:3000" },
  );
  return checkoutAnswer(result);
}

describe("guessing discount codes", () => {
  it("one client's guesses are cut off before they find a private code; the cart is still priced, and other clients are not held up", async () => {
    await makeDiscountCode(t.db, { code: "STAFF40", percentBasisPoints: 4000 });
    const p = await makeProduct(t.db, { priceCents: 5000, stockQuantity: 50 });
    const answers: string[] = [];
    for (let i = 0; i < 300; i++) {
      const { status, body } = await quote([[p, 1]], { code: `GUESS${i}` });
      expect(status).toBe(200);
      expect(body.quote.subtotalCents).toBe(5000);
      answers.push(body.discount?.applied ? "applied" : body.discount!.message!);
    }
    expect(answers.slice(0, CODE_GUESS_LIMIT.distinctCodes).every((a) => a === "This code is not valid.")).toBe(true);
    expect(answers.slice(CODE_GUESS_LIMIT.distinctCodes).every((a) => /^Too many attempts, try again in \d+ minutes?$/.test(a))).toBe(true);
    // The private code typed now by the same client is not answered either.
    const found = await quote([[p, 1]], { code: "STAFF40" });
    expect(found.body.discount).toMatchObject({ applied: false, message: expect.stringMatching(/^Too many attempts/) });
    expect(found.body.quote.totalCents).toBe(5000);
    // A shopper elsewhere types it and gets it.
    expect((await quote([[p, 1]], { code: "STAFF40" }, "198.51.100.4")).body.discount).toEqual({ code: "STAFF40", applied: true });
  });

  it("a shopper retyping the same wrong code, or applying real codes, is never cut off", async () => {
    await makeDiscountCode(t.db, { code: "WELCOME10" });
    const p = await makeProduct(t.db, { priceCents: 5000, stockQuantity: 50 });
    for (let i = 0; i < CODE_GUESS_LIMIT.distinctCodes + 10; i++) {
      expect((await quote([[p, 1]], { code: "WELCOM10" })).body.discount).toMatchObject({ applied: false, message: "This code is not valid." });
      expect((await quote([[p, 1]], { code: "welcome10" })).body.discount).toEqual({ code: "WELCOME10", applied: true });
    }
  });

  it("a used-up code reads like an unknown one; an expired code and a minimum still say so", async () => {
    const p = await makeProduct(t.db, { priceCents: 2000, stockQuantity: 50 });
    const usedUp = await makeDiscountCode(t.db, { usageLimit: 2, usesCount: 2 });
    expect((await quote([[p, 1]], { code: usedUp.code })).body.discount).toMatchObject({ applied: false, message: "This code is not valid." });
    expect(await checkout([[p, 1]], usedUp.code, "ann@example.test")).toMatchObject({ status: 400, body: { error: "This code is not valid." } });
    const expired = await makeDiscountCode(t.db, { endsAt: new Date(Date.now() - 1000), startsAt: new Date(Date.now() - 7_200_000) });
    expect((await quote([[p, 1]], { code: expired.code })).body.discount).toMatchObject({ message: "This code has expired." });
    const minimum = await makeDiscountCode(t.db, { minSubtotalCents: 5000 });
    expect((await quote([[p, 1]], { code: minimum.code })).body.discount).toMatchObject({ message: "This code needs a subtotal of $50.00 or more." });
  });

  it("the quote does not tell whether an address has used a once-per-email code", async () => {
    await makeDiscountCode(t.db, { code: "ONCE", oncePerEmail: true });
    const p = await makeProduct(t.db, { priceCents: 2000, stockQuantity: 50 });
    expect((await checkout([[p, 1]], "ONCE", "ada@example.test")).status).toBe(200);
    const ada = await quote([[p, 1]], { code: "ONCE", email: "ada@example.test" });
    const bob = await quote([[p, 1]], { code: "ONCE", email: "bob@example.test" });
    expect(ada.body.discount).toEqual(bob.body.discount);
    // The checkout, where the use is taken, refuses Ada's second use in the words of an unknown code.
    expect(await checkout([[p, 1]], "once", "Ada@Example.test")).toMatchObject({ status: 400, body: { error: "This code is not valid." } });
  });
});
