import { describe, expect, it } from "vitest";
import { BulkEditInput, centsToInput, parseDollars, parseStock, ProductInput } from "./product-input";

describe("parseDollars", () => {
  it.each([
    ["12", 1200],
    ["12.5", 1250],
    ["12.50", 1250],
    ["$3.07", 307],
    [".99", 99],
    ["0", 0],
  ])("reads %s as %i cents", (input, cents) => {
    expect(parseDollars(input, { label: "Price" })).toBe(cents);
  });

  it.each([
    ["-1", "Price cannot be negative"],
    ["abc", "Price must be a number"],
    ["1e3", "Price must be a number"],
    ["12.345", "Price can have at most 2 decimals"],
    ["1000000.01", "Price must be at most $1,000,000.00"],
  ])("refuses %s: %s", (input, message) => {
    expect(parseDollars(input, { label: "Price" })).toBe(message);
  });

  it("accepts negatives where allowed (adjustments)", () => {
    expect(parseDollars("-2.50", { label: "Price adjustment", allowNegative: true })).toBe(-250);
  });
});

describe("parseStock", () => {
  it("reads whole numbers and refuses the rest", () => {
    expect(parseStock("7")).toBe(7);
    expect(parseStock("-1")).toBe("Stock quantity cannot be negative");
    expect(parseStock("1.5")).toBe("Stock quantity must be a whole number");
    expect(parseStock("")).toBe("Stock quantity is required");
  });
});

describe("ProductInput", () => {
  const base = { name: "Sheet", price: "10", category: "Bedding" };
  it("saves 0 stock when unlimited, whatever was typed", () => {
    expect(ProductInput.parse({ ...base, unlimitedStock: true, stockQuantity: "abc" }).stockQuantity).toBe(0);
  });
  it("turns an empty original price into null", () => {
    expect(ProductInput.parse({ ...base, originalPrice: "" }).originalPrice).toBeNull();
  });
});

describe("BulkEditInput", () => {
  it("keeps a percentage in hundredths of a percent", () => {
    const ids = ["0b6f5f7e-3c1e-4f1e-9f55-3f1d1d4f2a10"];
    expect(BulkEditInput.parse({ ids, priceAdjustment: { type: "percentage", value: "12.5" } }).priceAdjustment).toEqual({
      type: "percentage",
      value: 1250,
    });
  });
});

describe("centsToInput", () => {
  it("prints cents as a price input shows them", () => {
    expect(centsToInput(1250)).toBe("12.50");
    expect(centsToInput(-5)).toBe("-0.05");
    expect(centsToInput(null)).toBe("");
  });
});
