import { beforeEach, describe, expect, it } from "vitest";
import type { CartReview } from "~/lib/pricing-view";
import { action as checkoutAction } from "~/routes/resources/checkout";
import { loader as quoteLoader } from "~/routes/resources/cart-quote";
import { checkoutRequest, routeArgs, shippingForm } from "../factories/orders";
import { makeZone, resetPricing, withoutDefaultZone } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/** docs/rules/addresses.md, Postcodes: UK prefixes match the outward code as a whole district. */

const t = useTestDatabase();
beforeEach(() => resetPricing(t.db));

async function shippingName(productId: string, zip: string) {
  const q = new URLSearchParams({ lines: `${productId}:1`, country: "GB", state: "Renfrewshire", zip });
  const res = (await quoteLoader(routeArgs(new Request(`http://localhost:3000/api/cart/quote?${q}`)))) as Response;
  return ((await res.json()) as CartReview).quote.shipping.name;
}

describe("UK postcodes match by their outward code", () => {
  it("Paisley (PA2 0AA) and Kilmarnock (KA2 7AB) do not take the islands' surcharge; Bute (PA20 0AA) and Arran (KA27 8AA) do", async () => {
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { name: "UK", countries: ["GB"] }, [{ name: "UK mainland", priceCents: 400 }]);
    await makeZone(t.db, { name: "Islands", countries: ["GB"], postcodePrefixes: ["PA20", "PA21", "KA27", "KA28"] }, [{ name: "Islands surcharge", priceCents: 1500 }]);
    const p = await makeProduct(t.db, { priceCents: 3000, stockQuantity: 5 });
    expect(await shippingName(p.id, "PA2 0AA")).toBe("UK mainland");
    expect(await shippingName(p.id, "pa20aa")).toBe("UK mainland");
    expect(await shippingName(p.id, "KA2 7AB")).toBe("UK mainland");
    expect(await shippingName(p.id, "PA20 0AA")).toBe("Islands surcharge");
    expect(await shippingName(p.id, "KA27 8AA")).toBe("Islands surcharge");
  });

  it("the prefix 'PH1' is Perth's PH1 only, not PH10 to PH19; letters alone are the whole area", async () => {
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { name: "UK", countries: ["GB"] }, [{ name: "UK mainland", priceCents: 400 }]);
    await makeZone(t.db, { name: "Perth", countries: ["GB"], postcodePrefixes: ["PH1"] }, [{ name: "Perth", priceCents: 200 }]);
    await makeZone(t.db, { name: "Highlands", countries: ["GB"], postcodePrefixes: ["IV"] }, [{ name: "Highlands", priceCents: 1200 }]);
    const p = await makeProduct(t.db, { priceCents: 3000, stockQuantity: 5 });
    expect(await shippingName(p.id, "PH1 5AA")).toBe("Perth");
    expect(await shippingName(p.id, "PH10 6AA")).toBe("UK mainland");
    expect(await shippingName(p.id, "PH19 1AA")).toBe("UK mainland");
    expect(await shippingName(p.id, "IV2 3AB")).toBe("Highlands");
  });

  it("a postcode that does not fit its country is refused at checkout beside the field", async () => {
    const p = await makeProduct(t.db, { priceCents: 3000, stockQuantity: 5 });
    const res = (await checkoutAction(
      routeArgs(checkoutRequest({ cartItems: [{ id: p.id, quantity: 1, priceCents: p.priceCents }], formData: shippingForm({ country: "GB", state: "Renfrewshire", zipCode: "62701" }) })),
    )) as Response;
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fieldErrors?: Record<string, string> }).fieldErrors?.zipCode).toBe("Enter a valid postcode for this country.");
  });
});
