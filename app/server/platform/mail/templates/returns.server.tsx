import { Fragment } from "react";
import { ActionButton, Heading1, Intro, MailLayout, Paragraph } from "./layout.server";
import { ownerText, plainText, renderHtml, type MailContext, type RenderedMail } from "./context.server";

/** A return's lines as its mails list them. */
export type ReturnMailLine = { name: string; quantity: number };

export type ReturnForMail = {
  orderNumber: string;
  returnNumber: string;
  firstName: string;
  lines: ReturnMailLine[];
};

const questions = (ctx: MailContext) => `Questions? Reply to this email or visit ${ctx.brand.baseUrl}/contact.`;
const lineText = (l: ReturnMailLine) => `${l.quantity} × ${l.name}`;

function Lines({ ctx, lines }: { ctx: MailContext; lines: ReturnMailLine[] }) {
  return (
    <Paragraph brand={ctx.brand}>
      {lines.map((l, i) => (
        <Fragment key={`${l.name}-${i}`}>
          {i > 0 ? <br /> : null}
          {lineText(l)}
        </Fragment>
      ))}
    </Paragraph>
  );
}

/** The return was asked for: its number, its lines and what to do next (the owner's intro carries the instructions). */
export async function returnRequestedMail(ctx: MailContext, p: { ret: ReturnForMail; orderUrl: string }): Promise<RenderedMail> {
  const { ret } = p;
  const { subject, intro } = ownerText(ctx, "return-requested", { name: ret.firstName, orderNumber: ret.orderNumber });
  const next = `Write the return number ${ret.returnNumber} on a note inside the parcel. We will email you once we have looked at your request.`;
  const html = await renderHtml(
    <MailLayout brand={ctx.brand} preview={intro}>
      <Heading1 brand={ctx.brand}>Return {ret.returnNumber}</Heading1>
      <Intro brand={ctx.brand} text={intro} />
      <Lines ctx={ctx} lines={ret.lines} />
      <Paragraph brand={ctx.brand}>{next}</Paragraph>
      <ActionButton brand={ctx.brand} href={p.orderUrl} label="View your order" />
    </MailLayout>,
  );
  const text = plainText(ctx, [intro, `Return ${ret.returnNumber} for order ${ret.orderNumber}:`, ret.lines.map(lineText), next, `Your order's page: ${p.orderUrl}`, questions(ctx)]);
  return { subject, html, text };
}

export type ReturnStep = "approved" | "rejected" | "received" | "closed";

const STEP_WORDS: Record<ReturnStep, { subject: string; says: string }> = {
  approved: { subject: "approved", says: "Your return has been approved. Please send the items back with the return number inside the parcel." },
  rejected: { subject: "not accepted", says: "We are sorry: we cannot accept this return." },
  received: { subject: "received", says: "We have received your returned items. Your refund follows shortly." },
  closed: { subject: "closed", says: "Your return has been closed." },
};

/** A step of the return (approved, rejected, received, closed), with the owner's message when there is one. */
export async function returnUpdateMail(
  ctx: MailContext,
  p: { ret: ReturnForMail; step: ReturnStep; message: string; orderUrl: string },
): Promise<RenderedMail> {
  const { ret } = p;
  const words = STEP_WORDS[p.step];
  const subject = `Return ${ret.returnNumber} ${words.subject}`;
  const hello = `Hello ${ret.firstName},`;
  const html = await renderHtml(
    <MailLayout brand={ctx.brand} preview={words.says}>
      <Heading1 brand={ctx.brand}>{subject}</Heading1>
      <Paragraph brand={ctx.brand}>{hello}</Paragraph>
      <Paragraph brand={ctx.brand}>{words.says}</Paragraph>
      {p.message ? <Paragraph brand={ctx.brand}>{p.message}</Paragraph> : null}
      <Lines ctx={ctx} lines={ret.lines} />
      <ActionButton brand={ctx.brand} href={p.orderUrl} label="View your order" />
    </MailLayout>,
  );
  const text = plainText(ctx, [hello, words.says, p.message, ret.lines.map(lineText), `Your order's page: ${p.orderUrl}`, questions(ctx)]);
  return { subject, html, text };
}

/** The acknowledgement of a withdrawal, sent at once: when it was declared (UTC) and what was withdrawn. */
export async function withdrawalReceivedMail(
  ctx: MailContext,
  p: { ret: ReturnForMail; withdrawnAt: string; orderUrl: string },
): Promise<RenderedMail> {
  const { ret } = p;
  const { subject, intro } = ownerText(ctx, "withdrawal-received", { name: ret.firstName, orderNumber: ret.orderNumber });
  const when = `We received your withdrawal from the contract for order ${ret.orderNumber} on ${p.withdrawnAt}.`;
  const what = "You withdrew from:";
  const next = `Your return number is ${ret.returnNumber}. We will email you how to send the items back.`;
  const html = await renderHtml(
    <MailLayout brand={ctx.brand} preview={intro}>
      <Heading1 brand={ctx.brand}>Withdrawal received</Heading1>
      <Intro brand={ctx.brand} text={intro} />
      <Paragraph brand={ctx.brand}>{when}</Paragraph>
      <Paragraph brand={ctx.brand}>{what}</Paragraph>
      <Lines ctx={ctx} lines={ret.lines} />
      <Paragraph brand={ctx.brand}>{next}</Paragraph>
      <ActionButton brand={ctx.brand} href={p.orderUrl} label="View your order" />
    </MailLayout>,
  );
  const text = plainText(ctx, [intro, when, [what, ...ret.lines.map(lineText)], next, `Your order's page: ${p.orderUrl}`, questions(ctx)]);
  return { subject, html, text };
}

/** The footer's 'Withdraw from contract' form: the order's signed link, to the order's own address. */
export async function orderLinkMail(ctx: MailContext, p: { orderNumber: string; firstName: string; orderUrl: string }): Promise<RenderedMail> {
  const subject = `Your link to order ${p.orderNumber}`;
  const hello = `Hello ${p.firstName},`;
  const says = `Someone asked for the link to order ${p.orderNumber}. From its page you can follow the order, return items or withdraw from the contract.`;
  const ignore = "If you did not ask for it, you can ignore this email.";
  const html = await renderHtml(
    <MailLayout brand={ctx.brand} preview={says}>
      <Heading1 brand={ctx.brand}>Order {p.orderNumber}</Heading1>
      <Paragraph brand={ctx.brand}>{hello}</Paragraph>
      <Paragraph brand={ctx.brand}>{says}</Paragraph>
      <ActionButton brand={ctx.brand} href={p.orderUrl} label="Open your order" />
      <Paragraph brand={ctx.brand}>{ignore}</Paragraph>
    </MailLayout>,
  );
  const text = plainText(ctx, [hello, says, `Open your order: ${p.orderUrl}`, ignore]);
  return { subject, html, text };
}
