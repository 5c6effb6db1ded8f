import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { EDITABLE_MAILS, INTRO_MAX, SUBJECT_MAX } from "./mail-templates";

/**
 * One mail's subject and intro as the owner saves, previews or test-sends them (Site Settings →
 * Emails). A blank field means the default. The subject is one line: a line break is refused,
 * never folded into a header. NUL cannot be stored in PostgreSQL text.
 */
export const MailTemplateInput = z.object({
  kind: z.enum(EDITABLE_MAILS, { error: "Choose one of the shop's mails" }),
  subject: z
    .string({ error: "Subject must be text" })
    .trim()
    .max(SUBJECT_MAX, `Subject must be at most ${SUBJECT_MAX} characters`)
    .refine((v) => !/[\r\n]/.test(v), "Subject must be one line")
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), "Subject must not contain control characters"),
  intro: z
    .string({ error: "Intro must be text" })
    .trim()
    .max(INTRO_MAX, `Intro must be at most ${INTRO_MAX} characters`)
    .refine((v) => !v.includes("\u0000"), "Intro must not contain NUL characters"),
});
export type MailTemplateValues = z.output<typeof MailTemplateInput>;

/** Reads the form's kind, subject and intro (missing fields are blank). */
export function parseMailTemplateForm(form: FormData) {
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  return MailTemplateInput.safeParse({ kind: field("kind"), subject: field("subject"), intro: field("intro") });
}
