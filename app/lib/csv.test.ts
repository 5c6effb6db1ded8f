import { describe, expect, it } from "vitest";
import { csvCell } from "./csv";

describe("csvCell", () => {
  it("escapes formulas and quotes in cells", () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvCell("@SUM(A1)")).toBe('"\'@SUM(A1)"');
    expect(csvCell("plain@example.test")).toBe('"plain@example.test"');
  });

  it("escapes every formula lead-in, and only at the start", () => {
    expect(csvCell("+1")).toBe('"\'+1"');
    expect(csvCell("-1")).toBe('"\'-1"');
    expect(csvCell("\tx")).toBe('"\'\tx"');
    expect(csvCell("\rx")).toBe('"\'\rx"');
    expect(csvCell("a=b")).toBe('"a=b"');
    expect(csvCell("")).toBe('""');
  });
});
