import { describe, expect, it } from "vitest";
import { checkCheckoutForm, fingerprint } from "./checkout";

const complete = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: " ada@example.test ",
  address: "1 Linen Lane",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
};

describe("checkCheckoutForm (docs/rules/cart-and-checkout.md, The form)", () => {
  it("accepts a complete form: phone optional, country US by default, values trimmed", () => {
    expect(checkCheckoutForm(complete)).toEqual({
      ok: true,
      data: { ...complete, email: "ada@example.test", phone: "", country: "US" },
    });
  });

  it("any required field empty gives 'Missing Information' / 'Please fill in all required fields.'", () => {
    expect(checkCheckoutForm({ ...complete, lastName: " ", zipCode: "" })).toEqual({
      ok: false,
      title: "Missing Information",
      description: "Please fill in all required fields.",
      fieldErrors: { lastName: "Required", zipCode: "Required" },
    });
    expect(checkCheckoutForm(undefined)).toMatchObject({ ok: false, title: "Missing Information" });
  });

  it("a malformed email is named beside the field", () => {
    expect(checkCheckoutForm({ ...complete, email: "ada@" })).toMatchObject({
      ok: false,
      fieldErrors: { email: "Enter a valid email address" },
    });
  });
});

describe("fingerprint", () => {
  it("changes when the cart changes and is stable otherwise", () => {
    const a = fingerprint({ lines: [{ id: "x", quantity: 1 }] });
    expect(fingerprint({ lines: [{ id: "x", quantity: 1 }] })).toBe(a);
    expect(fingerprint({ lines: [{ id: "x", quantity: 2 }] })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{8}$/);
  });
});
