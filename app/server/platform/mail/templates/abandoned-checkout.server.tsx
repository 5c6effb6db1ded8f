import { Link } from "@react-email/link";
import { Text } from "@react-email/text";
import { ActionButton, Heading1, Intro, MailLayout, Paragraph, small } from "./layout.server";
import { OrderLines, type MailLineItem } from "./order-parts.server";
import { ownerText, plainText, renderHtml, type MailContext, type RenderedMail } from "./context.server";

/** Why this address may get the reminder: the checkout's box, or the newsletter. */
export type ReminderReason = "asked" | "subscriber";

export type AbandonedCheckoutMail = {
  firstName: string;
  lines: MailLineItem[];
  /** The signed link that puts the checkout's lines back in the cart (absolute). */
  cartUrl: string;
  /** The signed link that stops these reminders, without signing in (absolute). */
  unsubscribeUrl: string;
  reason: ReminderReason;
};

const WHY: Record<ReminderReason, string> = {
  asked: "You get this one reminder because you ticked 'Email me about my order' at checkout.",
  subscriber: "You get this one reminder because you subscribe to our newsletter.",
};

/**
 * The abandoned-checkout reminder (docs/rules/after-sale.md, The abandoned-checkout reminder):
 * the checkout's items with their pictures (no prices: the cart shows today's), a button back to a
 * cart holding them, and an unsubscribe link that works without signing in. The plain text carries
 * the unsubscribe link on a line in the newsletter's words, so a retry of the send log finds it
 * again for the List-Unsubscribe header (mail.server.ts).
 */
export async function abandonedCheckoutMail(ctx: MailContext, p: AbandonedCheckoutMail): Promise<RenderedMail> {
  const { brand } = ctx;
  const { intro } = ownerText(ctx, "abandoned-checkout", { name: p.firstName });
  // The name was typed at checkout by whoever filled the form: never in the subject, so the
  // reminder cannot carry someone's words as a shop-branded headline ({name} there is dropped).
  const subject = withoutName(ownerText(ctx, "abandoned-checkout", { name: "" }).subject);
  const later = "Prices and stock are checked again when you open your cart; anything no longer available is left out, and we tell you which.";
  const html = await renderHtml(
    <MailLayout brand={brand} preview={intro}>
      <Heading1 brand={brand}>Still thinking it over?</Heading1>
      <Intro brand={brand} text={intro} />
      <OrderLines brand={brand} lines={p.lines} prices={false} />
      <ActionButton brand={brand} href={p.cartUrl} label="Return to your cart" />
      <Paragraph brand={brand}>{later}</Paragraph>
      <Text style={{ ...small(brand), margin: "0 0 8px" }}>
        {WHY[p.reason]}{" "}
        <Link href={p.unsubscribeUrl} style={{ color: brand.mutedForeground, textDecoration: "underline" }}>
          Unsubscribe from these reminders
        </Link>{" "}
        (no sign-in needed).
      </Text>
    </MailLayout>,
  );
  const text = plainText(ctx, [
    intro,
    p.lines.map((l) => `${l.quantity} × ${l.name}`),
    `Return to your cart: ${p.cartUrl}`,
    later,
    [WHY[p.reason], `Unsubscribe (no sign-in needed): ${p.unsubscribeUrl}`],
  ]);
  return { subject, html, text };
}

/** A subject whose {name} was left empty, tidied: no stray comma or doubled space, a capital first. */
function withoutName(subject: string) {
  const tidy = subject.replace(/\s+([,.!?;:])/g, "$1").replace(/\s{2,}/g, " ").replace(/^[\s,.!?;:]+/, "").trim();
  return tidy.charAt(0).toUpperCase() + tidy.slice(1);
}
