import { describe, expect, it } from "vitest";
import {
  isRefundProblem,
  linePaidCents,
  planRefund,
  shareHalfUp,
  shippingPaid,
  type RefundLedger,
  type RefundPlan,
} from "~/lib/refund-amounts";
import { priceQuote, type DiscountRule, type PricingLine } from "../pricing/quote.server";

/** A small seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** An order as checkout stores it, priced by the shop's own quote, and its ledger before any refund. */
function orderFrom(rand: (n: number) => number, pricesIncludeTax: boolean) {
  const input: PricingLine[] = Array.from({ length: 1 + rand(4) }, (_, i) => ({
    productId: `p${i}`,
    name: `Item ${i}`,
    imageUrl: "",
    unitPriceCents: 1 + rand(20_000),
    quantity: 1 + rand(6),
  }));
  const discount: DiscountRule | null = [null, { code: "P", kind: "percent", basisPoints: 1 + rand(9_999) } as const, { code: "F", kind: "fixed", amountCents: 1 + rand(5_000) } as const][rand(3)]!;
  const quote = priceQuote(input, {
    currency: "usd",
    shipping: { name: "Standard", amountCents: rand(2) ? rand(1_500) : 0 },
    tax: { name: "Tax", rateBasisPoints: rand(2_500), pricesIncludeTax, shippingTaxable: rand(2) === 1 },
    discount,
  });
  const lines = quote.lines.map((l, i) => ({ ...l, id: `line-${i}` }));
  const ledger: RefundLedger = {
    lines: lines.map((l) => ({
      orderItemId: l.id,
      name: l.name,
      quantity: l.quantity,
      paidCents: linePaidCents(l, pricesIncludeTax),
      taxCents: l.taxCents,
      refundedQuantity: 0,
      refundedCents: 0,
      refundedTaxCents: 0,
    })),
    shipping: { ...shippingPaid({ shippingCents: quote.shipping.amountCents, taxCents: quote.tax.amountCents, pricesIncludeTax }, lines), refundedCents: 0, refundedTaxCents: 0 },
    paidCents: quote.totalCents,
    refundedCents: 0,
  };
  return { quote, ledger };
}

/** What the ledger looks like once a planned refund is counted (as refunds.server.ts reads its rows). */
function apply(ledger: RefundLedger, plan: RefundPlan): void {
  for (const part of plan.lines) {
    const line = ledger.lines.find((l) => l.orderItemId === part.orderItemId)!;
    line.refundedQuantity += part.quantity;
    line.refundedCents += part.amountCents;
    line.refundedTaxCents += part.taxCents;
  }
  ledger.shipping.refundedCents += plan.shippingCents;
  ledger.shipping.refundedTaxCents += plan.shippingTaxCents;
  ledger.refundedCents += plan.amountCents;
}

describe("refund amounts", () => {
  it("shares half up, and all of what is left for the last units", () => {
    expect(shareHalfUp(1000, 1, 3)).toBe(333);
    expect(shareHalfUp(1001, 1, 2)).toBe(501);
    expect(shareHalfUp(999, 3, 3)).toBe(999);
    expect(shareHalfUp(99_999_999 * 99, 98, 99)).toBe(99_999_999 * 98);
  });

  for (const pricesIncludeTax of [false, true]) {
    it(`refunding every line in random partial steps, and the shipping, refunds exactly the order's total and tax (prices ${pricesIncludeTax ? "include" : "exclude"} tax, with discounts)`, () => {
      for (let seed = 1; seed <= 400; seed++) {
        const rand = rng(seed * (pricesIncludeTax ? 7 : 13));
        const { quote, ledger } = orderFrom(rand, pricesIncludeTax);
        let refunded = 0;
        let tax = 0;
        for (let step = 0; step < 50; step++) {
          const left = ledger.lines.map((l) => l.quantity - l.refundedQuantity);
          const shippingLeft = ledger.shipping.paidCents - ledger.shipping.refundedCents;
          if (left.every((n) => n === 0) && shippingLeft === 0) break;
          const last = step === 49;
          const plan = planRefund(ledger, {
            lines: ledger.lines.map((l, i) => ({ orderItemId: l.orderItemId, quantity: last ? left[i]! : rand(left[i]! + 1), restock: false })),
            shippingCents: last ? shippingLeft : rand(shippingLeft + 1),
            adjustmentCents: 0,
          });
          if (isRefundProblem(plan)) {
            expect(plan.message).toBe("Choose something to refund.");
            continue;
          }
          expect(plan.amountCents).toBeLessThanOrEqual(ledger.paidCents - ledger.refundedCents);
          apply(ledger, plan);
          refunded += plan.amountCents;
          tax += plan.taxCents;
        }
        expect({ seed, refunded, tax }).toEqual({ seed, refunded: quote.totalCents, tax: quote.tax.amountCents });
        // Nothing is left to refund.
        expect(planRefund(ledger, { lines: [], shippingCents: 0, adjustmentCents: 1 })).toEqual({ message: "You can refund at most $0.00." });
      }
    });
  }

  it("caps shipping, the total and each line's units, naming the field", () => {
    const ledger: RefundLedger = {
      lines: [{ orderItemId: "a", name: "Mug", quantity: 2, paidCents: 2000, taxCents: 0, refundedQuantity: 1, refundedCents: 1000, refundedTaxCents: 0 }],
      shipping: { paidCents: 500, taxCents: 0, refundedCents: 200, refundedTaxCents: 0 },
      paidCents: 2500,
      refundedCents: 1200,
    };
    expect(planRefund(ledger, { lines: [], shippingCents: 301, adjustmentCents: 0 })).toEqual({ message: "You can refund at most $3.00.", field: "shippingCents" });
    expect(planRefund(ledger, { lines: [{ orderItemId: "a", quantity: 1, restock: true }], shippingCents: 300, adjustmentCents: 1 })).toEqual({ message: "You can refund at most $13.00." });
    expect(planRefund(ledger, { lines: [{ orderItemId: "a", quantity: 2, restock: true }], shippingCents: 0, adjustmentCents: 0 })).toEqual({ message: "You can refund at most 1 of Mug.", field: "lines.0.quantity" });
    expect(planRefund(ledger, { lines: [{ orderItemId: "a", quantity: 0.5, restock: true }], shippingCents: 0, adjustmentCents: 0 })).toMatchObject({ field: "lines.0.quantity" });
    expect(planRefund(ledger, { lines: [], shippingCents: -1, adjustmentCents: 0 })).toMatchObject({ field: "shippingCents" });
  });
});
