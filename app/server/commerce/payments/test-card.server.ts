import { z } from "zod";

/** The two cards the test provider knows (Stripe's own test numbers). */
export const TEST_CARDS = {
  pays: "4242424242424242",
  declined: "4000000000000002",
} as const;

export type CardInput = { cardNumber: string; expiry: string; cvc: string };
export type CardField = keyof CardInput;
export type CardCheck =
  | { ok: true; outcome: "pays" | "declined"; last4: string }
  | { ok: false; fieldErrors: Partial<Record<CardField, string>> };

const Raw = z.object({
  cardNumber: z.string().max(40).catch(""),
  expiry: z.string().max(20).catch(""),
  cvc: z.string().max(10).catch(""),
});

/**
 * Checks the card form as a card network would, then decides: 4242… pays, 4000…0002 is
 * declined, anything else is refused at the field so nobody mistakes this page for a real one.
 */
export function checkTestCard(input: unknown, now = new Date()): CardCheck {
  const raw = Raw.parse(input ?? {});
  const fieldErrors: Partial<Record<CardField, string>> = {};

  const digits = raw.cardNumber.replace(/[\s-]/g, "");
  if (!digits) fieldErrors.cardNumber = "Enter your card number";
  else if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) fieldErrors.cardNumber = "Your card number is invalid";
  else if (digits !== TEST_CARDS.pays && digits !== TEST_CARDS.declined) {
    fieldErrors.cardNumber = "Use the test card 4242 4242 4242 4242 (or 4000 0000 0000 0002 to see a decline)";
  }

  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(raw.expiry);
  if (!raw.expiry.trim()) fieldErrors.expiry = "Enter the expiry date";
  else if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) fieldErrors.expiry = "Use the format MM / YY";
  else {
    const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
    // A card is valid through the last day of its expiry month.
    const endOfMonth = new Date(Date.UTC(year, Number(m[1]), 1));
    if (endOfMonth <= now) fieldErrors.expiry = "Your card has expired";
  }

  if (!raw.cvc.trim()) fieldErrors.cvc = "Enter the security code";
  else if (!/^\d{3,4}$/.test(raw.cvc.trim())) fieldErrors.cvc = "The security code is 3 or 4 digits";

  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };
  return { ok: true, outcome: digits === TEST_CARDS.pays ? "pays" : "declined", last4: digits.slice(-4) };
}

function luhn(digits: string) {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
