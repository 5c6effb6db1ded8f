import { describe, expect, it } from "vitest";
import { restoreCart } from "./cart-restore";
import { item, line } from "./buy-again.fixtures";

describe("restoreCart (the reminder's link back to the cart)", () => {
  it("puts the checkout's lines in an empty cart at the product's current details", () => {
    const out = restoreCart([], { added: [line(), line({ id: "p2", name: "Pillow", quantity: 1, notes: ["Now $30.00 (it was $25.00)."] })], skipped: [] });
    expect(out.items).toEqual([
      { id: "p1", name: "Linen Sheet", priceCents: 4000, imageUrl: "/media/sheet.webp", unlimitedStock: false, stockQuantity: 10, quantity: 2 },
      expect.objectContaining({ id: "p2", name: "Pillow", quantity: 1 }),
    ]);
    expect(out.inCart).toEqual([
      { name: "Linen Sheet", quantity: 2, notes: [] },
      { name: "Pillow", quantity: 1, notes: ["Now $30.00 (it was $25.00)."] },
    ]);
  });

  it("keeps the larger quantity for a line already in the cart, so following the link twice does not double it", () => {
    const once = restoreCart([item({ quantity: 1 }), item({ id: "other", quantity: 3 })], { added: [line({ quantity: 2 })], skipped: [] });
    expect(once.items.map((i) => [i.id, i.quantity])).toEqual([
      ["p1", 2],
      ["other", 3],
    ]);
    const twice = restoreCart(once.items, { added: [line({ quantity: 2 })], skipped: [] });
    expect(twice.items.map((i) => [i.id, i.quantity])).toEqual([
      ["p1", 2],
      ["other", 3],
    ]);
    // More in the cart than in the checkout: the shopper's own quantity stays.
    expect(restoreCart([item({ quantity: 5 })], { added: [line({ quantity: 2 })], skipped: [] }).items[0]!.quantity).toBe(5);
  });

  it("never holds more than can be bought now (stock, 99 a line), and passes the server's refusals on", () => {
    const out = restoreCart([item({ quantity: 8 })], {
      added: [line({ quantity: 2, maxQuantity: 4 }), line({ id: "p3", name: "Throw", quantity: 99, maxQuantity: 500, unlimitedStock: true })],
      skipped: [{ name: "Retired Towel", reason: '"Retired Towel" is no longer available.' }],
    });
    expect(out.items.map((i) => [i.id, i.quantity])).toEqual([
      ["p1", 4],
      ["p3", 99],
    ]);
    expect(out.skipped).toEqual([{ name: "Retired Towel", reason: '"Retired Towel" is no longer available.' }]);
  });
});
