import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { CartReview } from "~/lib/pricing-view";
import { checkoutAnswer } from "~/routes/_edge/checkout.server";
import { action as checkoutAction } from "~/routes/resources/checkout";
import { loader as quoteLoader } from "~/routes/resources/cart-quote";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { createTaxRate, createZone, loadShippingSettings } from "~/server/commerce/pricing/settings-admin.server";
import { orders, shippingZones, taxRates } from "~/server/platform/db/schema";
import { cartLines, checkoutRequest, routeArgs, shippingForm } from "../factories/orders";
import { makeZone, resetPricing, setTax, withoutDefaultZone } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/** A shopper's region is one of the country's ISO 3166-2 regions, whatever way it was typed (docs/rules/addresses.md). */

const t = useTestDatabase();
beforeEach(() => resetPricing(t.db));

const CHOOSE = "Choose a state or region from the list.";
type Line = { id: string; priceCents: number; name: string };

async function quote(lines: [Line, number][], params: Record<string, string>) {
  const q = new URLSearchParams({ lines: lines.map(([p, n]) => `${p.id}:${n}`).join(","), ...params });
  const res = (await quoteLoader(routeArgs(new Request(`http://localhost:3000/api/cart/quote?${q}`)))) as Response;
  return (await res.json()) as CartReview;
}

async function checkout(lines: [Line, number][], form: Parameters<typeof shippingForm>[0]) {
  const result = await createCheckout(
    t.db,
    { lines: cartLines(...lines), form: shippingForm(form), idempotencyKey: null, discountCode: null, shippingRateId: null },
    { userId: null, baseUrl: "http://localhost:3000" },
  );
  return { result, answer: checkoutAnswer(result) };
}

async function californiaShop() {
  await withoutDefaultZone(t.db);
  await makeZone(t.db, { name: "US", countries: ["US"] }, [{ name: "Standard", priceCents: 500 }]);
  await makeZone(t.db, { name: "California", countries: ["US"], regions: ["CA"] }, [{ name: "California Ground", priceCents: 800 }]);
  await setTax(t.db, { taxName: "Sales tax" }, [{ country: "US", region: "CA", percent: 7.25 }]);
  return makeProduct(t.db, { priceCents: 10000, stockQuantity: 50 });
}

describe("a region is read as its ISO 3166-2 code, however it was typed", () => {
  it("'California', 'Calif.', 'CA.' and 'ca' pay California's 7.25% and ship in the California zone, and the order says CA", async () => {
    const sheet = await californiaShop();
    for (const state of ["CA", "California", "Calif.", "CA.", "ca", " california "]) {
      const review = await quote([[sheet, 1]], { country: "US", state, zip: "94103" });
      expect(review.quote.tax.amountCents, state).toBe(725);
      expect(review.quote.shipping, state).toMatchObject({ name: "California Ground", amountCents: 800 });

      const { result } = await checkout([[sheet, 1]], { state, zipCode: "94103" });
      expect(result.ok, state).toBe(true);
      if (!result.ok) continue;
      const [order] = await t.db.select().from(orders).where(eq(orders.id, result.orderId));
      expect(order).toMatchObject({ state: "CA", taxCents: 725, shippingCents: 800, totalAmountCents: 10000 + 800 + 725 });
    }
  });

  it("a country rate plus a region rate: 'Ontario' pays Ontario's rate, not the country's", async () => {
    await setTax(t.db, { taxName: "Tax" }, [
      { country: "CA", percent: 5 },
      { country: "CA", region: "ON", percent: 13 },
    ]);
    const throw_ = await makeProduct(t.db, { priceCents: 10000, stockQuantity: 5 });
    for (const state of ["ON", "Ontario", "ont."]) {
      const review = await quote([[throw_, 1]], { country: "CA", state, zip: "M5V 2T6" });
      expect(review.quote.tax, state).toMatchObject({ rateBasisPoints: 1300, amountCents: 1300 });
    }
    const alberta = await quote([[throw_, 1]], { country: "CA", state: "Alberta", zip: "T2P 1J9" });
    expect(alberta.quote.tax.amountCents).toBe(500);
  });

  it("a region that is not one of the country's is refused at checkout with 'Choose a state or region from the list.', and no order is made", async () => {
    const sheet = await californiaShop();
    const before = (await t.db.select().from(orders)).length;
    const res = (await checkoutAction(
      routeArgs(checkoutRequest({ cartItems: [{ id: sheet.id, quantity: 1, priceCents: sheet.priceCents }], formData: shippingForm({ state: "Atlantis" }) })),
    )) as Response;
    expect(res.status).toBe(400);
    const body = (await res.json()) as { fieldErrors?: Record<string, string> };
    expect(body.fieldErrors?.state).toBe(CHOOSE);

    const direct = await checkout([[sheet, 1]], { state: "Atlantis" });
    expect(direct.answer).toMatchObject({ status: 400, body: { error: CHOOSE } });
    expect(await t.db.select().from(orders)).toHaveLength(before);
  });

  it("an address naming no region, in a country taxed by region, is refused rather than taxed at $0.00", async () => {
    await setTax(t.db, { taxName: "HST" }, [{ country: "CA", region: "ON", percent: 13 }]);
    const sheet = await makeProduct(t.db, { priceCents: 10000, stockQuantity: 5 });
    const before = (await t.db.select().from(orders)).length;
    const { answer } = await checkout([[sheet, 1]], { country: "CA", state: "", zipCode: "M5V 2T6" });
    expect(answer).toMatchObject({ status: 400, body: { error: CHOOSE } });
    expect(await t.db.select().from(orders)).toHaveLength(before);
  });

  it("a zone and a tax rate saved with region names from before keep applying to the region's code", async () => {
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { name: "US", countries: ["US"] }, [{ name: "Standard", priceCents: 500 }]);
    await makeZone(t.db, { name: "California (old)", countries: ["US"], regions: ["CALIFORNIA"] }, [{ name: "California Ground", priceCents: 800 }]);
    await t.db.insert(taxRates).values({ country: "US", region: "CALIFORNIA", rateBasisPoints: 725 });
    const sheet = await makeProduct(t.db, { priceCents: 10000, stockQuantity: 5 });
    const review = await quote([[sheet, 1]], { country: "US", state: "CA", zip: "94103" });
    expect(review.quote.tax.amountCents).toBe(725);
    expect(review.quote.shipping.name).toBe("California Ground");
  });

  it("the owner's Shipping & Tax screen shows a zone's and a tax rate's regions saved as names before as their codes", async () => {
    await makeZone(t.db, { name: "West (old)", countries: ["US", "CA"], regions: ["CALIFORNIA", "ontario", "Atlantis"] });
    await t.db.insert(taxRates).values({ country: "US", region: "CALIFORNIA", rateBasisPoints: 725 });
    const screen = await loadShippingSettings(t.db);
    // A name that reads as no region of the zone's countries is shown as it was saved, for the owner to fix.
    expect(screen.zones.find((z) => z.name === "West (old)")!.regions).toEqual(["CA", "ON", "Atlantis"]);
    expect(screen.taxRates.map((r) => [r.country, r.region])).toEqual([["US", "CA"]]);
  });

  it("a tax rate saved with a region name before is the same place as its code: a second rate for 'California' is refused", async () => {
    await t.db.insert(taxRates).values({ country: "US", region: "CALIFORNIA", rateBasisPoints: 725 });
    await expect(createTaxRate(t.db, { country: "US", region: "CA", rate: "8" })).rejects.toThrow("There is already a tax rate for United States — CA");
    expect(await t.db.select().from(taxRates)).toHaveLength(1);
  });

  it("the owner's zone and tax regions are saved as codes; a name that is no region of the country is refused", async () => {
    const { id } = await createZone(t.db, { name: "West coast", countries: "US", regions: "California, Oregon, wash.", postcodePrefixes: "", restOfWorld: false });
    const [zone] = await t.db.select().from(shippingZones).where(eq(shippingZones.id, id));
    expect(zone!.regions).toEqual(["CA", "OR", "WA"]);
    await expect(createZone(t.db, { name: "Nowhere", countries: "US", regions: "Atlantis", postcodePrefixes: "", restOfWorld: false })).rejects.toThrow(CHOOSE);

    await createTaxRate(t.db, { country: "CA", region: "Ontario", rate: "13" });
    expect((await t.db.select().from(taxRates)).map((r) => [r.country, r.region])).toEqual([["CA", "ON"]]);
    await expect(createTaxRate(t.db, { country: "US", region: "Ontario", rate: "5" })).rejects.toThrow(CHOOSE);
  });
});

describe("an address must name its region only where the owner prices by region there", () => {
  const uk = { country: "GB", state: "", city: "London", zipCode: "SW1A 1AA" };
  const post = (sheet: Line, form: Parameters<typeof shippingForm>[0]) =>
    checkoutAction(routeArgs(checkoutRequest({ cartItems: [{ id: sheet.id, quantity: 1, priceCents: sheet.priceCents }], formData: shippingForm(form) }))) as Promise<Response>;

  it("a UK address without a county is placed while no rate or zone of the UK names a region", async () => {
    await setTax(t.db, { taxName: "VAT" }, [{ country: "GB", percent: 20 }]);
    const sheet = await makeProduct(t.db, { priceCents: 10000, stockQuantity: 5 });
    const res = await post(sheet, uk);
    expect(res.status).toBe(200);
    const [order] = await t.db.select().from(orders).where(eq(orders.country, "GB"));
    expect(order).toMatchObject({ state: "", taxCents: 2000 });
    // A county typed anyway is still read as its code.
    expect((await post(sheet, { ...uk, state: "Kent" })).status).toBe(200);
    expect((await t.db.select({ state: orders.state }).from(orders).where(eq(orders.country, "GB"))).map((o) => o.state).sort()).toEqual(["", "KEN"]);
  });

  it("a UK address without a county is refused beside the State field once a UK zone or a UK tax rate names a region, never priced as if it had none", async () => {
    const sheet = await makeProduct(t.db, { priceCents: 10000, stockQuantity: 5 });
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { name: "UK", countries: ["GB"] }, [{ name: "Standard", priceCents: 500 }]);
    await makeZone(t.db, { name: "Highlands", countries: ["GB"], regions: ["HLD"] }, [{ name: "Highlands Courier", priceCents: 2500 }]);
    const before = (await t.db.select().from(orders)).length;
    const byZone = await post(sheet, uk);
    expect(byZone.status).toBe(400);
    expect(((await byZone.json()) as { fieldErrors?: Record<string, string> }).fieldErrors?.state).toBe(CHOOSE);

    await t.db.delete(shippingZones).where(eq(shippingZones.name, "Highlands"));
    await setTax(t.db, { taxName: "VAT" }, [{ country: "GB", region: "SCT", percent: 20 }]);
    const byRate = await post(sheet, uk);
    expect(byRate.status).toBe(400);
    expect(((await byRate.json()) as { fieldErrors?: Record<string, string> }).fieldErrors?.state).toBe(CHOOSE);
    expect(await t.db.select().from(orders)).toHaveLength(before);
    expect((await post(sheet, { ...uk, state: "Kent" })).status).toBe(200);
  });

  it("a US address naming no state is refused where only a zone, not a tax rate, names a region", async () => {
    const sheet = await makeProduct(t.db, { priceCents: 10000, stockQuantity: 5 });
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { name: "US", countries: ["US"] }, [{ name: "Standard", priceCents: 500 }]);
    await makeZone(t.db, { name: "Hawaii", countries: ["US"], regions: ["HI"] }, [{ name: "Island Air", priceCents: 3000 }]);
    const { answer } = await checkout([[sheet, 1]], { state: "", zipCode: "96813" });
    expect(answer).toMatchObject({ status: 400, body: { error: CHOOSE } });
    // The form itself asks for the state everywhere but the UK.
    const res = await post(sheet, { state: "", zipCode: "96813" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fieldErrors?: Record<string, string> }).fieldErrors?.state).toBe("Required");
  });
});
