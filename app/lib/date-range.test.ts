import { describe, expect, it } from "vitest";
import { chartBucket, daysOf, formatChange, parseDay, percentChange, rangeSearch, readDateRange } from "./date-range";

const now = new Date("2026-03-15T22:30:00Z");
const read = (q: string) => readDateRange(new URLSearchParams(q), now);

describe("readDateRange", () => {
  it("defaults to the last 30 days, compared with the 30 before", () => {
    const { range, error } = read("");
    expect(error).toBeNull();
    expect(range).toMatchObject({ preset: "30d", start: "2026-02-14", end: "2026-03-15", days: 30 });
    expect(range.previous).toEqual({ start: "2026-01-15", end: "2026-02-13", days: 30 });
  });

  it("reads each preset by UTC calendar days", () => {
    expect(read("range=7d").range).toMatchObject({ start: "2026-03-09", end: "2026-03-15", days: 7 });
    expect(read("range=90d").range.days).toBe(90);
    expect(read("range=this-month").range).toMatchObject({ start: "2026-03-01", end: "2026-03-15", days: 15 });
    expect(read("range=this-month").range.previous).toEqual({ start: "2026-02-14", end: "2026-02-28", days: 15 });
    expect(read("range=last-month").range).toMatchObject({ start: "2026-02-01", end: "2026-02-28", days: 28 });
    expect(read("range=this-year").range).toMatchObject({ start: "2026-01-01", end: "2026-03-15", days: 74 });
  });

  it("reads a custom range and its previous period", () => {
    const { range, error } = read("range=custom&from=2025-12-30&to=2026-01-02");
    expect(error).toBeNull();
    expect(range).toMatchObject({ preset: "custom", start: "2025-12-30", end: "2026-01-02", days: 4 });
    expect(range.previous).toEqual({ start: "2025-12-26", end: "2025-12-29", days: 4 });
    expect(rangeSearch(range)).toBe("range=custom&from=2025-12-30&to=2026-01-02");
  });

  it("shows the default range with a message for a bad request", () => {
    for (const q of [
      "range=custom&from=2026-03-10&to=2026-03-01",
      "range=custom&from=2000-01-01&to=2020-01-01",
      "range=custom&from=garbage&to=2026-01-01",
      "range=custom&from=2026-02-30&to=2026-03-01",
      "range=custom",
      "from=2026-01-01",
      "range=forever",
    ]) {
      const { range, error } = read(q);
      expect(error, q).toMatch(/Showing the last 30 days/);
      expect(range.preset, q).toBe("30d");
    }
    expect(read("range=custom&from=2026-03-10&to=2026-03-01").error).toMatch(/end date is before the start/);
    expect(read("range=custom&from=2000-01-01&to=2020-01-01").error).toMatch(/at most 5 years/);
  });
});

describe("helpers", () => {
  it("knows real days", () => {
    expect(parseDay("2024-02-29")).not.toBeNull();
    expect(parseDay("2025-02-29")).toBeNull();
    expect(parseDay("2025-1-01")).toBeNull();
  });
  it("lists a range's days", () => {
    expect(daysOf({ start: "2026-02-27", end: "2026-03-01", days: 3 })).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
  });
  it("computes and prints changes", () => {
    expect(percentChange(150, 100)).toBe(50);
    expect(percentChange(2, 3)).toBe(-33.3);
    expect(percentChange(0, 0)).toBe(0);
    expect(percentChange(5, 0)).toBeNull();
    expect(formatChange(50)).toBe("+50%");
    expect(formatChange(-33.3)).toBe("−33.3%");
    expect(formatChange(null)).toBe("new");
  });
  it("charts long ranges by week or month", () => {
    expect(chartBucket({ start: "", end: "", days: 30 })).toBe("day");
    expect(chartBucket({ start: "", end: "", days: 365 })).toBe("week");
    expect(chartBucket({ start: "", end: "", days: 800 })).toBe("month");
  });
});

describe("the picker's form", () => {
  it("takes dates edited away from the chosen preset as a custom range", () => {
    const same = read("range=7d&from=2026-03-09&to=2026-03-15");
    expect(same.range.preset).toBe("7d");
    const edited = read("range=7d&from=2026-03-01&to=2026-03-15");
    expect(edited.range).toMatchObject({ preset: "custom", start: "2026-03-01", days: 15 });
    expect(read("range=7d&from=2026-03-20&to=2026-03-15").error).toMatch(/end date is before/);
  });
});
