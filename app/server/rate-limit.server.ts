import { sql } from "drizzle-orm";
import { getEnv } from "./env.server";
import type { Db } from "./db/client.server";
import { rateLimits } from "./db/schema";
import type { Refusal } from "./refusal.server";

export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Fixed-window counter in PostgreSQL, so every app server shares it. `key` names what is
 * limited and for whom, e.g. `sign-in:ip:203.0.113.9` or `sign-in:email:ann@example.com`.
 */
export async function hit(db: Db, key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
  if (getEnv().RATE_LIMIT_DISABLED) return { ok: true };
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
  if (row!.count <= limit) return { ok: true };
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((row!.resetAt.getTime() - Date.now()) / 1000)) };
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
  return request.headers.get("x-shop-client-ip") ?? "unknown";
}
