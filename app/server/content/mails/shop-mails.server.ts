import type { MailTemplateValues } from "~/lib/mail-templates-input";
import type { OutboxFilter } from "~/lib/outbox-view";
import {
  type Db,
  getMailTemplates,
  getOutboxMessage,
  isOutboxFilter,
  listOutbox,
  mailContext,
  renderSampleMail,
  resendMail,
  sampleLines,
  saveMailTemplate,
  sendMail,
} from "../../platform/index.server";

/**
 * The shop's mails as the owner sees and words them: the Outbox (every mail sent or kept, and
 * 'Resend') and Site Settings → Emails (each mail's subject and intro, a preview with sample data,
 * a test send). What the shop says by mail is content; recording, sending and retrying a mail is
 * platform's outbox and transport, which routes never reach themselves.
 */

/** One page of the Outbox, newest first, of one state ('all' for a missing or unknown state). */
export async function outboxPage(db: Db, page: number, state: string | null) {
  const filter: OutboxFilter = isOutboxFilter(state) ? state : "all";
  return { ...(await listOutbox(db, page, filter)), page, filter };
}

/** One mail of the Outbox as the admin may see it (a pending sign-in link hidden), or null. */
export async function outboxMail(db: Db, id: string) {
  return getOutboxMessage(db, id);
}

/**
 * 'Resend' on a failed mail: one more try now. A refusal (no such mail, already on its way) comes
 * back as it is; otherwise the outcome and the mail as it stands after the try (its recipient, the
 * relay's answer).
 */
export async function resendFromOutbox(db: Db, id: string) {
  const result = await resendMail(db, id);
  if (!result.ok) return result;
  return { ...result, mail: await getOutboxMessage(db, id) };
}

/** Each editable mail's subject and intro as the owner saved them (the defaults where none is saved). */
export async function shopMailTexts(db: Db) {
  return getMailTemplates(db);
}

/** Saves one mail's subject and intro; blank fields go back to the default texts. */
export async function saveShopMailText(db: Db, input: MailTemplateValues) {
  return saveMailTemplate(db, input);
}

/**
 * One mail rendered with sample data (the shop's own products when it has some) and the editor's
 * unsaved subject and intro, in the shop's look as saved now.
 */
export async function previewShopMail(db: Db, input: MailTemplateValues) {
  const ctx = await mailContext(db);
  return renderSampleMail(ctx, input.kind, { lines: await sampleLines(db), override: input });
}

/**
 * Sends a previewed mail to the admin who asked (kind `test:<mail>`), through the Outbox like any
 * other mail: the answer says whether it went out or waits for another try.
 */
export async function sendTestMail(db: Db, to: string, input: MailTemplateValues, mail: Awaited<ReturnType<typeof previewShopMail>>) {
  return sendMail(db, { to, kind: `test:${input.kind}`, ...mail });
}
