import { beforeEach, describe, expect, it } from "vitest";
import type { CartReview } from "~/lib/pricing-view";
import { loader as quoteLoader } from "~/routes/resources/cart-quote";
import { routeArgs } from "../factories/orders";
import { makeZone, resetPricing, withoutDefaultZone } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

/** docs/money-path.md, Shipping: the longest postcode prefix first, then a region, then the country, then the owner's order. */

const t = useTestDatabase();
beforeEach(() => resetPricing(t.db));

async function shippingName(productId: string, params: Record<string, string>) {
  const q = new URLSearchParams({ lines: `${productId}:1`, ...params });
  const res = (await quoteLoader(routeArgs(new Request(`http://localhost:3000/api/cart/quote?${q}`)))) as Response;
  return ((await res.json()) as CartReview).quote.shipping.name;
}

describe("zone ranking follows the written rule", () => {
  it("a zone with prefix '941' beats a zone with a region and prefix '9' for a San Francisco address", async () => {
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { name: "West", countries: ["US"], regions: ["CA"], postcodePrefixes: ["9"], position: 0 }, [{ name: "West rate", priceCents: 900 }]);
    await makeZone(t.db, { name: "SF", countries: ["US"], postcodePrefixes: ["941"], position: 1 }, [{ name: "SF courier", priceCents: 300 }]);
    const p = await makeProduct(t.db, { priceCents: 2000, stockQuantity: 5 });
    expect(await shippingName(p.id, { country: "US", state: "CA", zip: "94103" })).toBe("SF courier");
    // Same prefix length: the region decides; no prefix matched: the region zone over the country.
    await makeZone(t.db, { name: "SF (any state)", countries: ["US"], postcodePrefixes: ["9"], position: 2 }, [{ name: "Nine", priceCents: 100 }]);
    expect(await shippingName(p.id, { country: "US", state: "CA", zip: "90001" })).toBe("West rate");
  });

  it("among equally specific zones the owner's order decides", async () => {
    await withoutDefaultZone(t.db);
    await makeZone(t.db, { name: "Second", countries: ["US"], postcodePrefixes: ["94"], position: 5 }, [{ name: "Second rate", priceCents: 100 }]);
    await makeZone(t.db, { name: "First", countries: ["US"], postcodePrefixes: ["94"], position: 1 }, [{ name: "First rate", priceCents: 900 }]);
    const p = await makeProduct(t.db, { priceCents: 2000, stockQuantity: 5 });
    expect(await shippingName(p.id, { country: "US", state: "CA", zip: "94103" })).toBe("First rate");
  });
});
