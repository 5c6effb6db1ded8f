import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { CheckoutErrorBody } from "~/lib/checkout";
import { action as apiCheckout } from "~/routes/resources/checkout";
import { action as pageAction } from "~/routes/store/checkout";
import { rateLimits, shippingRates, taxRates } from "~/server/platform/db/schema";
import { cartLines, checkoutRequest, countOrders, routeArgs, shippingForm } from "../factories/orders";
import { makeZone, resetPricing, setTax, withoutDefaultZone } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/**
 * The checkout page sends the shipping and tax of the quote it showed; a rate the owner changed
 * since is refused like a changed price, with the new figure, never charged without a word.
 */
const t = useTestDatabase();

beforeEach(async () => {
  await t.db.delete(rateLimits);
  await resetPricing(t.db);
  await withoutDefaultZone(t.db);
});

async function post(body: unknown) {
  const res = (await apiCheckout(routeArgs(checkoutRequest(body)))) as Response;
  return { status: res.status, body: (await res.json()) as CheckoutErrorBody & { url?: string } };
}

/** A $20.00 throw shipped to Illinois for $5.00, 10% sales tax on the goods: the page showed $5.00 and $2.00. */
async function shopWithRates() {
  const { rates } = await makeZone(t.db, { name: "USA", countries: ["US"] }, [{ name: "Standard", priceCents: 500 }]);
  await setTax(t.db, { taxName: "Sales tax" }, [{ country: "US", percent: 10 }]);
  const product = await makeProduct(t.db, { name: "Waffle Throw", priceCents: 2000, stockQuantity: 10 });
  return { product, rate: rates[0]! };
}

const shown = (product: { id: string; name: string; priceCents: number }, figures: { shipping: number; tax: number }) => ({
  cartItems: cartLines([product, 1]),
  formData: shippingForm(),
  quotedShippingCents: figures.shipping,
  quotedTaxCents: figures.tax,
});

describe("a shipping or tax rate changed between the page's quote and 'Place Order'", () => {
  it("places the order when shipping and tax are what the page showed", async () => {
    const { product } = await shopWithRates();
    const res = await post(shown(product, { shipping: 500, tax: 200 }));
    expect(res.status).toBe(200);
    expect(res.body.url).toBeTruthy();
  });

  it("refuses a changed shipping rate with the new shipping, and makes no order", async () => {
    const { product, rate } = await shopWithRates();
    await t.db.update(shippingRates).set({ priceCents: 700 }).where(eq(shippingRates.id, rate.id));
    const before = await countOrders(t.db);
    const res = await post(shown(product, { shipping: 500, tax: 200 }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Shipping for your order is now $7.00.");
    expect(await countOrders(t.db)).toBe(before);
  });

  it("refuses a changed tax rate with the new tax, and makes no order", async () => {
    const { product } = await shopWithRates();
    await t.db.update(taxRates).set({ rateBasisPoints: 1500 }).where(eq(taxRates.country, "US"));
    const before = await countOrders(t.db);
    const res = await post(shown(product, { shipping: 500, tax: 200 }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Tax for your order is now $3.00.");
    expect(await countOrders(t.db)).toBe(before);
  });

  it("names both when both changed", async () => {
    const { product, rate } = await shopWithRates();
    await t.db.update(shippingRates).set({ priceCents: 0 }).where(eq(shippingRates.id, rate.id));
    await t.db.delete(taxRates);
    const res = await post(shown(product, { shipping: 500, tax: 200 }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Shipping for your order is now $0.00. Tax for your order is now $0.00.");
  });

  it("refuses figures that are not whole cents", async () => {
    const { product } = await shopWithRates();
    const res = await post({ ...shown(product, { shipping: 500, tax: 200 }), quotedShippingCents: 4.5 });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("The shipping and tax shown must be whole numbers of cents. Reload the page and try again.");
  });

  it("a form posted without script that sends the figures is refused the same way", async () => {
    const { product, rate } = await shopWithRates();
    await t.db.update(shippingRates).set({ priceCents: 900 }).where(eq(shippingRates.id, rate.id));
    const fields: [string, string][] = [
      ...Object.entries(shippingForm()),
      ["line", `${product.id}:1`],
      ["quotedShippingCents", "500"],
      ["quotedTaxCents", "200"],
    ];
    const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", "x-shop-client-ip": "198.51.100.78" });
    const request = new Request("http://localhost:3000/checkout", { method: "POST", headers, body: new URLSearchParams(fields) });
    const result = (await pageAction(routeArgs(request))) as unknown;
    expect(result).not.toBeInstanceOf(Response);
    const d = result as { data: { refusal: CheckoutErrorBody | null; cart: { review: { quote: { shipping: { amountCents: number } } } } | null }; init?: ResponseInit | null };
    expect(d.init?.status).toBe(400);
    expect(d.data.refusal?.error).toBe("Shipping for your order is now $9.00.");
    // The page shows the new quote.
    expect(d.data.cart?.review.quote.shipping.amountCents).toBe(900);
  });
});
