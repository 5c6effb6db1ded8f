import { describe, expect, it } from "vitest";
import { mergeBuyAgain } from "./buy-again";
import { item, line } from "./buy-again.fixtures";

describe("mergeBuyAgain", () => {
  it("adds new lines and tops up lines already in the cart, at the product's current details", () => {
    const out = mergeBuyAgain([item(), item({ id: "other", quantity: 3 })], { added: [line(), line({ id: "p2", name: "Pillow", quantity: 1 })], skipped: [] });
    expect(out.items).toEqual([
      { id: "p1", name: "Linen Sheet", priceCents: 4000, imageUrl: "/media/sheet.webp", unlimitedStock: false, stockQuantity: 10, quantity: 3 },
      item({ id: "other", quantity: 3 }),
      expect.objectContaining({ id: "p2", name: "Pillow", quantity: 1 }),
    ]);
    expect(out.added).toEqual([
      { name: "Linen Sheet", quantity: 2, notes: [] },
      { name: "Pillow", quantity: 1, notes: [] },
    ]);
  });

  it("never goes beyond what can be bought, and says so", () => {
    const capped = mergeBuyAgain([item({ quantity: 2 })], { added: [line({ quantity: 2, maxQuantity: 3 })], skipped: [] });
    expect(capped.items[0]!.quantity).toBe(3);
    expect(capped.added).toEqual([{ name: "Linen Sheet", quantity: 1, notes: ["Your cart already had 2."] }]);

    const full = mergeBuyAgain([item({ quantity: 3 })], { added: [line({ maxQuantity: 3 })], skipped: [{ name: "Gone", reason: '"Gone" is no longer available.' }] });
    expect(full.items).toEqual([item({ quantity: 3 })]);
    expect(full.added).toEqual([]);
    expect(full.skipped).toEqual([
      { name: "Gone", reason: '"Gone" is no longer available.' },
      { name: "Linen Sheet", reason: '"Linen Sheet" is already in your cart: 3, all you can buy now.' },
    ]);
  });

  it("keeps the cart's limit of 99 per line for unlimited products", () => {
    const out = mergeBuyAgain([item({ quantity: 98, unlimitedStock: true })], { added: [line({ quantity: 5, maxQuantity: 99, unlimitedStock: true })], skipped: [] });
    expect(out.items[0]!.quantity).toBe(99);
  });
});
