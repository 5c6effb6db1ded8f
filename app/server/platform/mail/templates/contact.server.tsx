import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { Heading1, MailLayout, Paragraph, small } from "./layout.server";
import { plainText, renderHtml, type MailContext, type RenderedMail } from "./context.server";

export type ContactCopy = { name: string; email: string; subject: string; message: string };

/**
 * The copy of a contact-form message the shop receives. Everything in it was typed by a visitor:
 * React escapes it, and the message keeps its line breaks through white-space, not markup.
 */
export async function contactCopyMail(ctx: MailContext, m: ContactCopy): Promise<RenderedMail> {
  const { brand } = ctx;
  const from = `${m.name} <${m.email}>`;
  const html = await renderHtml(
    <MailLayout brand={brand} preview={`${m.name}: ${m.subject}`}>
      <Heading1 brand={brand}>New message from the contact form</Heading1>
      <Text style={{ ...small(brand), margin: "0 0 4px" }}>From: {from}</Text>
      <Text style={{ ...small(brand), margin: "0 0 16px" }}>Subject: {m.subject}</Text>
      <Section style={{ backgroundColor: brand.muted, borderRadius: 6, padding: "12px 16px", margin: "0 0 16px" }}>
        <Text style={{ margin: 0, fontSize: 15, lineHeight: "22px", color: brand.foreground, whiteSpace: "pre-wrap" }}>{m.message}</Text>
      </Section>
      <Paragraph brand={brand}>Reply to this mail to answer {m.name}; the message is also in the admin's Inbox.</Paragraph>
    </MailLayout>,
  );
  const text = plainText(ctx, [[`From: ${from}`, `Subject: ${m.subject}`], m.message]);
  return { subject: `Contact form: ${m.subject}`, html, text };
}
