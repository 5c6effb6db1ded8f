import { describe, expect, it } from "vitest";
import { averageOrder, splitIntoMonths } from "./sales.server";

const range = (start: string, end: string) => ({ start, end, days: 0 });

describe("splitIntoMonths", () => {
  it("reads whole months from the monthly roll-up and the edges day by day", () => {
    expect(splitIntoMonths(range("2025-02-20", "2026-02-19"))).toEqual({
      months: ["2025-03-01", "2026-01-01"],
      days: [
        ["2025-02-20", "2025-02-28"],
        ["2026-02-01", "2026-02-19"],
      ],
    });
  });
  it("needs no days when the range is whole months", () => {
    expect(splitIntoMonths(range("2024-01-01", "2024-12-31"))).toEqual({ months: ["2024-01-01", "2024-12-01"], days: [] });
    expect(splitIntoMonths(range("2024-02-01", "2024-02-29"))).toEqual({ months: ["2024-02-01", "2024-02-01"], days: [] });
  });
  it("reads only days when no whole month fits", () => {
    expect(splitIntoMonths(range("2026-03-02", "2026-03-31"))).toEqual({ months: null, days: [["2026-03-02", "2026-03-31"]] });
    expect(splitIntoMonths(range("2026-03-15", "2026-04-10"))).toEqual({ months: null, days: [["2026-03-15", "2026-04-10"]] });
    expect(splitIntoMonths(range("2026-03-05", "2026-03-05"))).toEqual({ months: null, days: [["2026-03-05", "2026-03-05"]] });
  });
  it("keeps a whole month at the start or the end", () => {
    expect(splitIntoMonths(range("2026-03-01", "2026-04-10"))).toEqual({
      months: ["2026-03-01", "2026-03-01"],
      days: [["2026-04-01", "2026-04-10"]],
    });
  });
});

describe("averageOrder", () => {
  it("rounds to the cent and has none without orders", () => {
    expect(averageOrder(10_000, 3)).toBe(3333);
    expect(averageOrder(10_001, 2)).toBe(5001);
    expect(averageOrder(0, 0)).toBeNull();
  });
});
