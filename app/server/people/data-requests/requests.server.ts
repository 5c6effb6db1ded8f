import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { DataRequestPurpose } from "~/lib/personal-data";
import {
  account,
  checkRateLimits,
  composeMail,
  type Db,
  DomainError,
  loadTemplates,
  logger,
  publicUrl,
  queueMail,
  rateLimitRefusal,
  sendMail,
} from "../../platform/index.server";
import { getAuth } from "../auth/auth.server";
import { callAuth } from "../auth/auth-api.server";
import { issueDataRequestToken } from "./links.server";

/** Where every data-request link lands (under /profile, so no cache ever keeps its answer). */
export const DATA_REQUEST_PATH = "/profile/data-request";

const linkUrl = (token: string) => `${publicUrl()}${DATA_REQUEST_PATH}?token=${token}`;

/** As many as the other forms that send mail (contact, the withdrawal's link): per client address, and per address asked about. */
export const DATA_REQUEST_LIMITS = {
  ip: { limit: 5, windowMs: 15 * 60_000 },
  email: { limit: 3, windowMs: 60 * 60_000 },
};

/** Too many 'Your data' requests (the edge sends Retry-After). */
export class TooManyDataRequests extends DomainError<"rate_limited"> {
  constructor(retryAfterSeconds: number) {
    super(rateLimitRefusal(retryAfterSeconds).message, "rate_limited", { retryAfterSeconds });
  }
}

/** Whether the account signs in with a password (else it was made by a link, and its deletion is confirmed by mail). */
export async function accountHasPassword(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential"), isNotNull(account.password)))
    .limit(1);
  return Boolean(row);
}

/**
 * The signed-in person's own password, checked by better-auth before an account is deleted. Counted
 * with the other guesses at the account's password (auth-guards.server.ts, PASSWORD_CHECKS): past
 * the limits the session is ended and `signedOut` says so.
 */
export async function verifyAccountPassword(request: Request, password: string) {
  if (!password) return { ok: false as const, message: "Enter your password.", signedOut: false };
  const r = await callAuth(() => getAuth().api.verifyPassword({ body: { password }, headers: request.headers, asResponse: true }));
  if (r.ok) return { ok: true as const };
  if (r.code === "INVALID_PASSWORD") return { ok: false as const, message: "That password is not correct.", signedOut: false };
  if (r.kind === "rate_limited") return { ok: false as const, message: r.message, signedOut: true };
  if (r.kind === "not_signed_in") return { ok: false as const, message: "Please sign in again.", signedOut: true };
  return { ok: false as const, message: "Something went wrong. Please try again.", signedOut: false };
}

/** Mails the link that confirms deleting an account without a password; the reviews choice travels in it. */
export async function mailAccountDeletionLink(db: Db, to: { userId: string; email: string; name?: string | null }, reviews: "delete" | "keep") {
  const token = await issueDataRequestToken(db, { purpose: "delete-account", subject: { userId: to.userId }, reviews });
  const url = linkUrl(token);
  const mail = await composeMail(db, async (ctx) => (await loadTemplates()).accountDeletionMail(ctx, { name: to.name, url }));
  await sendMail(db, { to: to.email, kind: "account-deletion", secretLink: url, ...mail });
}

/** Whether the shop keeps anything under this address: an account, an order, a newsletter entry, a message. */
export async function holdsDataFor(db: Db, email: string): Promise<boolean> {
  const e = email.trim().toLowerCase();
  const result = await db.execute<{ found: boolean }>(sql`
    select exists (select 1 from users where lower(email) = ${e})
        or exists (select 1 from orders where lower(email) = ${e})
        or exists (select 1 from newsletter_subscriptions where lower(email) = ${e})
        or exists (select 1 from contact_messages where lower(email) = ${e}) as found`);
  return Boolean(result.rows[0]?.found);
}

/**
 * The footer's 'Your data' page: a guest asks for a copy or for erasure. The link is mailed only
 * to an address the shop holds data about, and the caller answers the same sentence either way
 * (DATA_REQUEST_SENT), so the page tells nobody whether an address is known. Counted per client
 * address and per address asked about before anything is looked up.
 */
export async function requestGuestData(db: Db, input: { email: string; purpose: Exclude<DataRequestPurpose, "delete-account"> }, client: { ip: string }) {
  const email = input.email.trim().toLowerCase();
  const limit = await checkRateLimits(db, [
    { key: `data-request:ip:${client.ip}`, ...DATA_REQUEST_LIMITS.ip },
    { key: `data-request:email:${email}`, ...DATA_REQUEST_LIMITS.email },
  ]);
  if (!limit.ok) throw new TooManyDataRequests(limit.retryAfterSeconds);
  if (!(await holdsDataFor(db, email))) return;
  try {
    const token = await issueDataRequestToken(db, { purpose: input.purpose, subject: { email } });
    const url = linkUrl(token);
    const templates = await loadTemplates();
    const mail = await composeMail(db, (ctx) => (input.purpose === "export" ? templates.dataExportMail(ctx, { url }) : templates.dataErasureMail(ctx, { url })));
    // Queued, not sent in the request: a known address must not take longer to answer than an unknown one.
    await queueMail(db, { to: email, kind: input.purpose === "export" ? "data-export" : "data-erasure", secretLink: url, ...mail });
  } catch (err) {
    // The answer stays the same: a failure must not tell the asker the address is known.
    logger.error({ err: (err as Error).message }, "data request mail could not be recorded");
  }
}
