import { describe, expect, it } from "vitest";
import { orderStatusVariant } from "./order-status-badge";

describe("order status badge colours (docs/rules/catalogue-data.md, Order)", () => {
  it("maps completed green, processing blue, pending yellow, cancelled red, anything else grey", () => {
    expect(orderStatusVariant("completed")).toBe("success");
    expect(orderStatusVariant("processing")).toBe("info");
    expect(orderStatusVariant("pending")).toBe("warning");
    expect(orderStatusVariant("cancelled")).toBe("destructive");
    expect(orderStatusVariant("shipped")).toBe("neutral");
    expect(orderStatusVariant("refunded")).toBe("neutral");
    expect(orderStatusVariant("constructor")).toBe("neutral");
  });
});
