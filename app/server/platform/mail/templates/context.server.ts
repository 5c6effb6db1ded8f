import { render } from "@react-email/render";
import type { ReactElement } from "react";
import { fillPlaceholders, type EditableMail, type MailTemplates, type Placeholder } from "~/lib/mail-templates";
import type { MailBrand } from "./brand.server";

/** What every template is rendered with: the shop's look and the owner's subjects and intros. */
export type MailContext = { brand: MailBrand; templates: MailTemplates };

/** A mail ready for sendMail: one-line subject, HTML and the plain-text part. */
export type RenderedMail = { subject: string; html: string; text: string };

/** The owner's subject and intro for this mail, placeholders filled (plain text, escaped where used). */
export function ownerText(ctx: MailContext, kind: EditableMail, values: Partial<Record<Placeholder, string>>) {
  const all = { shopName: ctx.brand.name, ...values };
  const t = ctx.templates[kind];
  return { subject: fillPlaceholders(t.subject, all), intro: fillPlaceholders(t.intro, all) };
}

/** React → the table HTML mail programs read (react-email). */
export function renderHtml(element: ReactElement): Promise<string> {
  return render(element);
}

/** The plain-text part: paragraphs separated by a blank line, then the shop's signature. */
export function plainText(ctx: MailContext, paragraphs: (string | string[] | null | false | undefined)[]): string {
  const blocks = paragraphs.filter((p): p is string | string[] => Boolean(p) && (!Array.isArray(p) || p.length > 0));
  return [...blocks.map((p) => (Array.isArray(p) ? p.join("\n") : p)), `--\n${ctx.brand.name} · ${ctx.brand.baseUrl}/`].join("\n\n");
}
