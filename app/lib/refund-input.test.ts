import { describe, expect, it } from "vitest";
import { lineShareCents, parseRefundForm, REFUND_MESSAGES, refundTotalCents } from "./refund-input";

describe("the refund dialog's arithmetic", () => {
  it("shares a line's refundable amount half up, all of it for the last units, so steps add up to it", () => {
    expect(lineShareCents(1000, 3, 1)).toBe(333);
    expect(lineShareCents(1000, 3, 2)).toBe(667);
    expect(lineShareCents(1000, 3, 3)).toBe(1000);
    expect(lineShareCents(1001, 2, 1)).toBe(501); // 500.5 rounds up
    expect(lineShareCents(1000, 3, 0)).toBe(0);
    // 1 of 3, then 1 of the 2 left, then the last: exactly the line.
    const a = lineShareCents(1000, 3, 1);
    const b = lineShareCents(1000 - a, 2, 1);
    expect(a + b + lineShareCents(1000 - a - b, 1, 1)).toBe(1000);
  });

  it("adds the lines' shares, the shipping and the adjustment", () => {
    const view = { lines: [{ orderItemId: "a", refundableCents: 3000, refundableQuantity: 3 }, { orderItemId: "b", refundableCents: 999, refundableQuantity: 1 }] };
    expect(refundTotalCents(view as never, { quantities: { a: 1, b: 0 }, shippingCents: 250, adjustmentCents: 100 })).toBe(1350);
  });
});

describe("the refund dialog's form", () => {
  it("reads quantities, restock boxes and dollar amounts, leaving out lines of 0", () => {
    const parsed = parseRefundForm({
      intent: "refund",
      version: "4",
      "quantity.x": "1",
      "restock.x": "on",
      "quantity.y": "2",
      "quantity.z": "0",
      shipping: "$5.00",
      adjustment: "1.5",
      adjustmentReason: " Late ",
      reason: "",
    });
    expect(parsed).toEqual({
      ok: true,
      input: {
        expectedVersion: 4,
        lines: [
          { orderItemId: "x", quantity: 1, restock: true },
          { orderItemId: "y", quantity: 2, restock: false },
        ],
        shippingCents: 500,
        adjustmentCents: 150,
        adjustmentReason: "Late",
        reason: null,
        returnId: null,
      },
    });
  });

  it("carries a received return's id (the dialog opened from /admin/returns) and refuses one that is not an id", () => {
    const id = "0b6f8a0e-7c1d-4c8e-9a51-3f0d2b6c9e11";
    const parsed = parseRefundForm({ version: "2", "quantity.x": "1", returnId: id });
    expect(parsed.ok && parsed.input.returnId).toBe(id);
    expect(parseRefundForm({ version: "2", "quantity.x": "1", returnId: "1 or 1=1" })).toEqual({ ok: false, errors: { returnId: REFUND_MESSAGES.returnId } });
  });

  it("names the field of each problem", () => {
    expect(parseRefundForm({ version: "1", "quantity.x": "1.5", shipping: "abc", adjustment: "" })).toEqual({
      ok: false,
      errors: { "quantity.x": REFUND_MESSAGES.quantity, shipping: REFUND_MESSAGES.amount },
    });
    expect(parseRefundForm({ version: "1", "quantity.x": "-1" })).toMatchObject({ ok: false, errors: { "quantity.x": REFUND_MESSAGES.quantity } });
    expect(parseRefundForm({ version: "1", adjustment: "2" })).toEqual({ ok: false, errors: { adjustmentReason: REFUND_MESSAGES.adjustmentReason } });
    expect(parseRefundForm({ version: "1", "quantity.x": "0" })).toEqual({ ok: false, errors: { form: REFUND_MESSAGES.nothing } });
    expect(parseRefundForm({ "quantity.x": "1" })).toMatchObject({ ok: false, errors: { version: REFUND_MESSAGES.version } });
  });
});
