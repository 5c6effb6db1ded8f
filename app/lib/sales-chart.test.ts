import { describe, expect, it } from "vitest";
import { daysOf } from "./date-range";
import { bucketSales } from "./sales-chart";

const days = (start: string, count: number, f: (i: number) => [number, number] = () => [100, 1]) =>
  daysOf({ start, end: start, days: count }).map((day, i) => ({ day, revenueCents: f(i)[0], orders: f(i)[1] }));

describe("bucketSales", () => {
  it("keeps one bar per day for short ranges", () => {
    const points = bucketSales(days("2026-03-01", 3, (i) => [i * 100, i]), "day");
    expect(points).toEqual([
      { start: "2026-03-01", end: "2026-03-01", label: "Mar 1", revenueCents: 0, refundedCents: 0, netCents: 0, orders: 0 },
      { start: "2026-03-02", end: "2026-03-02", label: "Mar 2", revenueCents: 100, refundedCents: 0, netCents: 100, orders: 1 },
      { start: "2026-03-03", end: "2026-03-03", label: "Mar 3", revenueCents: 200, refundedCents: 0, netCents: 200, orders: 2 },
    ]);
  });

  it("sums each bar's refunds and net, net below zero when more went back than came in", () => {
    const sales = [
      { day: "2026-03-02", revenueCents: 2500, orders: 1, refundedCents: 0 },
      { day: "2026-03-03", revenueCents: 0, orders: 0, refundedCents: 700 },
      { day: "2026-03-09", revenueCents: 1000, orders: 1, refundedCents: 300 },
    ];
    expect(bucketSales(sales, "day").map((p) => [p.label, p.revenueCents, p.refundedCents, p.netCents])).toEqual([
      ["Mar 2", 2500, 0, 2500],
      ["Mar 3", 0, 700, -700],
      ["Mar 9", 1000, 300, 700],
    ]);
    // March 2 and 3 are one week (Monday to Sunday), March 9 the next.
    expect(bucketSales(sales, "week").map((p) => [p.label, p.revenueCents, p.refundedCents, p.netCents])).toEqual([
      ["Mar 2 – Mar 3", 2500, 700, 1800],
      ["Mar 9", 1000, 300, 700],
    ]);
  });

  it("sums Monday-to-Sunday weeks, the first and last cut to the range", () => {
    // 2026-03-04 is a Wednesday; 17 days end on Friday 2026-03-20.
    const points = bucketSales(days("2026-03-04", 17), "week");
    expect(points.map((p) => [p.label, p.revenueCents, p.orders])).toEqual([
      ["Mar 4 – Mar 8", 500, 5],
      ["Mar 9 – Mar 15", 700, 7],
      ["Mar 16 – Mar 20", 500, 5],
    ]);
  });

  it("sums calendar months", () => {
    const points = bucketSales(days("2024-01-30", 33), "month");
    expect(points.map((p) => [p.label, p.start, p.end, p.orders])).toEqual([
      ["Jan 2024", "2024-01-30", "2024-01-31", 2],
      ["Feb 2024", "2024-02-01", "2024-02-29", 29],
      ["Mar 2024", "2024-03-01", "2024-03-02", 2],
    ]);
  });
});
