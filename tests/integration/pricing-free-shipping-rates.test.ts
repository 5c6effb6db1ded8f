import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { CartReview } from "~/lib/pricing-view";
import { loader as quoteLoader } from "~/routes/resources/cart-quote";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { createRate } from "~/server/commerce/pricing/settings-admin.server";
import { orders } from "~/server/platform/db/schema";
import { cartLines, routeArgs, shippingForm } from "../factories/orders";
import { makeDiscountCode, makeZone, resetPricing, withoutDefaultZone } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/** docs/money-path.md, Discount codes: a free-shipping code makes the zone's cheapest rate free, not Overnight. */

const t = useTestDatabase();
beforeEach(() => resetPricing(t.db));

async function setup(code: string) {
  await withoutDefaultZone(t.db);
  const { rates } = await makeZone(t.db, { name: "US", countries: ["US"] }, [
    { name: "Standard", priceCents: 500 },
    { name: "Overnight", priceCents: 2500 },
  ]);
  await makeDiscountCode(t.db, { code, kind: "free_shipping", percentBasisPoints: null });
  const p = await makeProduct(t.db, { priceCents: 4000, stockQuantity: 5 });
  return { p, standard: rates[0]!, overnight: rates[1]! };
}

async function quote(productId: string, params: Record<string, string>) {
  const q = new URLSearchParams({ lines: `${productId}:1`, country: "US", state: "IL", zip: "62701", ...params });
  const res = (await quoteLoader(routeArgs(new Request(`http://localhost:3000/api/cart/quote?${q}`)))) as Response;
  return (await res.json()) as CartReview;
}

describe("a free-shipping code covers the zone's cheapest rate", () => {
  it("with SHIPFREE, Overnight still costs $25.00 and the options show Standard free", async () => {
    const { p, overnight } = await setup("SHIPFREE");
    const review = await quote(p.id, { code: "SHIPFREE", rate: overnight.id });
    expect(review.shipping.state === "known" && review.shipping.options.map((o) => [o.name, o.amountCents])).toEqual([["Standard", 0], ["Overnight", 2500]]);
    expect(review.quote.shipping).toMatchObject({ name: "Overnight", amountCents: 2500 });
    expect(review.quote.totalCents).toBe(4000 + 2500);

    const result = await createCheckout(
      t.db,
      { lines: cartLines([p, 1]), form: shippingForm(), idempotencyKey: null, discountCode: "SHIPFREE", shippingRateId: overnight.id },
      { userId: null, baseUrl: "http://localhost:3000" },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [order] = await t.db.select().from(orders).where(eq(orders.id, result.orderId));
    expect(order).toMatchObject({ shippingName: "Overnight", shippingCents: 2500, totalAmountCents: 6500 });
  });

  it("with SHIPFREE and Standard picked, shipping is free", async () => {
    const { p, standard } = await setup("SHIPFREE2");
    const review = await quote(p.id, { code: "SHIPFREE2", rate: standard.id });
    expect(review.quote.shipping).toMatchObject({ name: "Standard", amountCents: 0 });
    expect(review.quote.totalCents).toBe(4000);
  });
});

describe("the owner chooses which rates a free-shipping code covers", () => {
  it("a code covers the rates marked 'free with a code' (Overnight here), and the options show it free", async () => {
    await withoutDefaultZone(t.db);
    const { zone } = await makeZone(t.db, { name: "US", countries: ["US"] }, []);
    await createRate(t.db, zone.id, { name: "Standard", kind: "flat", price: "5", estimate: "" });
    await createRate(t.db, zone.id, { name: "Overnight", kind: "flat", price: "25", estimate: "", freeWithCode: "on" });
    await makeDiscountCode(t.db, { code: "OVERNIGHTFREE", kind: "free_shipping", percentBasisPoints: null });
    const p = await makeProduct(t.db, { priceCents: 4000, stockQuantity: 5 });
    const review = await quote(p.id, { code: "OVERNIGHTFREE" });
    expect(review.shipping.state === "known" && review.shipping.options.map((o) => [o.name, o.amountCents])).toEqual([["Overnight", 0], ["Standard", 500]]);
    expect(review.quote.shipping).toMatchObject({ name: "Overnight", amountCents: 0 });
    expect(review.quote.totalCents).toBe(4000);
  });
});
