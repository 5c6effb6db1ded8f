import nodemailer, { type Transporter } from "nodemailer";
import { getEnv } from "../env.server";
import type { Db } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import { logger } from "../logger.server";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind?: string;
  replyTo?: string;
  /**
   * A link that signs its recipient in (confirmation, password reset). Delivered by SMTP, it is
   * left out of the outbox record, where any admin could follow it into the customer's account.
   */
  secretLink?: string;
  /** Extra headers for SMTP (List-Unsubscribe, …); the outbox record does not keep them. */
  headers?: Record<string, string>;
};

/** What the outbox keeps of a mail's text or HTML once the mail itself has gone out. */
export const REDACTED_LINK = "[link removed from this copy: it signs the recipient in]";

function redact(body: string | null, secret: string | undefined) {
  return body && secret ? body.split(secret).join(REDACTED_LINK) : body;
}

/** Strips CR/LF so no value can add a header (subject, names, reply-to). */
export const headerSafe = (v: string) => v.replace(/[\r\n]+/g, " ").trim();

let transport: Transporter | undefined;
let transportUrl: string | undefined;

function smtp(url: string) {
  if (!transport || transportUrl !== url) {
    // Bounded waits: a silent mail server must not hold a sign-up request for minutes.
    transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    transportUrl = url;
  }
  return transport;
}

/**
 * Sends a mail. Without SMTP_URL it is kept in the outbox (admins read it at /admin/outbox);
 * with SMTP_URL it goes out through nodemailer and the outbox row is the record of it.
 */
export async function sendMail(db: Db, mail: Mail) {
  const env = getEnv();
  const from = headerSafe(env.MAIL_FROM);
  const to = headerSafe(mail.to);
  const subject = headerSafe(mail.subject);
  const base = { to, from, subject, text: mail.text, html: mail.html ?? null, kind: mail.kind ?? "general" };
  if (!env.SMTP_URL) {
    const [row] = await db.insert(mailOutbox).values({ ...base, transport: "outbox" }).returning({ id: mailOutbox.id });
    return { id: row!.id, transport: "outbox" as const };
  }
  let error: string | null = null;
  try {
    await smtp(env.SMTP_URL).sendMail({
      from,
      to,
      subject,
      text: mail.text,
      html: mail.html,
      replyTo: mail.replyTo ? headerSafe(mail.replyTo) : undefined,
      headers: mail.headers ? Object.fromEntries(Object.entries(mail.headers).map(([k, v]) => [headerSafe(k), headerSafe(v)])) : undefined,
    });
  } catch (err) {
    error = (err as Error).message;
    logger.error({ err: error, to, subject }, "mail delivery failed");
  }
  const record = { ...base, text: redact(base.text, mail.secretLink)!, html: redact(base.html, mail.secretLink) };
  const [row] = await db
    .insert(mailOutbox)
    .values({ ...record, transport: "smtp", sentAt: error ? null : new Date(), error })
    .returning({ id: mailOutbox.id });
  if (error) throw new Error(`Mail could not be sent: ${error}`);
  return { id: row!.id, transport: "smtp" as const };
}
