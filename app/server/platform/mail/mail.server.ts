import { and, eq, inArray, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import nodemailer, { type Transporter } from "nodemailer";
import { MAIL_MAX_ATTEMPTS } from "~/lib/outbox-view";
import { getEnv } from "../env.server";
import type { Db } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import { enqueue, type JobTasks } from "../jobs/queue.server";
import { logger } from "../logger.server";

/**
 * The send log (docs/rules/after-sale.md, Mails and the send log). Every mail is written to
 * mail_outbox first — in the caller's transaction when there is one, so a committed order always
 * has its mail — and sent afterwards. Without SMTP_URL the row is the mail: admins read it at
 * /admin/outbox. With SMTP_URL it is queued, with a job on the shop's job queue in the same
 * transaction (docs/decisions/0028), then handed to the relay; a failed try is retried with
 * backoff (its next job waits for the row's next try) and, after MAX_ATTEMPTS, given up with the
 * relay's answer. The row stays the record: its claim and lease make sure a mail goes out once
 * even when two jobs or an inline send meet it.
 */

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind?: string;
  replyTo?: string;
  /**
   * A link that signs its recipient in (confirmation, password reset). Delivered by SMTP, it is
   * removed from the outbox copy once the mail is sent or given up, and hidden from admins before.
   */
  secretLink?: string;
  /** Extra headers for SMTP (List-Unsubscribe, …); the outbox record does not keep them. */
  headers?: Record<string, string>;
};

export type MailStatus = "queued" | "sent" | "retrying" | "given_up";

export const MAX_ATTEMPTS = MAIL_MAX_ATTEMPTS;
/** The wait after the 1st, 2nd, 3rd and 4th failed try: the 5th comes about an hour after the first. */
export const RETRY_DELAYS_SECONDS = [60, 5 * 60, 15 * 60, 40 * 60] as const;
/**
 * A try claims its mail by moving its next try this far ahead: no other server takes it
 * meanwhile, and a server that dies mid-send leaves it to the worker after that long. Far longer
 * than the relay's own timeouts (below), so a live sender is never overtaken.
 */
export const SEND_LEASE_SECONDS = 5 * 60;

/** What the outbox keeps of a mail's text or HTML once the mail itself has gone out. */
export const REDACTED_LINK = "[link removed from this copy: it signs the recipient in]";

/** The shop's sign-in links (better-auth's verify-email and reset-password) live under /api/auth/. */
const SIGN_IN_LINK = /https?:\/\/[^\s"'<>]*\/api\/auth\/[^\s"'<>]*/g;

/** A copy without its sign-in links, for a mail that has reached the customer (or never will). */
export function redactSignInLinks(body: string, secret?: string): string {
  let out = body;
  if (secret) out = out.split(secret).join(REDACTED_LINK).split(secret.replace(/&/g, "&amp;")).join(REDACTED_LINK);
  return out.replace(SIGN_IN_LINK, REDACTED_LINK);
}

/** Strips CR/LF so no value can add a header (subject, names, reply-to). */
export const headerSafe = (v: string) => v.replace(/[\r\n]+/g, " ").trim();

let transport: Transporter | undefined;
let transportUrl: string | undefined;

function smtp(url: string) {
  if (!transport || transportUrl !== url) {
    // Bounded waits: a silent mail server must not hold a request (or the worker) for minutes.
    transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    transportUrl = url;
  }
  return transport;
}

const inTransaction = (db: Db) => db instanceof PgTransaction;

export type QueuedMail = { id: string; transport: "outbox" | "smtp"; status: MailStatus };

/**
 * Records a mail. Without SMTP it is kept in the outbox ('sent': that is where it goes). With
 * SMTP it is 'queued', due at once, and its job is added beside it: the job sends it as the
 * caller's transaction commits (a worker takes a job the moment it commits).
 */
export async function queueMail(db: Db, mail: Mail): Promise<QueuedMail> {
  const env = getEnv();
  const values = {
    to: headerSafe(mail.to),
    from: headerSafe(env.MAIL_FROM),
    subject: headerSafe(mail.subject),
    text: mail.text,
    html: mail.html ?? null,
    kind: mail.kind ?? "general",
  };
  if (!env.SMTP_URL) {
    const [row] = await db
      .insert(mailOutbox)
      .values({ ...values, transport: "outbox", status: "sent", sentAt: sql`now()` })
      .returning({ id: mailOutbox.id });
    return { id: row!.id, transport: "outbox", status: "sent" };
  }
  const [row] = await db
    .insert(mailOutbox)
    .values({ ...values, transport: "smtp", status: "queued", attempts: 0, nextAttemptAt: sql`now()` })
    .returning({ id: mailOutbox.id });
  await enqueue(db, MAIL_TASK, { mailId: row!.id }, { jobKey: mailJobKey(row!.id) });
  return { id: row!.id, transport: "smtp", status: "queued" };
}

/** The job that tries a recorded mail; one waits per mail (its key), due at the mail's next try. */
export const MAIL_TASK = "mail:deliver";
export const mailJobKey = (id: string) => `mail:${id}`;

/**
 * After a try (or a skipped one: someone else holds the mail), makes sure the mail's next try has
 * its job: a mail still queued or retrying gets one due when the row says. A sent or given-up
 * mail needs none.
 */
export async function scheduleNextTry(db: Db, id: string): Promise<void> {
  const [row] = await db
    .select({ status: mailOutbox.status, nextAttemptAt: mailOutbox.nextAttemptAt })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id));
  if (!row || !row.nextAttemptAt || (row.status !== "queued" && row.status !== "retrying")) return;
  await enqueue(db, MAIL_TASK, { mailId: id }, { jobKey: mailJobKey(id), runAt: row.nextAttemptAt });
}

/** The job's run: one try of the mail if it is due and free, then its next try's job if it needs one. */
export async function deliverQueuedMail(db: Db, id: string, opts: { at?: Date } = {}): Promise<DeliveryOutcome> {
  const outcome = await deliverMail(db, id, {}, opts);
  await scheduleNextTry(db, id);
  return outcome;
}

/**
 * Gives every mail still waiting to go out its job (mails recorded before the send log ran on the
 * job queue, or whose job was removed by hand). Harmless to repeat: one job waits per mail.
 */
export async function queueJobsForWaitingMails(db: Db): Promise<number> {
  const result = await db.execute(sql`
    select graphile_worker.add_job(${MAIL_TASK}::text, json_build_object('mailId', id::text), run_at => next_attempt_at, job_key => 'mail:' || id::text)
      from mail_outbox
     where status in ('queued', 'retrying') and next_attempt_at is not null and transport = 'smtp'`);
  return result.rows.length;
}

/** The mail send log's part of the job queue. A job that throws (the database is down) is tried again by the queue. */
export function mailJobs(db: Db): JobTasks {
  return {
    handlers: {
      [MAIL_TASK]: async (payload) => {
        const mailId = (payload as { mailId?: unknown }).mailId;
        if (typeof mailId === "string") await deliverQueuedMail(db, mailId);
      },
    },
  };
}

/**
 * Replaces what a recorded mail says, for a caller that learnt more after its commit (a refund's
 * answer), as long as no one has tried to send it: queued and never attempted, or kept in the
 * outbox (where it is read, not sent). A mail already tried keeps its words, which the caller
 * wrote to stay true either way. Answers whether the mail was revised. The row lock orders this
 * with the worker's claim, which counts an attempt.
 */
export async function reviseUntriedMail(db: Db, id: string, content: Pick<Mail, "subject" | "text" | "html">): Promise<boolean> {
  const revised = await db
    .update(mailOutbox)
    .set({ subject: headerSafe(content.subject), text: content.text, html: content.html ?? null })
    .where(
      and(
        eq(mailOutbox.id, id),
        sql`(${mailOutbox.transport} = 'outbox' or (${mailOutbox.status} = 'queued' and ${mailOutbox.attempts} = 0))`,
      ),
    )
    .returning({ id: mailOutbox.id });
  return revised.length > 0;
}

/**
 * Records a mail and, outside a transaction, sends it now. Inside one it is only recorded: its job
 * sends it as the transaction commits. A failed
 * send is not an error here: the mail is in the log, retried, and shown at /admin/outbox.
 */
export async function sendMail(db: Db, mail: Mail): Promise<QueuedMail> {
  const queued = await queueMail(db, mail);
  if (queued.status !== "queued" || inTransaction(db)) return queued;
  const outcome = await deliverMail(db, queued.id, mail);
  await scheduleNextTry(db, queued.id);
  return { ...queued, status: outcome === "skipped" ? "queued" : outcome };
}

type ClaimedMail = { id: string; to: string; from: string; subject: string; text: string; html: string | null; kind: string; attempts: number };

/**
 * Claims due mails for one try each: `for update skip locked` lets two servers claim at once
 * without waiting for or taking each other's rows, and moving the next try a lease ahead keeps a
 * claimed mail out of every other claim while it is sent, without holding a transaction (and a
 * database connection) open while the relay answers. A mail being tried is 'queued': 'retrying'
 * and 'given_up' always mean "not in anyone's hands", which is what makes 'Resend' safe.
 */
async function claimDue(db: Db, opts: { id?: string; at?: Date; limit: number }): Promise<ClaimedMail[]> {
  const at = opts.at ? sql`${opts.at.toISOString()}::timestamptz` : sql`now()`;
  const only = opts.id ? sql`and id = ${opts.id}` : sql``;
  const result = await db.execute<ClaimedMail>(sql`
    update mail_outbox
       set status = 'queued',
           attempts = attempts + 1,
           next_attempt_at = greatest(now(), ${at}) + make_interval(secs => ${SEND_LEASE_SECONDS})
     where id in (
       select id from mail_outbox
        where status in ('queued', 'retrying') and next_attempt_at <= ${at} ${only}
        order by next_attempt_at
        limit ${opts.limit}
        for update skip locked)
    returning id, "to", "from", subject, text, html, kind, attempts`);
  return result.rows;
}

export type DeliveryOutcome = "sent" | "retrying" | "given_up" | "skipped";

/** Extras the row does not keep (Reply-To, List-Unsubscribe), found again in the mail for a retry. */
function extrasForRetry(row: ClaimedMail): Pick<Mail, "replyTo" | "headers"> {
  const out: Pick<Mail, "replyTo" | "headers"> = {};
  // The contact copy's first line is `From: name <address>` (templates/contact.server.tsx).
  if (row.kind === "contact") out.replyTo = /^From: .*<([^<>\s]+)>$/m.exec(row.text)?.[1];
  // Newsletter mails end with their unsubscribe link (newsletter.server.ts).
  const unsubscribe = /^Unsubscribe \(no sign-in needed\): (https?:\/\/\S+)$/m.exec(row.text)?.[1];
  if (unsubscribe) out.headers = { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
  return out;
}

/**
 * One Message-ID per recorded mail, the same on every try: when the relay took a mail but its
 * answer was lost, the retry is the same mail to the receiver, not a second one. Made from the
 * row's id and the sender's domain.
 */
export function messageIdFor(id: string, from: string): string {
  const domain = /@([^@\s>]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
  return `<${id}@${domain}>`;
}

/** One try of a claimed mail; the row is updated only if this try still owns it. */
async function attempt(db: Db, row: ClaimedMail, extras: Pick<Mail, "replyTo" | "headers" | "secretLink">): Promise<Exclude<DeliveryOutcome, "skipped">> {
  const env = getEnv();
  const mine = and(eq(mailOutbox.id, row.id), eq(mailOutbox.attempts, row.attempts));
  const redacted = { text: redactSignInLinks(row.text, extras.secretLink), html: row.html === null ? null : redactSignInLinks(row.html, extras.secretLink) };
  if (!env.SMTP_URL) {
    // SMTP was turned off since this mail was queued: it stays here, as every mail does then.
    await db.update(mailOutbox).set({ status: "sent", transport: "outbox", sentAt: sql`now()`, nextAttemptAt: null }).where(mine);
    return "sent";
  }
  try {
    await smtp(env.SMTP_URL).sendMail({
      from: row.from,
      to: row.to,
      subject: row.subject,
      messageId: messageIdFor(row.id, row.from),
      text: row.text,
      html: row.html ?? undefined,
      replyTo: extras.replyTo ? headerSafe(extras.replyTo) : undefined,
      headers: extras.headers ? Object.fromEntries(Object.entries(extras.headers).map(([k, v]) => [headerSafe(k), headerSafe(v)])) : undefined,
    });
  } catch (err) {
    const error = smtpAnswer(err);
    const givenUp = row.attempts >= MAX_ATTEMPTS;
    const log = { err: error, mailId: row.id, kind: row.kind, attempt: row.attempts };
    if (givenUp) {
      logger.error(log, "mail given up after its last try");
      await db
        .update(mailOutbox)
        .set({ status: "given_up", error, nextAttemptAt: null, ...redacted })
        .where(mine);
      return "given_up";
    }
    const wait = RETRY_DELAYS_SECONDS[row.attempts - 1] ?? RETRY_DELAYS_SECONDS.at(-1)!;
    logger.warn({ ...log, retryInSeconds: wait }, "mail delivery failed; it will be retried");
    await db
      .update(mailOutbox)
      .set({ status: "retrying", error, nextAttemptAt: sql`now() + make_interval(secs => ${wait})` })
      .where(mine);
    return "retrying";
  }
  await db
    .update(mailOutbox)
    .set({ status: "sent", error: null, sentAt: sql`now()`, nextAttemptAt: null, ...redacted })
    .where(mine);
  return "sent";
}

/** The relay's own words when it answered (`550 mailbox unavailable`), else the network error. */
function smtpAnswer(err: unknown): string {
  const e = err as { message?: string; response?: string };
  return String(e?.response || e?.message || err).slice(0, 1000);
}

/**
 * Tries one mail now, if it is due and no one else is sending it ('skipped' otherwise). `extras`
 * are what the caller still has in hand: the Reply-To, headers and the sign-in link to redact.
 */
export async function deliverMail(
  db: Db,
  id: string,
  extras: Pick<Mail, "replyTo" | "headers" | "secretLink"> = {},
  opts: { at?: Date } = {},
): Promise<DeliveryOutcome> {
  const [row] = await claimDue(db, { id, at: opts.at, limit: 1 });
  if (!row) return "skipped";
  return attempt(db, row, { ...extrasForRetry(row), ...extras });
}

export type ResendResult = { ok: true; outcome: DeliveryOutcome } | { ok: false; kind: "not_found" | "conflict"; message: string };

/**
 * 'Resend' at /admin/outbox, for a mail that failed (retrying) or was given up: five fresh tries,
 * the first one now. A mail whose sign-in link was removed from the copy cannot be sent again.
 */
export async function resendMail(db: Db, id: string): Promise<ResendResult> {
  const [row] = await db
    .select({ status: mailOutbox.status, text: mailOutbox.text })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id));
  if (!row) return { ok: false, kind: "not_found", message: "Mail not found" };
  if (row.status === "sent") return { ok: false, kind: "conflict", message: "This mail has been sent already." };
  if (row.text.includes(REDACTED_LINK)) {
    return {
      ok: false,
      kind: "conflict",
      message: "This mail's sign-in link was removed from the copy and has expired: ask the customer to request a new one.",
    };
  }
  const [requeued] = await db
    .update(mailOutbox)
    .set({ status: "queued", attempts: 0, error: null, nextAttemptAt: sql`now()` })
    .where(and(eq(mailOutbox.id, id), inArray(mailOutbox.status, ["retrying", "given_up"])))
    .returning({ id: mailOutbox.id });
  // Queued already, or being tried at this moment: it goes out without a push from here.
  if (!requeued) return { ok: true, outcome: "skipped" };
  const outcome = await deliverMail(db, id);
  await scheduleNextTry(db, id);
  return { ok: true, outcome };
}
