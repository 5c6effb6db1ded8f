import { ActionButton, Heading1, Intro, MailLayout, Paragraph } from "./layout.server";
import { ownerText, plainText, renderHtml, type MailContext, type RenderedMail } from "./context.server";

/**
 * The mails that confirm a request about a person's own data (docs/rules/personal-data.md, The
 * shopper's side): deleting an account that has no password, and a guest's request for a copy or
 * for erasure. Each carries one link that works once, within an hour; nothing is sent or erased
 * until the person follows it and presses the button on the page it opens.
 */

const firstName = (name: string | null | undefined) => (name ?? "").trim().split(/\s+/)[0] || "there";

/** How long a confirmation link works; the people area keeps the same number (DATA_LINK_TTL_MS). */
const LINK_NOTE = "The link works once, within one hour.";

async function confirmationMail(
  ctx: MailContext,
  m: { subject: string; intro: string; heading: string; action: { label: string; href: string }; paragraphs: string[] },
): Promise<RenderedMail> {
  const { brand } = ctx;
  const html = await renderHtml(
    <MailLayout brand={brand} preview={m.intro}>
      <Heading1 brand={brand}>{m.heading}</Heading1>
      <Intro brand={brand} text={m.intro} />
      <ActionButton brand={brand} href={m.action.href} label={m.action.label} />
      {m.paragraphs.map((p, i) => (
        <Paragraph key={i} brand={brand}>
          {p}
        </Paragraph>
      ))}
    </MailLayout>,
  );
  const text = plainText(ctx, [m.intro, `${m.action.label}: ${m.action.href}`, ...m.paragraphs]);
  return { subject: m.subject, html, text };
}

/** 'Delete my account' for an account signed up by link (no password to type): the link confirms. */
export function accountDeletionMail(ctx: MailContext, p: { name?: string | null; url: string }): Promise<RenderedMail> {
  const { subject, intro } = ownerText(ctx, "account-deletion", { name: firstName(p.name) });
  return confirmationMail(ctx, {
    subject,
    intro,
    heading: "Confirm deleting your account",
    action: { label: "Delete my account", href: p.url },
    paragraphs: [
      `${LINK_NOTE} Your account, addresses, saved cart and newsletter entry are erased; your orders stay with us as the shop's records for the period the law requires.`,
      "If it was not you, ignore this mail: nothing is deleted.",
    ],
  });
}

/** A guest's 'Send me my data': the link downloads a copy of what the shop keeps about the address. */
export function dataExportMail(ctx: MailContext, p: { url: string }): Promise<RenderedMail> {
  const { subject, intro } = ownerText(ctx, "data-export", {});
  return confirmationMail(ctx, {
    subject,
    intro,
    heading: "Your data",
    action: { label: "Download my data", href: p.url },
    paragraphs: [`${LINK_NOTE} It downloads a ZIP file with your orders, returns, reviews and newsletter entry.`, "If it was not you, ignore this mail: nothing is sent."],
  });
}

/** A guest's 'Erase my data': the link opens a page that erases, after one more press. */
export function dataErasureMail(ctx: MailContext, p: { url: string }): Promise<RenderedMail> {
  const { subject, intro } = ownerText(ctx, "data-erasure", {});
  return confirmationMail(ctx, {
    subject,
    intro,
    heading: "Confirm erasing your data",
    action: { label: "Erase my data", href: p.url },
    paragraphs: [
      `${LINK_NOTE} Your orders stay with us as the shop's records for the period the law requires, without anything else about you.`,
      "If it was not you, ignore this mail: nothing is erased.",
    ],
  });
}
