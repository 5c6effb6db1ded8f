import { checkRateLimits, type Db, type RateLimitCheck, rateLimitRefusal } from "~/server/platform/http/index.server";
import { jsonResponse, respond } from "./errors.server";

/**
 * Counts the attempt against every check (app/server/platform/http/rate-limit.server.ts); over a limit, throws
 * the 429 `{ error: 'Too many attempts, try again in N minutes' }` with Retry-After.
 */
export async function rateLimit(db: Db, checks: RateLimitCheck[]): Promise<void> {
  const r = await checkRateLimits(db, checks);
  if (!r.ok) throw respond(rateLimitRefusal(r.retryAfterSeconds));
}

/**
 * For resource routes (fetch() clients): counts the attempt and answers a plain JSON 429 with
 * Retry-After when over a limit; null when the request may go on.
 */
export async function rateLimitedJson(db: Db, checks: RateLimitCheck[]): Promise<Response | null> {
  const r = await checkRateLimits(db, checks);
  if (r.ok) return null;
  const refusal = rateLimitRefusal(r.retryAfterSeconds);
  return jsonResponse(refusal, { error: refusal.message });
}
