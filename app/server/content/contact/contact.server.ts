import { count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { ContactMessageInput } from "~/lib/contact-input";
import { checkRateLimits, composeMail, contactMessages, type Db, getEnv, loadTemplates, logger, sendMail } from "../../platform/index.server";
import { TooManyAttempts } from "../too-many-attempts.server";

/** Per client address: enough for a person, too few for a spam script. */
export const CONTACT_LIMIT = { limit: 5, windowMs: 15 * 60_000 };

/**
 * Stores a contact message (the admin inbox) and mails it to SHOP_EMAIL. Once stored, the
 * message is safe: a failed mail is logged (and recorded in the outbox), not reported to the
 * sender, who would otherwise send it again. Refused (TooManyAttempts) when the address sent too many.
 */
export async function submitContactMessage(
  db: Db,
  input: ContactMessageInput,
  opts: { ip: string },
): Promise<{ id: string }> {
  const limit = await checkRateLimits(db, [{ key: `contact:ip:${opts.ip}`, ...CONTACT_LIMIT }]);
  if (!limit.ok) throw new TooManyAttempts(limit.retryAfterSeconds);
  const [row] = await db
    .insert(contactMessages)
    .values({ name: input.name, email: input.email, subject: input.subject, message: input.message })
    .returning({ id: contactMessages.id });
  try {
    const copy = await composeMail(db, async (ctx) => (await loadTemplates()).contactCopyMail(ctx, input));
    await sendMail(db, { to: getEnv().SHOP_EMAIL, replyTo: input.email, kind: "contact", ...copy });
  } catch (err) {
    logger.error({ err: (err as Error).message, messageId: row!.id }, "contact message stored but not mailed");
  }
  return { id: row!.id };
}

export type InboxFilter = "open" | "handled" | "all";
export const INBOX_PAGE_SIZE = 50;

export async function listContactMessages(db: Db, opts: { filter: InboxFilter; page: number }) {
  const where = opts.filter === "all" ? undefined : eq(contactMessages.handled, opts.filter === "handled");
  const [rows, [total], [open]] = await Promise.all([
    db
      .select({
        id: contactMessages.id,
        name: contactMessages.name,
        email: contactMessages.email,
        subject: contactMessages.subject,
        handled: contactMessages.handled,
        createdAt: contactMessages.createdAt,
      })
      .from(contactMessages)
      .where(where)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(INBOX_PAGE_SIZE)
      .offset((opts.page - 1) * INBOX_PAGE_SIZE),
    db.select({ n: count() }).from(contactMessages).where(where),
    db.select({ n: count() }).from(contactMessages).where(eq(contactMessages.handled, false)),
  ]);
  return { messages: rows, total: total!.n, openCount: open!.n };
}

export async function getContactMessage(db: Db, id: string) {
  if (!z.uuid().safeParse(id).success) return null;
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id));
  return row ?? null;
}

export async function setMessageHandled(db: Db, id: string, handled: boolean) {
  if (!z.uuid().safeParse(id).success) return false;
  const rows = await db
    .update(contactMessages)
    .set({ handled, handledAt: handled ? new Date() : null })
    .where(eq(contactMessages.id, id))
    .returning({ id: contactMessages.id });
  return rows.length > 0;
}
