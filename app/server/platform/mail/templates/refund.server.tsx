import { Fragment } from "react";
import { formatMoney } from "~/lib/money";
import { ActionButton, Heading1, Intro, MailLayout, Paragraph } from "./layout.server";
import { ownerText, plainText, renderHtml, type MailContext, type RenderedMail } from "./context.server";

/** A refund as its mail tells it: how much, for which lines, and where the money goes. */
export type RefundForMail = {
  orderNumber: string;
  firstName: string;
  amountCents: number;
  lines: { name: string; quantity: number; amountCents: number }[];
  shippingCents: number;
  adjustmentCents: number;
  /** The card the order was paid with, when the provider said (its last four digits). */
  cardLast4: string | null;
};

const questions = (ctx: MailContext) => `Questions? Reply to this email or visit ${ctx.brand.baseUrl}/contact.`;

/** What the refund was for, one line each: the order's lines, the shipping, an extra amount. */
function parts(r: RefundForMail): string[] {
  return [
    ...r.lines.map((l) => `${l.quantity} × ${l.name}: ${formatMoney(l.amountCents)}`),
    ...(r.shippingCents > 0 ? [`Shipping: ${formatMoney(r.shippingCents)}`] : []),
    ...(r.adjustmentCents > 0 ? [`Additional refund: ${formatMoney(r.adjustmentCents)}`] : []),
  ];
}

/** Where the money goes: back to the card the order was paid with. */
export const refundDestination = (r: Pick<RefundForMail, "cardLast4">) =>
  `The money goes back to the card you paid with${r.cardLast4 ? ` (ending ${r.cardLast4})` : ""}. Your bank may take 5 to 10 business days to show it.`;

/** Sent once the provider made a refund (never before): the amount, what it was for, where the money goes. */
export async function refundIssuedMail(ctx: MailContext, p: { refund: RefundForMail; orderUrl: string }): Promise<RenderedMail> {
  const { refund } = p;
  const { subject, intro } = ownerText(ctx, "refund-issued", { name: refund.firstName, orderNumber: refund.orderNumber });
  const amount = `We refunded ${formatMoney(refund.amountCents)} for order ${refund.orderNumber}.`;
  const lines = parts(refund);
  const where = refundDestination(refund);
  const html = await renderHtml(
    <MailLayout brand={ctx.brand} preview={intro}>
      <Heading1 brand={ctx.brand}>Refund of {formatMoney(refund.amountCents)}</Heading1>
      <Intro brand={ctx.brand} text={intro} />
      <Paragraph brand={ctx.brand}>{amount}</Paragraph>
      {lines.length ? (
        <Paragraph brand={ctx.brand}>
          {lines.map((l, i) => (
            <Fragment key={`${l}-${i}`}>
              {i > 0 ? <br /> : null}
              {l}
            </Fragment>
          ))}
        </Paragraph>
      ) : null}
      <Paragraph brand={ctx.brand}>{where}</Paragraph>
      <ActionButton brand={ctx.brand} href={p.orderUrl} label="View your order" />
    </MailLayout>,
  );
  const text = plainText(ctx, [intro, [amount, ...lines], where, `Your order's page: ${p.orderUrl}`, questions(ctx)]);
  return { subject, html, text };
}
