import { count, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import { isUuid } from "~/lib/uuid";

export const OUTBOX_PAGE_SIZE = 50;

export type OutboxRow = { id: string; to: string; subject: string; kind: string; transport: "outbox" | "smtp"; error: string | null; createdAt: string };

/** The outbox, newest first, a page at a time (1-based). */
export async function listOutbox(db: Db, page = 1): Promise<{ messages: OutboxRow[]; total: number; pages: number }> {
  const p = Math.max(1, Math.floor(page) || 1);
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: mailOutbox.id,
        to: mailOutbox.to,
        subject: mailOutbox.subject,
        kind: mailOutbox.kind,
        transport: mailOutbox.transport,
        error: mailOutbox.error,
        createdAt: mailOutbox.createdAt,
      })
      .from(mailOutbox)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(OUTBOX_PAGE_SIZE)
      .offset((p - 1) * OUTBOX_PAGE_SIZE),
    db.select({ n: count() }).from(mailOutbox),
  ]);
  const total = totals?.n ?? 0;
  return { messages: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })), total, pages: Math.max(1, Math.ceil(total / OUTBOX_PAGE_SIZE)) };
}


/** One message, or null (also for an id that is not a UUID, instead of a database error). */
export async function getOutboxMessage(db: Db, id: string) {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.to,
      from: mailOutbox.from,
      subject: mailOutbox.subject,
      text: mailOutbox.text,
      kind: mailOutbox.kind,
      transport: mailOutbox.transport,
      sentAt: mailOutbox.sentAt,
      error: mailOutbox.error,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id));
  if (!row) return null;
  return { ...row, createdAt: row.createdAt.toISOString(), sentAt: row.sentAt?.toISOString() ?? null };
}
