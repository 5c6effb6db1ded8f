import { eq, sql } from "drizzle-orm";
import { resolveMailTemplates, type MailTemplates } from "~/lib/mail-templates";
import type { MailTemplateValues } from "~/lib/mail-templates-input";
import type { Db } from "../db/client.server";
import { siteSettings } from "../db/schema";

/**
 * The owner's subjects and intros live in site_settings under their own key, apart from the five
 * keys every page loads (root loader): only mails and the admin's editor read them.
 */
export const MAIL_TEMPLATES_KEY = "mail_templates";

export async function getMailTemplates(db: Db): Promise<MailTemplates> {
  const [row] = await db
    .select({ value: siteSettings.settingValue })
    .from(siteSettings)
    .where(eq(siteSettings.settingKey, MAIL_TEMPLATES_KEY));
  return resolveMailTemplates(row?.value);
}

/**
 * Saves one mail's subject and intro (blank: back to the default), leaving the other mails as they
 * are. The row is locked while it is read and written, so two admins saving different mails at
 * once both keep their change.
 */
export async function saveMailTemplate(db: Db, input: MailTemplateValues): Promise<MailTemplates> {
  return db.transaction(async (tx) => {
    await tx
      .insert(siteSettings)
      .values({ settingKey: MAIL_TEMPLATES_KEY, settingValue: {} })
      .onConflictDoNothing({ target: siteSettings.settingKey });
    const [row] = await tx
      .select({ value: siteSettings.settingValue })
      .from(siteSettings)
      .where(eq(siteSettings.settingKey, MAIL_TEMPLATES_KEY))
      .for("update");
    const stored = row?.value && typeof row.value === "object" && !Array.isArray(row.value) ? { ...(row.value as Record<string, unknown>) } : {};
    const own: Record<string, string> = {};
    if (input.subject) own.subject = input.subject;
    if (input.intro) own.intro = input.intro;
    if (Object.keys(own).length) stored[input.kind] = own;
    else delete stored[input.kind];
    await tx
      .update(siteSettings)
      .set({ settingValue: stored, updatedAt: sql`now()` })
      .where(eq(siteSettings.settingKey, MAIL_TEMPLATES_KEY));
    return resolveMailTemplates(stored);
  });
}
