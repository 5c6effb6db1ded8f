import { randomInt } from "node:crypto";

// No 0/O, 1/I/L: order numbers are read out over the phone.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** `ORD-20261122-7F3K`: the UTC day, then 4 random characters (collisions are retried by the caller). */
export function newOrderNumber(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll("-", "");
  let suffix = "";
  for (let i = 0; i < 4; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return `ORD-${day}-${suffix}`;
}

export const ORDER_NUMBER_PATTERN = /^ORD-\d{8}-[A-Z2-9]{4}$/;
