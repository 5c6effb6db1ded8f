import { describe, expect, it } from "vitest";
import { rangeCover, splitIntoMonths } from "./range-cover.server";
import { averageOrder } from "./sales.server";

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

describe("rangeCover", () => {
  it("reads a partial month as its days when they are fewer than the days it leaves out", () => {
    expect(rangeCover(range("2025-11-26", "2026-11-25"))).toEqual({
      // Nov 26–30, 2025 (5 days) as days; Nov 1–25, 2026 as the month less Nov 26–30.
      months: [
        "2025-12-01", "2026-01-01", "2026-02-01", "2026-03-01", "2026-04-01", "2026-05-01",
        "2026-06-01", "2026-07-01", "2026-08-01", "2026-09-01", "2026-10-01", "2026-11-01",
      ],
      addDays: [["2025-11-26", "2025-11-30"]],
      subtractDays: [["2026-11-26", "2026-11-30"]],
    });
  });
  it("covers a range inside one month, or across two, the cheaper way for each", () => {
    expect(rangeCover(range("2026-03-03", "2026-03-30"))).toEqual({
      months: ["2026-03-01"],
      addDays: [],
      subtractDays: [
        ["2026-03-01", "2026-03-02"],
        ["2026-03-31", "2026-03-31"],
      ],
    });
    expect(rangeCover(range("2026-03-10", "2026-03-12"))).toEqual({ months: [], addDays: [["2026-03-10", "2026-03-12"]], subtractDays: [] });
    expect(rangeCover(range("2026-03-25", "2026-04-20"))).toEqual({
      months: ["2026-04-01"],
      addDays: [["2026-03-25", "2026-03-31"]],
      subtractDays: [["2026-04-21", "2026-04-30"]],
    });
  });
  it("needs no days for whole months", () => {
    expect(rangeCover(range("2024-02-01", "2024-03-31"))).toEqual({ months: ["2024-02-01", "2024-03-01"], addDays: [], subtractDays: [] });
  });
});

describe("averageOrder", () => {
  it("rounds to the cent and has none without orders", () => {
    expect(averageOrder(10_000, 3)).toBe(3333);
    expect(averageOrder(10_001, 2)).toBe(5001);
    expect(averageOrder(0, 0)).toBeNull();
  });
});
