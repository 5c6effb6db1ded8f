import { describe, expect, it } from "vitest";
import { addItem, cartItemCount, parseStoredCart, removeItem, updateQuantity, type CartItem } from "./cart";

const duvet = { id: "p1", name: "Linen Duvet", priceCents: 12900, imageUrl: "", unlimitedStock: false, stockQuantity: 5 };
const pillow = { id: "p2", name: "Down Pillow", priceCents: 4550, imageUrl: "", unlimitedStock: true, stockQuantity: 0 };

describe("cart rules (docs/rules/cart-and-checkout.md)", () => {
  it("adds a new item at 1 and raises an existing one by 1", () => {
    let items: CartItem[] = [];
    items = addItem(items, duvet);
    expect(items).toEqual([{ ...duvet, quantity: 1 }]);
    items = addItem(items, duvet);
    expect(items[0]!.quantity).toBe(2);
  });

  it("removes a line when the quantity is 0, negative or not a number", () => {
    const items = addItem(addItem([], duvet), pillow);
    expect(updateQuantity(items, "p1", 0).map((i) => i.id)).toEqual(["p2"]);
    expect(updateQuantity(items, "p1", -3).map((i) => i.id)).toEqual(["p2"]);
    expect(updateQuantity(items, "p1", "abc").map((i) => i.id)).toEqual(["p2"]);
    expect(updateQuantity(items, "p1", "3")[0]!.quantity).toBe(3);
    expect(removeItem(items, "p2").map((i) => i.id)).toEqual(["p1"]);
  });

  it("counts quantities (money totals are the server's quote)", () => {
    const items = updateQuantity(addItem(addItem([], duvet), pillow), "p2", 3);
    expect(cartItemCount(items)).toBe(4);
  });

  it("ignores corrupt or foreign stored content", () => {
    expect(parseStoredCart("not json")).toEqual([]);
    expect(parseStoredCart('{"foo":1}')).toEqual([]);
    expect(parseStoredCart('[{"id":"x"}, 5, null]')).toEqual([]);
    const good = JSON.stringify([{ ...duvet, quantity: 2 }, { id: "bad", quantity: -1 }]);
    expect(parseStoredCart(good)).toEqual([{ ...duvet, quantity: 2 }]);
  });

  it("reads a product id in one letter case, so the same product stored twice in two cases is one line", () => {
    const upper = { ...duvet, id: "A1B2-C3" };
    const lower = { ...duvet, id: "a1b2-c3" };
    expect(parseStoredCart(JSON.stringify([{ ...upper, quantity: 4 }, { ...lower, quantity: 3 }]))).toEqual([{ ...lower, quantity: 4 }]);
  });

  it("drops a line whose id, name, price or quantity is wrong, and keeps the rest", () => {
    const line = { ...duvet, quantity: 2 };
    const bad = [
      { ...line, id: "" },
      { ...line, id: 7 },
      { ...line, id: "x".repeat(101) },
      { ...line, name: null },
      { ...line, priceCents: -1 },
      { ...line, priceCents: 12.5 },
      { ...line, priceCents: "12900" },
      { ...line, quantity: 0 },
      { ...line, quantity: 100 },
      { ...line, quantity: 1.5 },
      { ...line, quantity: 1e400 },
      [line],
      "p1",
    ];
    expect(parseStoredCart(JSON.stringify([...bad, { ...pillow, quantity: 1 }]))).toEqual([{ ...pillow, quantity: 1 }]);
  });

  it("falls back for bad display fields, drops unknown keys and repeated ids, reads {items: [...]}", () => {
    const stored = { items: [{ ...duvet, quantity: 3, imageUrl: 5, unlimitedStock: "yes", stockQuantity: -2, extra: "<script>" }, { ...duvet, quantity: 9 }] };
    expect(parseStoredCart(JSON.stringify(stored))).toEqual([{ ...duvet, imageUrl: "", unlimitedStock: false, stockQuantity: 0, quantity: 3 }]);
  });
});
