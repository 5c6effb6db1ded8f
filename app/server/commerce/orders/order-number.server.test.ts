import { describe, expect, it } from "vitest";
import { newOrderNumber, ORDER_NUMBER_PATTERN } from "./order-number.server";

describe("newOrderNumber", () => {
  it("reads ORD-<UTC day>-<4 characters without look-alikes>", () => {
    const n = newOrderNumber(new Date("2026-11-22T23:59:59Z"));
    expect(n).toMatch(ORDER_NUMBER_PATTERN);
    expect(n.startsWith("ORD-20261122-")).toBe(true);
    const suffixes = Array.from({ length: 500 }, () => newOrderNumber().slice(-4)).join("");
    expect(suffixes).not.toMatch(/[01ILO]/);
    expect(new Set(Array.from({ length: 200 }, () => newOrderNumber())).size).toBeGreaterThan(190);
  });
});
