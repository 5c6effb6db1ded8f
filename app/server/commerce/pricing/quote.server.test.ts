import { describe, expect, it } from "vitest";
import { stripeCheckoutParts, stripeTotal } from "../payments/stripe-lines.server";
import { matchZone, shippingOptions, type Rate, type Zone } from "./shipping.server";
import { allocate, DEFAULT_PRICING, mulDivHalfUp, priceQuote, type DiscountRule, type PricingLine, type PricingRules } from "./quote.server";
// The bench's seeded generator (mulberry32), so a failing cart can be found again from its seed.
import { seeded, type Random } from "../../../../scripts/bench/random";

function randomCart(r: Random): PricingLine[] {
  return Array.from({ length: r.int(1, 20) }, (_, i) => ({
    productId: `p${i}`,
    name: `Product ${i}`,
    imageUrl: "",
    // Cheap, odd and dear prices: 1¢ … $9,999.99.
    unitPriceCents: r.pick([r.int(1, 99), r.int(100, 9_999), r.int(10_000, 999_999)]),
    quantity: r.int(1, 99),
  }));
}

function randomRules(r: Random, lines: PricingLine[]): PricingRules {
  const some = new Set(lines.filter(() => r.next() < 0.5).map((l) => l.productId));
  const discounts: (DiscountRule | null)[] = [
    null,
    { code: "PCT", kind: "percent", basisPoints: r.int(1, 10_000) },
    { code: "PCT-SOME", kind: "percent", basisPoints: r.int(1, 10_000), productIds: some },
    { code: "FIXED", kind: "fixed", amountCents: r.int(1, 5_000_000) },
    { code: "FIXED-SOME", kind: "fixed", amountCents: r.int(1, 50_000), productIds: some },
    { code: "SHIP", kind: "free_shipping" },
  ];
  return {
    currency: "usd",
    shipping: { name: r.pick(["Standard", "Express"]), amountCents: r.pick([0, r.int(1, 5_000)]) },
    tax: {
      name: r.pick(["Tax", "VAT", "Sales tax"]),
      rateBasisPoints: r.pick([0, r.int(1, 3_000), 2_000, 725]),
      pricesIncludeTax: r.next() < 0.5,
      shippingTaxable: r.next() < 0.5,
    },
    discount: r.pick(discounts),
  };
}

describe("priceQuote", () => {
  it("keeps today's defaults: shipping 'Free', tax $0.00, no discount, total = Σ lines", () => {
    const q = priceQuote([
      { productId: "a", name: "A", imageUrl: "", unitPriceCents: 8900, quantity: 2 },
      { productId: "b", name: "B", imageUrl: "", unitPriceCents: 4550, quantity: 1 },
    ]);
    expect(q).toMatchObject({ subtotalCents: 22_350, discount: null, shipping: { amountCents: 0 }, tax: { amountCents: 0 }, totalCents: 22_350 });
    expect(q.lines.map((l) => l.lineTotalCents)).toEqual([17_800, 4550]);
  });

  it("rounds each line's percentage half up, so the parts add up to the figures", () => {
    // 10% off $0.05 is 0.5¢ → 1¢ on each line; 20% VAT included in $0.99 is 16.5¢ → 17¢.
    const rules: PricingRules = { ...DEFAULT_PRICING, discount: { code: "TEN", kind: "percent", basisPoints: 1000 } };
    const q = priceQuote(
      [
        { productId: "a", name: "A", imageUrl: "", unitPriceCents: 5, quantity: 1 },
        { productId: "b", name: "B", imageUrl: "", unitPriceCents: 5, quantity: 1 },
      ],
      rules,
    );
    expect(q.lines.map((l) => l.discountCents)).toEqual([1, 1]);
    expect(q.totalCents).toBe(8);
    expect(mulDivHalfUp(99, 2000, 12_000)).toBe(17);
    expect(mulDivHalfUp(25, 1, 10)).toBe(3);
    expect(mulDivHalfUp(24, 1, 10)).toBe(2);
  });

  it("shares a fixed discount over the lines in whole cents that sum to it exactly", () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(1, [3, 1])).toEqual([1, 0]);
    expect(allocate(0, [5, 5])).toEqual([0, 0]);
    expect(allocate(10, [0, 0])).toEqual([0, 0]);
  });

  it("never goes below zero: a fixed discount larger than the cart takes the lines to $0.00 and leaves shipping", () => {
    const rules: PricingRules = { ...DEFAULT_PRICING, shipping: { name: "Standard", amountCents: 500 }, discount: { code: "BIG", kind: "fixed", amountCents: 1_000_000 } };
    const q = priceQuote([{ productId: "a", name: "A", imageUrl: "", unitPriceCents: 1999, quantity: 2 }], rules);
    expect(q).toMatchObject({ subtotalCents: 3998, discount: { amountCents: 3998 }, totalCents: 500 });
  });

  it("for 1,000 random carts and rules: total = Σ lines − discount + shipping (+ tax when added), never negative, and Stripe is asked for exactly the total", () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const r = seeded(seed);
      const lines = randomCart(r);
      const rules = randomRules(r, lines);
      const q = priceQuote(lines, rules);
      const sumLines = q.lines.reduce((s, l) => s + l.lineTotalCents, 0);
      const discount = q.discount?.amountCents ?? 0;
      const addedTax = q.tax.included ? 0 : q.tax.amountCents;
      const context = `seed ${seed}`;
      expect(q.subtotalCents, context).toBe(sumLines);
      expect(q.totalCents, context).toBe(sumLines - discount + q.shipping.amountCents + addedTax);
      expect(q.totalCents, context).toBeGreaterThanOrEqual(0);
      expect(q.totalCents, context).toBeGreaterThanOrEqual(q.shipping.amountCents);
      expect(discount, context).toBe(q.lines.reduce((s, l) => s + l.discountCents, 0));
      expect(q.tax.amountCents, context).toBe(q.lines.reduce((s, l) => s + l.taxCents, 0) + q.shipping.taxCents);
      for (const [i, l] of q.lines.entries()) {
        expect(l.lineTotalCents, context).toBe(lines[i]!.unitPriceCents * lines[i]!.quantity);
        expect(l.discountCents, context).toBeLessThanOrEqual(l.lineTotalCents);
        expect(Number.isInteger(l.taxCents) && l.taxCents >= 0, context).toBe(true);
      }
      expect(stripeTotal(stripeCheckoutParts(q)), context).toBe(q.totalCents);
    }
  });
});

describe("quotes over random zones, rates, tax settings and discounts", () => {
  it("for 10,000 random carts: total = Σ lines − discount + shipping (+ tax when added), never negative, and Stripe is asked for exactly the total", () => {
    const r = seeded(20261125);
    const countries = ["US", "GB", "DE", "FR", "CA"];
    const zones: Zone[] = Array.from({ length: 30 }, (_, i) => ({
      id: `z${i}`,
      name: `Zone ${i}`,
      countries: [r.pick(countries)],
      regions: r.next() < 0.3 ? [r.pick(["CA", "NY", "IL", "BAVARIA"])] : [],
      postcodePrefixes: r.next() < 0.2 ? [r.pick(["9", "1", "SW", "IV"])] : [],
      restOfWorld: false,
      position: i,
    }));
    zones.push({ id: "row", name: "Everywhere", countries: [], regions: [], postcodePrefixes: [], restOfWorld: true, position: 99 });
    const rates: Rate[] = zones.flatMap((z, i) =>
      Array.from({ length: r.int(1, 3) }, (_, j): Rate => {
        const kind = r.pick(["flat", "free_over", "weight"] as const);
        return {
          id: `r${i}-${j}`,
          zoneId: z.id,
          name: r.pick(["Standard", "Express"]),
          kind,
          priceCents: r.int(0, 3000),
          freeOverCents: kind === "free_over" ? r.int(0, 20_000) : null,
          weightBands: kind === "weight" ? [{ fromGrams: 0, toGrams: 1000, priceCents: r.int(0, 900) }, { fromGrams: 1000, toGrams: null, priceCents: r.int(900, 3000) }] : [],
          estimate: "",
          position: j,
        };
      }),
    );
    for (let n = 0; n < 10_000; n++) {
      const lines = randomCart(r);
      const base = randomRules(r, lines);
      const destination = { country: r.pick(countries), state: r.pick(["CA", "NY", "IL", "Bavaria", ""]), zipCode: r.pick(["94103", "10001", "SW1A 1AA", "IV2 3AB", ""]) };
      const zone = matchZone(zones, destination)!;
      const weightGrams = lines.reduce((s, l) => s + l.quantity * r.int(0, 400), 0);
      const goodsCents = priceQuote(lines, { ...DEFAULT_PRICING, discount: base.discount }).totalCents;
      const options = shippingOptions(rates.filter((x) => x.zoneId === zone.id), { goodsCents, weightGrams });
      const chosen = options.length ? r.pick(options) : { name: "Standard", amountCents: 0 };
      const q = priceQuote(lines, { ...base, shipping: { name: chosen.name, amountCents: chosen.amountCents } });
      const sumLines = q.lines.reduce((s, l) => s + l.lineTotalCents, 0);
      const discount = q.discount?.amountCents ?? 0;
      const context = `cart ${n}`;
      expect(q.totalCents, context).toBe(sumLines - discount + q.shipping.amountCents + (q.tax.included ? 0 : q.tax.amountCents));
      expect(q.totalCents, context).toBeGreaterThanOrEqual(q.shipping.amountCents);
      expect(q.shipping.amountCents, context).toBe(base.discount?.kind === "free_shipping" ? 0 : chosen.amountCents);
      expect(q.tax.amountCents, context).toBe(q.lines.reduce((s, l) => s + l.taxCents, 0) + q.shipping.taxCents);
      expect(stripeTotal(stripeCheckoutParts(q)), context).toBe(q.totalCents);
    }
  });
});
