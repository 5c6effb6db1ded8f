import { createHash, randomBytes } from "node:crypto";

/**
 * How a visitor is recognised for one day without a cookie and without keeping who they are
 * (docs/rules/analytics.md, Visits). A request gives a key: its client address and user agent,
 * kept in this process's memory only until the next write, like the request itself. What is
 * stored is sha256 of the day's salt and that key, truncated: with the salt deleted once its day
 * is over, no stored hash can be matched to an address or a user agent, even by someone who can
 * read the database. Hashing when the batch is written, not per request, keeps a page view's
 * cost to a string and a map entry, and hashes each visitor once per batch.
 */

/** The UTC day of a moment, as PostgreSQL's `date` reads it (YYYY-MM-DD). */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Longer user agents are cut here (real ones are 100–250 characters), so a key's memory is bounded. */
const MAX_AGENT_LENGTH = 300;

/** A visitor's key for this process's memory: never written anywhere. */
export function visitorKey(address: string, userAgent: string): string {
  return `${address}\0${userAgent.slice(0, MAX_AGENT_LENGTH)}`;
}

/** 16 bytes of sha256 (128 bits, base64url): far from any collision at a shop's visitor counts. */
function truncated(hash: ReturnType<typeof createHash>): string {
  return hash.digest().subarray(0, 16).toString("base64url");
}

/** The stored hash of a visitor on the salt's day. */
export function visitorHash(salt: string, key: string): string {
  return truncated(createHash("sha256").update(salt).update("\0").update(key));
}

/**
 * The stored hash of one product added to the cart by one visitor on the salt's day: it makes a
 * second addition of that product by that visitor (a repeated click, a flood of beacons) a
 * duplicate the database refuses.
 */
export function cartHash(salt: string, key: string, productId: string): string {
  return truncated(createHash("sha256").update(salt).update("\0cart\0").update(key).update("\0").update(productId));
}

/** A day's salt: random, 32 bytes. */
export function newSalt(): string {
  return randomBytes(32).toString("base64url");
}
