import { isIPv6 } from "node:net";
import { and, eq, gt, inArray, or, sql } from "drizzle-orm";
import { getEnv } from "../env.server";
import type { Db } from "../db/client.server";
import { rateLimits } from "../db/schema";
import type { Refusal } from "../refusal.server";

export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Fixed-window counter in PostgreSQL, so every app server shares it. `key` names what is
 * limited and for whom, e.g. `sign-in:ip:203.0.113.9` or `sign-in:email:ann@example.com`.
 */
export async function hit(db: Db, key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
  if (getEnv().RATE_LIMIT_DISABLED) return { ok: true };
  const row = await countAttempt(db, key, windowMs);
  return verdict(row, limit);
}

type Counted = { count: number; resetAt: Date };

function verdict(row: Counted, limit: number): RateLimitResult {
  if (row.count <= limit) return { ok: true };
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((row.resetAt.getTime() - Date.now()) / 1000)) };
}

/** Counts one attempt under `key` (a new window once the last one ended); the count so far and when it resets. */
async function countAttempt(db: Db, key: string, windowMs: number): Promise<Counted> {
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt: new Date(Date.now() + windowMs) })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${rateLimits.resetAt} <= now() then now() + make_interval(secs => ${windowMs / 1000}) else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
  return row!;
}

/**
 * Counts an attempt under `perSource` (one client address at one target, e.g. an email and an
 * address); the first attempt of that source in its window also counts under `sources`, whose
 * limit is then on how many different sources tried the target. A later attempt of a known
 * source only reads `sources`. So one address cannot use up the target's limit, and many
 * addresses still meet it.
 */
export async function hitPerSource(
  db: Db,
  perSource: { key: string; limit: number; windowMs: number },
  sources: { key: string; limit: number; windowMs: number },
): Promise<RateLimitResult> {
  if (getEnv().RATE_LIMIT_DISABLED) return { ok: true };
  const own = await countAttempt(db, perSource.key, perSource.windowMs);
  const first = verdict(own, perSource.limit);
  if (!first.ok) return first;
  if (own.count === 1) return hit(db, sources.key, sources.limit, sources.windowMs);
  const [row] = await db
    .select({ count: rateLimits.count, resetAt: rateLimits.resetAt })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, sources.key), gt(rateLimits.resetAt, sql`now()`)));
  return row ? verdict(row, sources.limit) : { ok: true };
}

/** Whether `key` is already over `limit` in its window, without counting an attempt. */
export async function overLimit(db: Db, key: string, limit: number): Promise<RateLimitResult> {
  if (getEnv().RATE_LIMIT_DISABLED) return { ok: true };
  const [row] = await db
    .select({ count: rateLimits.count, resetAt: rateLimits.resetAt })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, sql`now()`)));
  return row ? verdict(row, limit) : { ok: true };
}

/** Forgets the counts under these keys and under every key that starts with one of the prefixes. */
export async function clearRateLimits(db: Db, keys: string[], prefixes: string[] = []) {
  const conditions = [
    ...(keys.length ? [inArray(rateLimits.key, keys)] : []),
    ...prefixes.map((p) => sql`starts_with(${rateLimits.key}, ${p})`),
  ];
  if (conditions.length) await db.delete(rateLimits).where(or(...conditions));
}

/** 'Too many attempts, try again in N minutes' (accounts issue), rounded up to whole minutes. */
export function tooManyAttemptsMessage(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts, try again in ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

export type RateLimitCheck = { key: string; limit: number; windowMs: number };

/** Counts an attempt against each key in turn; the first one over its limit refuses (later ones are not counted). */
export async function checkRateLimits(db: Db, checks: RateLimitCheck[]): Promise<RateLimitResult> {
  for (const c of checks) {
    const r = await hit(db, c.key, c.limit, c.windowMs);
    if (!r.ok) return r;
  }
  return { ok: true };
}

/** A limit that was hit, as the refusal the person reads ('Too many attempts, try again in N minutes'). */
export function rateLimitRefusal(retryAfterSeconds: number): Refusal {
  return { kind: "rate_limited", message: tooManyAttemptsMessage(retryAfterSeconds), retryAfterSeconds };
}

/**
 * The client's address, set by server/app.ts from the socket (or, when TRUST_PROXY is on, from
 * the X-Forwarded-For entry the one trusted proxy added); an incoming header of that name is
 * always overwritten.
 */
export function clientIp(request: Request): string {
  return limitedSource(request.headers.get("x-shop-client-ip") ?? "unknown");
}

/**
 * The source a limit counts for an address: an IPv4 address as it is (also when written as
 * IPv6-mapped, '::ffff:203.0.113.9'), an IPv6 address by its /64 network ('2001:db8:1:2::/64'),
 * since one household or server is given a whole /64 and could otherwise count as endless
 * addresses (docs/rules/accounts.md).
 */
export function limitedSource(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const front = head ? head.split(":") : [];
  const back = address.includes("::") ? (tail ? tail.split(":") : []) : [];
  const groups = address.includes("::") ? [...front, ...Array(8 - front.length - back.length).fill("0"), ...back] : front;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}
