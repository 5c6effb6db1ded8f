import { count, desc } from "drizzle-orm";
import { csvCell } from "~/lib/csv";
import type { Db } from "../db/client.server";
import { newsletterSubscriptions } from "../db/schema";
import { checkRateLimits, rateLimitRefusal } from "../rate-limit.server";
import type { Refusal } from "../refusal.server";

/** Per client address: a person subscribes once or twice; a script filling the list is stopped. */
export const NEWSLETTER_LIMIT = { limit: 5, windowMs: 15 * 60_000 };

/**
 * Adds the address unless it is already there in any letter case (the unique index is on
 * lower(email)). Returns whether a new subscription was made, or the refusal (rate_limited) when
 * the address subscribed too often.
 */
export async function subscribe(
  db: Db,
  email: string,
  opts: { ip: string },
): Promise<{ ok: true; created: boolean } | { ok: false; refusal: Refusal }> {
  const limit = await checkRateLimits(db, [{ key: `newsletter:ip:${opts.ip}`, ...NEWSLETTER_LIMIT }]);
  if (!limit.ok) return { ok: false, refusal: rateLimitRefusal(limit.retryAfterSeconds) };
  const rows = await db
    .insert(newsletterSubscriptions)
    .values({ email })
    .onConflictDoNothing()
    .returning({ id: newsletterSubscriptions.id });
  return { ok: true, created: rows.length > 0 };
}

export const NEWSLETTER_PAGE_SIZE = 100;

export async function listSubscriptions(db: Db, page: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: newsletterSubscriptions.id,
        email: newsletterSubscriptions.email,
        createdAt: newsletterSubscriptions.createdAt,
      })
      .from(newsletterSubscriptions)
      .orderBy(desc(newsletterSubscriptions.createdAt), desc(newsletterSubscriptions.id))
      .limit(NEWSLETTER_PAGE_SIZE)
      .offset((page - 1) * NEWSLETTER_PAGE_SIZE),
    db.select({ n: count() }).from(newsletterSubscriptions),
  ]);
  return { subscriptions: rows, total: total!.n };
}

/** Every subscription, oldest first, as CSV text (email, subscribed_at in ISO 8601 UTC). */
export async function exportSubscriptionsCsv(db: Db): Promise<string> {
  const rows = await db
    .select({ email: newsletterSubscriptions.email, createdAt: newsletterSubscriptions.createdAt })
    .from(newsletterSubscriptions)
    .orderBy(newsletterSubscriptions.createdAt, newsletterSubscriptions.id);
  const lines = [
    "email,subscribed_at",
    ...rows.map((r) => `${csvCell(r.email)},${csvCell(r.createdAt.toISOString())}`),
  ];
  return `${lines.join("\r\n")}\r\n`;
}
