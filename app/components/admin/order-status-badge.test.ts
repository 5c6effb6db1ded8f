import { describe, expect, it } from "vitest";
import { adminOrderStatusLook } from "./order-status-badge";

describe("admin order status badge (docs/rules/admin.md, Orders)", () => {
  it("completed green, processing blue, pending yellow, cancelled red, shipped its own look, unknown like pending", () => {
    expect(adminOrderStatusLook("completed")).toBe("success");
    expect(adminOrderStatusLook("processing")).toBe("info");
    expect(adminOrderStatusLook("pending")).toBe("warning");
    expect(adminOrderStatusLook("cancelled")).toBe("destructive");
    expect(adminOrderStatusLook("shipped")).toBe("shipped");
    expect(adminOrderStatusLook("on-hold")).toBe("warning");
    expect(adminOrderStatusLook("__proto__")).toBe("warning");
  });
});
