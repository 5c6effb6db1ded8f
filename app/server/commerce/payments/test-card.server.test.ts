import { describe, expect, it } from "vitest";
import { checkTestCard } from "./test-card.server";

const now = new Date("2026-11-22T12:00:00Z");

describe("checkTestCard", () => {
  it("pays with 4242… and declines 4000…0002, spaces and dashes allowed", () => {
    expect(checkTestCard({ cardNumber: "4242 4242 4242 4242", expiry: "12/26", cvc: "123" }, now)).toEqual({
      ok: true,
      outcome: "pays",
      last4: "4242",
    });
    expect(checkTestCard({ cardNumber: "4000-0000-0000-0002", expiry: "01 / 2030", cvc: "1234" }, now)).toMatchObject({
      ok: true,
      outcome: "declined",
    });
  });

  it("accepts a card through the last day of its expiry month, not after", () => {
    expect(checkTestCard({ cardNumber: "4242424242424242", expiry: "11/26", cvc: "123" }, now).ok).toBe(true);
    expect(checkTestCard({ cardNumber: "4242424242424242", expiry: "10/26", cvc: "123" }, now)).toEqual({
      ok: false,
      fieldErrors: { expiry: "Your card has expired" },
    });
  });

  it("names every problem beside its field", () => {
    expect(checkTestCard({}, now)).toEqual({
      ok: false,
      fieldErrors: { cardNumber: "Enter your card number", expiry: "Enter the expiry date", cvc: "Enter the security code" },
    });
    expect(checkTestCard({ cardNumber: "4242 4242 4242 4241", expiry: "0/30", cvc: "12a" }, now)).toEqual({
      ok: false,
      fieldErrors: {
        cardNumber: "Your card number is invalid",
        expiry: "Use the format MM / YY",
        cvc: "The security code is 3 or 4 digits",
      },
    });
    // A valid number that is not one of the two test cards.
    expect(checkTestCard({ cardNumber: "5555555555554444", expiry: "12/30", cvc: "123" }, now)).toMatchObject({
      ok: false,
      fieldErrors: { cardNumber: expect.stringContaining("4242 4242 4242 4242") },
    });
  });

  it("ignores fields of the wrong type instead of throwing", () => {
    expect(checkTestCard({ cardNumber: 4242, expiry: ["12/30"], cvc: null }, now).ok).toBe(false);
  });
});
