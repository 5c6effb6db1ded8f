import { describe, expect, it } from "vitest";
import { formatUtcDate } from "./utc-date";

describe("formatUtcDate", () => {
  const intl = {
    short: new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }),
    long: new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" }),
  };

  it("prints what Intl prints for en-US in UTC, every month, both lengths, around midnight", () => {
    for (const month of ["short", "long"] as const) {
      for (let m = 1; m <= 12; m++) {
        for (const iso of [`2025-${String(m).padStart(2, "0")}-01T00:00:00Z`, `2024-${String(m).padStart(2, "0")}-28T23:59:59.999Z`]) {
          expect(formatUtcDate(iso, month)).toBe(intl[month].format(new Date(iso)));
          expect(formatUtcDate(new Date(iso), month)).toBe(intl[month].format(new Date(iso)));
        }
      }
    }
    expect(formatUtcDate("2026-11-22T23:30:00Z", "short")).toBe("Nov 22, 2026");
    expect(formatUtcDate("2026-09-05T00:00:00Z", "long")).toBe("September 5, 2026");
  });

  it("refuses a date that is not one, as Intl does", () => {
    expect(() => formatUtcDate("not a date", "long")).toThrow(RangeError);
  });
});
