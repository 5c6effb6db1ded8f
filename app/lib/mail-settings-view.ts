/** What Site Settings → Emails receives from its action (app/routes/admin/site-settings-emails.ts). */

export type MailPreview = { subject: string; html: string; text: string };

export type MailSettingsAnswer =
  | { ok: true; message: string; preview?: MailPreview }
  | { ok: false; message: string; fieldErrors?: Partial<Record<"kind" | "subject" | "intro", string>> };
