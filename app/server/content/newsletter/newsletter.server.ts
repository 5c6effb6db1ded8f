import { createHmac, timingSafeEqual } from "node:crypto";
import { and, count, desc, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { csvCell } from "~/lib/csv";
import { isUuid } from "~/lib/uuid";
import { checkRateLimits, type Db, getAuthSecret, logger, newsletterSubscriptions, publicUrl, purposeKey, sendMail } from "../../platform/index.server";
import { TooManyAttempts } from "../too-many-attempts.server";

/** Per client address: a person subscribes once or twice; a script filling the list is stopped. */
export const NEWSLETTER_LIMIT = { limit: 5, windowMs: 15 * 60_000 };
/** A second subscribe for an address still waiting for confirmation mails the link again, at most this often. */
export const CONFIRMATION_RESEND_MS = 10 * 60_000;

export type LinkStep = "confirm" | "unsubscribe";

/** The label of the key newsletter links are signed with (platform's purposeKey). */
const LINK_KEY_PURPOSE = "newsletter-links";

/**
 * The token in a confirmation or unsubscribe link: an HMAC of the subscription's id under a key
 * derived from the shop's secret for these links alone, so nobody can make one for an address
 * that is not theirs. A new subscription (after an unsubscribe) has a new id, so old links do
 * not touch it.
 */
function linkToken(step: LinkStep, id: string, key: Buffer | string = purposeKey(LINK_KEY_PURPOSE)) {
  return createHmac("sha256", key).update(`newsletter-${step}:${id}`).digest("base64url");
}

function sameToken(expected: string, token: string) {
  const want = Buffer.from(expected);
  const given = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * Links mailed before the derived key were signed with the auth secret itself; they are still
 * in inboxes (every newsletter mail's unsubscribe link), so they keep working. Nothing is signed
 * that way any more.
 */
function tokenMatches(step: LinkStep, id: string, token: string) {
  return sameToken(linkToken(step, id), token) || sameToken(linkToken(step, id, getAuthSecret()), token);
}

/** The link that confirms (or ends) a subscription; it works without signing in. */
export function newsletterLink(step: LinkStep, id: string) {
  const url = new URL(`/newsletter/${step}`, publicUrl());
  url.searchParams.set("id", id);
  url.searchParams.set("token", linkToken(step, id));
  return url.toString();
}

type Subscription = { id: string; email: string };

/**
 * Sends a newsletter-related mail. Every one of them ends with the link that unsubscribes
 * without signing in, and names it to mail programs too (List-Unsubscribe, one click: RFC 8058).
 */
export function sendNewsletterMail(db: Db, to: Subscription, mail: { kind: string; subject: string; text: string }) {
  const unsubscribe = newsletterLink("unsubscribe", to.id);
  return sendMail(db, {
    to: to.email,
    kind: mail.kind,
    subject: mail.subject,
    text: `${mail.text}\n\n--\nYou get this mail because this address was entered in the newsletter box at ${publicUrl()}.\nUnsubscribe (no sign-in needed): ${unsubscribe}`,
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  });
}

function sendConfirmationMail(db: Db, to: Subscription) {
  return sendNewsletterMail(db, to, {
    kind: "newsletter-confirmation",
    subject: "Confirm your Linen & Loft newsletter subscription",
    text: `Someone, hopefully you, asked for the Linen & Loft newsletter at this address.\n\nConfirm your subscription here:\n${newsletterLink("confirm", to.id)}\n\nUntil you do, this address is not on the list; if it was not you, ignore this mail and it never will be.`,
  });
}

/**
 * Mails go out after the answer, so the box answers as fast for a new address as for a known
 * one (it never reveals who is subscribed). Tests await them with `newsletterMailsSettled()`.
 */
const background = new Set<Promise<unknown>>();
function mailInBackground(db: Db, to: Subscription) {
  const p = sendConfirmationMail(db, to).catch(async (err: unknown) => {
    logger.error({ err: (err as Error)?.message }, "newsletter confirmation mail failed");
    // Not sent: the next subscribe may try again at once.
    await db
      .update(newsletterSubscriptions)
      .set({ confirmationSentAt: null })
      .where(eq(newsletterSubscriptions.id, to.id))
      .catch(() => undefined);
  });
  background.add(p);
  void p.finally(() => background.delete(p));
}
export async function newsletterMailsSettled() {
  while (background.size) await Promise.allSettled([...background]);
}

/**
 * Stores the address as waiting for confirmation (once, in any letter case: the unique index is
 * on lower(email)) and mails the confirmation link. For an address already waiting, the link is
 * mailed again if the last one went out CONFIRMATION_RESEND_MS ago or more; a confirmed address
 * gets nothing. The answer is the same in every case, or TooManyAttempts when this client
 * address subscribed too often.
 */
export async function subscribe(
  db: Db,
  email: string,
  opts: { ip: string },
): Promise<{ mailed: boolean }> {
  const limit = await checkRateLimits(db, [{ key: `newsletter:ip:${opts.ip}`, ...NEWSLETTER_LIMIT }]);
  if (!limit.ok) throw new TooManyAttempts(limit.retryAfterSeconds);
  const [created] = await db
    .insert(newsletterSubscriptions)
    .values({ email, confirmedAt: null, confirmationSentAt: sql`now()` })
    .onConflictDoNothing()
    .returning({ id: newsletterSubscriptions.id, email: newsletterSubscriptions.email });
  // Claimed in one statement, so two subscribes at once mail once.
  const due =
    created ??
    (
      await db
        .update(newsletterSubscriptions)
        .set({ confirmationSentAt: sql`now()` })
        .where(
          and(
            sql`lower(${newsletterSubscriptions.email}) = lower(${email})`,
            isNull(newsletterSubscriptions.confirmedAt),
            or(
              isNull(newsletterSubscriptions.confirmationSentAt),
              lt(newsletterSubscriptions.confirmationSentAt, sql`now() - make_interval(secs => ${CONFIRMATION_RESEND_MS / 1000})`),
            ),
          ),
        )
        .returning({ id: newsletterSubscriptions.id, email: newsletterSubscriptions.email })
    )[0];
  if (due) mailInBackground(db, due);
  return { mailed: Boolean(due) };
}

/** What a link's page shows before its button is pressed: whether the link is good, and for which address. */
export async function describeLink(db: Db, step: LinkStep, id: string, token: string) {
  if (!isUuid(id) || !tokenMatches(step, id, token)) return { valid: false as const };
  const [row] = await db
    .select({ email: newsletterSubscriptions.email, confirmedAt: newsletterSubscriptions.confirmedAt })
    .from(newsletterSubscriptions)
    .where(eq(newsletterSubscriptions.id, id));
  // An unsubscribe link stays good after its subscription is gone (pressing it again says so).
  if (!row) return step === "unsubscribe" ? { valid: true as const, email: null, confirmed: false } : { valid: false as const };
  return { valid: true as const, email: row.email, confirmed: row.confirmedAt !== null };
}

/** The confirmation link's button: the address is on the list from now on. False for a bad or outdated link. */
export async function confirmSubscription(db: Db, id: string, token: string): Promise<boolean> {
  if (!isUuid(id) || !tokenMatches("confirm", id, token)) return false;
  const [row] = await db
    .update(newsletterSubscriptions)
    .set({ confirmedAt: sql`coalesce(${newsletterSubscriptions.confirmedAt}, now())` })
    .where(eq(newsletterSubscriptions.id, id))
    .returning({ id: newsletterSubscriptions.id });
  return Boolean(row);
}

/** The unsubscribe link's button (or a mail program's one click): the subscription is deleted. False for a bad link. */
export async function unsubscribe(db: Db, id: string, token: string): Promise<boolean> {
  if (!isUuid(id) || !tokenMatches("unsubscribe", id, token)) return false;
  await db.delete(newsletterSubscriptions).where(eq(newsletterSubscriptions.id, id));
  return true;
}

export const NEWSLETTER_PAGE_SIZE = 100;

/** Confirmed subscriptions only: an address waiting for its link is not on the list. */
const confirmed = isNotNull(newsletterSubscriptions.confirmedAt);

export async function listSubscriptions(db: Db, page: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: newsletterSubscriptions.id,
        email: newsletterSubscriptions.email,
        createdAt: newsletterSubscriptions.createdAt,
      })
      .from(newsletterSubscriptions)
      .where(confirmed)
      .orderBy(desc(newsletterSubscriptions.createdAt), desc(newsletterSubscriptions.id))
      .limit(NEWSLETTER_PAGE_SIZE)
      .offset((page - 1) * NEWSLETTER_PAGE_SIZE),
    db.select({ n: count() }).from(newsletterSubscriptions).where(confirmed),
  ]);
  return { subscriptions: rows, total: total!.n };
}

/** Confirmed subscriptions, oldest first, as the export lists them; `limit`: only the first ones (the Reports page). */
export async function confirmedSubscribers(db: Db, limit?: number): Promise<{ email: string; createdAt: Date }[]> {
  const query = db
    .select({ email: newsletterSubscriptions.email, createdAt: newsletterSubscriptions.createdAt })
    .from(newsletterSubscriptions)
    .where(confirmed)
    .orderBy(newsletterSubscriptions.createdAt, newsletterSubscriptions.id);
  return limit === undefined ? query : query.limit(limit);
}

/** Every confirmed subscription, oldest first, as CSV text (email, subscribed_at in ISO 8601 UTC). */
export async function exportSubscriptionsCsv(db: Db): Promise<string> {
  const rows = await confirmedSubscribers(db);
  const lines = [
    "email,subscribed_at",
    ...rows.map((r) => `${csvCell(r.email)},${csvCell(r.createdAt.toISOString())}`),
  ];
  return `${lines.join("\r\n")}\r\n`;
}
