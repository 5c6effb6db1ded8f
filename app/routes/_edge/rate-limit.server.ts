import type { Db } from "~/server/db/client.server";
import { checkRateLimits, rateLimitRefusal, type RateLimitCheck } from "~/server/rate-limit.server";
import { respond } from "./errors.server";

/**
 * Counts the attempt against every check (app/server/rate-limit.server.ts); over a limit, throws
 * the 429 `{ error: 'Too many attempts, try again in N minutes' }` with Retry-After.
 */
export async function rateLimit(db: Db, checks: RateLimitCheck[]): Promise<void> {
  const r = await checkRateLimits(db, checks);
  if (!r.ok) throw respond(rateLimitRefusal(r.retryAfterSeconds));
}
