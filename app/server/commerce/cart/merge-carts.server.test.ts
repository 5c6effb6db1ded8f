import { describe, expect, it } from "vitest";
import { mergeCarts, type CartProductNow } from "./merge-carts.server";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

function shop(...products: Partial<CartProductNow>[]) {
  return new Map(
    products.map((p, i) => {
      const product = { id: id(i + 1), name: `Product ${i + 1}`, active: true, unlimitedStock: false, stockQuantity: 10, ...p };
      return [product.id, product];
    }),
  );
}

describe("merging the saved cart with this device's cart", () => {
  it("keeps both carts' products, server lines first; the same product takes the larger quantity", () => {
    const now = shop({}, {}, {});
    const result = mergeCarts(
      [
        { id: id(1), quantity: 2 },
        { id: id(2), quantity: 5 },
      ],
      [
        { id: id(2), quantity: 3 },
        { id: id(3), quantity: 1 },
        { id: id(1), quantity: 4 },
      ],
      now,
    );
    expect(result.lines).toEqual([
      { id: id(1), quantity: 4 },
      { id: id(2), quantity: 5 },
      { id: id(3), quantity: 1 },
    ]);
    expect(result.dropped).toEqual([]);
  });

  it("caps a quantity at the stock, and says so", () => {
    const now = shop({ name: "Linen Duvet", stockQuantity: 3 });
    const result = mergeCarts([{ id: id(1), quantity: 2 }], [{ id: id(1), quantity: 7 }], now);
    expect(result.lines).toEqual([{ id: id(1), quantity: 3 }]);
    expect(result.dropped).toEqual([{ id: id(1), name: "Linen Duvet", reason: "reduced", quantity: 3 }]);
  });

  it("unlimited stock is capped only by the cart's 99, silently", () => {
    const now = shop({ unlimitedStock: true, stockQuantity: 0 });
    expect(mergeCarts([{ id: id(1), quantity: 99 }], [{ id: id(1), quantity: 50 }], now)).toEqual({
      lines: [{ id: id(1), quantity: 99 }],
      dropped: [],
    });
  });

  it("drops a deactivated, deleted or sold-out product, naming it (a deleted one by the name this device knew)", () => {
    const now = shop({ name: "Old Throw", active: false }, { name: "Sold Out Sheet", stockQuantity: 0 }, { name: "Kept Pillow" });
    const result = mergeCarts(
      [
        { id: id(1), quantity: 1 },
        { id: id(2), quantity: 2 },
      ],
      [
        { id: id(3), quantity: 1 },
        { id: id(9), quantity: 1, name: "Gone Quilt" },
      ],
      now,
    );
    expect(result.lines).toEqual([{ id: id(3), quantity: 1 }]);
    expect(result.dropped).toEqual([
      { id: id(1), name: "Old Throw", reason: "unavailable" },
      { id: id(2), name: "Sold Out Sheet", reason: "out_of_stock" },
      { id: id(9), name: "Gone Quilt", reason: "unavailable" },
    ]);
  });

  it("500 lines: keeps the first 100 that can be bought and reports every other", () => {
    const products = shop(...Array.from({ length: 500 }, (_, i) => ({ active: i % 50 !== 0 })));
    const local = Array.from({ length: 500 }, (_, i) => ({ id: id(i + 1), quantity: 1 }));
    const result = mergeCarts([], local, products);
    expect(result.lines).toHaveLength(100);
    // Every 50th product is inactive: the first 100 buyable ones run to the 103rd line.
    expect(result.lines.at(-1)!.id).toBe(id(103));
    expect(result.dropped.filter((d) => d.reason === "unavailable")).toHaveLength(10);
    expect(result.dropped.filter((d) => d.reason === "limit")).toHaveLength(390);
    expect(result.lines.length + result.dropped.length).toBe(500);
  });
});
