import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { DataRequestPurpose } from "~/lib/personal-data";
import { type Db, verification } from "../../platform/index.server";

/**
 * The mailed links that confirm a request about one's own data (docs/rules/personal-data.md): an
 * account without a password deleting itself, a guest's copy or erasure. Made as the sign-in link
 * is (a random token in a `verifications` row, better-auth's table for one-time tokens), because
 * these must work ONCE and expire, which a stateless HMAC link cannot promise:
 * - the token is 32 random bytes (43 base64url characters); only its SHA-256 is stored, so the
 *   table read by someone else opens nothing;
 * - the row says what the link is for and whom (an account id, or the guest's address);
 * - it works within DATA_LINK_TTL_MS, and using it deletes the row in the transaction that acts.
 * A tampered, replayed or expired token finds no row: the page answers the same 404 as any bad link.
 */

export const DATA_LINK_TTL_MS = 60 * 60_000;

const PREFIX = "data-request:";

export type DataRequestSubject = { userId: string } | { email: string };
/** `reviews`: what the account's deletion does with its reviews, chosen before the mail was sent. */
export type DataRequest = { purpose: DataRequestPurpose; subject: DataRequestSubject; reviews?: "delete" | "keep" };

const identifierOf = (token: string) => `${PREFIX}${createHash("sha256").update(token).digest("base64url")}`;

/** Only what we issue can be a token: anything else is not looked up at all. */
const wellFormed = (token: unknown): token is string => typeof token === "string" && /^[A-Za-z0-9_-]{43}$/.test(token);

function parse(value: string): DataRequest | null {
  try {
    const v = JSON.parse(value) as { purpose?: unknown; userId?: unknown; email?: unknown; reviews?: unknown };
    const purpose = v.purpose === "delete-account" || v.purpose === "export" || v.purpose === "erase" ? v.purpose : null;
    if (!purpose) return null;
    const reviews = v.reviews === "keep" ? "keep" : "delete";
    if (typeof v.userId === "string") return { purpose, subject: { userId: v.userId }, reviews };
    if (typeof v.email === "string") return { purpose, subject: { email: v.email } };
    return null;
  } catch {
    return null;
  }
}

/** A new link's token for this request; the mail carries it, the table keeps its hash. */
export async function issueDataRequestToken(db: Db, request: DataRequest, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(verification).values({
    id: randomUUID(),
    identifier: identifierOf(token),
    value: JSON.stringify({ purpose: request.purpose, ...request.subject, ...(request.reviews ? { reviews: request.reviews } : {}) }),
    expiresAt: new Date(now.getTime() + DATA_LINK_TTL_MS),
  });
  return token;
}

/** What a still-valid link is for, without using it (the page a link opens shows its button). */
export async function peekDataRequest(db: Db, token: unknown): Promise<DataRequest | null> {
  if (!wellFormed(token)) return null;
  const [row] = await db
    .select({ value: verification.value })
    .from(verification)
    .where(and(eq(verification.identifier, identifierOf(token)), gt(verification.expiresAt, new Date())));
  return row ? parse(row.value) : null;
}

/**
 * Uses the link once: `act` runs in the transaction that locked the link's row, and the row is
 * deleted when it returns. Two presses of the same link wait for each other; the second finds no
 * row. `act` must write through the `tx` it is given: the erasures delete the person's one-time
 * links themselves, and from another connection they would wait for this lock forever. When `act`
 * throws (a refusal such as an order being paid), everything rolls back and the link stays usable.
 * Returns null (and runs nothing) for a token that is unknown, used, expired or for another purpose.
 */
export async function redeemDataRequest<T>(
  db: Db,
  token: unknown,
  purposes: readonly DataRequestPurpose[],
  act: (request: DataRequest, tx: Db) => Promise<T>,
): Promise<{ value: T } | null> {
  if (!wellFormed(token)) return null;
  return db.transaction(async (tx) => {
    const result = await tx.execute<{ value: string }>(
      sql`select value from verifications where identifier = ${identifierOf(token)} and expires_at > now() for update`,
    );
    const request = result.rows[0] ? parse(result.rows[0].value) : null;
    if (!request || !purposes.includes(request.purpose)) return null;
    const value = await act(request, tx);
    await tx.delete(verification).where(eq(verification.identifier, identifierOf(token)));
    return { value };
  });
}

/** Expired data-request links (the tokens and the addresses they name), for the daily clean-up. */
export async function deleteExpiredDataRequests(db: Db, now = new Date()): Promise<number> {
  const result = await db.execute(sql`delete from verifications where identifier like ${`${PREFIX}%`} and expires_at <= ${now.toISOString()}::timestamptz`);
  return result.rowCount ?? 0;
}
