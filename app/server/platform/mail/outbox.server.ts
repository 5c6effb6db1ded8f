import { count, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import { isUuid } from "~/lib/uuid";
import { OUTBOX_FILTERS, type OutboxFilter, type OutboxRow } from "~/lib/outbox-view";
import { redactSignInLinks } from "./mail.server";

export const OUTBOX_PAGE_SIZE = 50;

const FAILED = ["retrying", "given_up"] as const;

function whereFor(filter: OutboxFilter): SQL | undefined {
  switch (filter) {
    case "all":
      return undefined;
    case "failed":
      return inArray(mailOutbox.status, [...FAILED]);
    default:
      return eq(mailOutbox.status, filter);
  }
}

export const isOutboxFilter = (v: unknown): v is OutboxFilter => typeof v === "string" && (OUTBOX_FILTERS as readonly string[]).includes(v);

/**
 * Mails that failed and are not delivered yet: retrying (the worker tries again) or given up
 * (waiting for 'Resend'). The Outbox badge in the admin's sidebar and the dashboard's 'Needs attention'.
 */
export async function countFailedMails(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(mailOutbox).where(inArray(mailOutbox.status, [...FAILED]));
  return row?.n ?? 0;
}

/** The outbox, newest first, a page at a time (1-based), optionally of one state. */
export async function listOutbox(
  db: Db,
  page = 1,
  filter: OutboxFilter = "all",
): Promise<{ messages: OutboxRow[]; total: number; pages: number; failed: number }> {
  const p = Math.max(1, Math.floor(page) || 1);
  const where = whereFor(filter);
  const [rows, [totals], failed] = await Promise.all([
    db
      .select({
        id: mailOutbox.id,
        to: mailOutbox.to,
        subject: mailOutbox.subject,
        kind: mailOutbox.kind,
        transport: mailOutbox.transport,
        status: mailOutbox.status,
        attempts: mailOutbox.attempts,
        nextAttemptAt: mailOutbox.nextAttemptAt,
        error: mailOutbox.error,
        createdAt: mailOutbox.createdAt,
      })
      .from(mailOutbox)
      .where(where)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(OUTBOX_PAGE_SIZE)
      .offset((p - 1) * OUTBOX_PAGE_SIZE),
    db.select({ n: count() }).from(mailOutbox).where(where),
    countFailedMails(db),
  ]);
  const total = totals?.n ?? 0;
  return {
    messages: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null })),
    total,
    pages: Math.max(1, Math.ceil(total / OUTBOX_PAGE_SIZE)),
    failed,
  };
}

/**
 * One message, or null (also for an id that is not a UUID, instead of a database error). A mail
 * for the relay that has not gone out yet still holds its sign-in link (a retry needs it): the
 * admin's copy hides it, as the stored copy does once the mail is sent.
 */
export async function getOutboxMessage(db: Db, id: string) {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.to,
      from: mailOutbox.from,
      subject: mailOutbox.subject,
      text: mailOutbox.text,
      html: mailOutbox.html,
      kind: mailOutbox.kind,
      transport: mailOutbox.transport,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      nextAttemptAt: mailOutbox.nextAttemptAt,
      sentAt: mailOutbox.sentAt,
      error: mailOutbox.error,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id));
  if (!row) return null;
  const hide = (s: string) => (row.transport === "smtp" ? redactSignInLinks(s) : s);
  return {
    ...row,
    text: hide(row.text),
    html: row.html === null ? null : hide(row.html),
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  };
}
