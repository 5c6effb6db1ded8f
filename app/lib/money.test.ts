import { describe, expect, it } from "vitest";
import { formatMoney, groupDigits } from "./money";
import { parseMoneyToCents } from "./money-input";

describe("money", () => {
  it("prints cents as dollars with 2 decimals", () => {
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(1250)).toBe("$12.50");
    expect(formatMoney(129999)).toBe("$1,299.99");
    expect(formatMoney(-123456789)).toBe("-$1,234,567.89");
  });
  it("groups whole numbers' digits as toLocaleString('en-US') does", () => {
    for (const n of [0, 7, 999, 1000, 12345, 999999, 1000000, 100000000, -1, -1234, Number.MAX_SAFE_INTEGER, 1e21, 12.5]) {
      expect(groupDigits(n), String(n)).toBe(n.toLocaleString("en-US"));
    }
  });
  it("parses what people type, and refuses what is not money", () => {
    expect(parseMoneyToCents("12.5")).toBe(1250);
    expect(parseMoneyToCents("$1,299.00")).toBe(129900);
    expect(parseMoneyToCents("12.345")).toBeNull();
    expect(parseMoneyToCents("-1")).toBeNull();
    expect(parseMoneyToCents("abc")).toBeNull();
  });
});
