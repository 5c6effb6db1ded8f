import { ActionButton, Heading1, Intro, MailLayout, Paragraph } from "./layout.server";
import { ownerText, plainText, renderHtml, type MailContext, type RenderedMail } from "./context.server";

type SignInLink = { name?: string | null; url: string };

const firstName = (name: string | null | undefined) => (name ?? "").trim().split(/\s+/)[0] || "there";

/** Account confirmation: the owner's subject and intro, the button, and how long the link works. */
export async function accountConfirmationMail(ctx: MailContext, p: SignInLink): Promise<RenderedMail> {
  const { brand } = ctx;
  const { subject, intro } = ownerText(ctx, "email-verification", { name: firstName(p.name) });
  const note = "The link works for 24 hours: it asks you to choose your password, then signs you in.";
  const ignore = "If you did not sign up, ignore this mail.";
  const html = await renderHtml(
    <MailLayout brand={brand} preview={intro}>
      <Heading1 brand={brand}>Confirm your email address</Heading1>
      <Intro brand={brand} text={intro} />
      <ActionButton brand={brand} href={p.url} label="Confirm my account" />
      <Paragraph brand={brand}>
        {note} {ignore}
      </Paragraph>
    </MailLayout>,
  );
  const text = plainText(ctx, [intro, `Confirm your address here (the link works for 24 hours: it asks you to choose your password, then signs you in):\n${p.url}`, ignore]);
  return { subject, html, text };
}

/** Password reset: the owner's subject and intro, the button, and what happens if it was not them. */
export async function passwordResetMail(ctx: MailContext, p: SignInLink): Promise<RenderedMail> {
  const { brand } = ctx;
  const { subject, intro } = ownerText(ctx, "password-reset", { name: firstName(p.name) });
  const ignore = "If it was not you, ignore this mail: your password stays as it is.";
  const html = await renderHtml(
    <MailLayout brand={brand} preview={intro}>
      <Heading1 brand={brand}>Choose a new password</Heading1>
      <Intro brand={brand} text={intro} />
      <ActionButton brand={brand} href={p.url} label="Choose a new password" />
      <Paragraph brand={brand}>The link works once, for one hour. {ignore}</Paragraph>
    </MailLayout>,
  );
  const text = plainText(ctx, [intro, `Choose a new password here (the link works once, for one hour):\n${p.url}`, ignore]);
  return { subject, html, text };
}

/**
 * The one-time sign-in link, mailed when the right password was typed while others' guesses held
 * the account back: it says why, and what to do if it was not the owner.
 */
export function signInLinkMail(ctx: MailContext, p: { url: string }): Promise<RenderedMail> {
  const { name, baseUrl } = ctx.brand;
  return noticeMail(ctx, {
    subject: `Your ${name} sign-in link`,
    heading: "Sign in to your account",
    paragraphs: [
      `Someone, hopefully you, typed the right password for your ${name} account while we were holding sign-ins back after too many attempts from elsewhere.`,
      "This link signs you in once, within 15 minutes.",
    ],
    action: { label: "Sign in", href: p.url },
    after: `If it was not you, someone knows your password: choose a new one at ${baseUrl}/auth/forgot-password`,
  });
}

/** A notice about the account with its one link (sign-up for a taken address, password changed). */
async function noticeMail(
  ctx: MailContext,
  m: { subject: string; heading: string; paragraphs: string[]; action: { label: string; href: string }; after?: string },
): Promise<RenderedMail> {
  const { brand } = ctx;
  const html = await renderHtml(
    <MailLayout brand={brand} preview={m.paragraphs[0] ?? m.heading}>
      <Heading1 brand={brand}>{m.heading}</Heading1>
      {m.paragraphs.map((p, i) => (
        <Paragraph key={i} brand={brand}>
          {p}
        </Paragraph>
      ))}
      <ActionButton brand={brand} href={m.action.href} label={m.action.label} />
      {m.after ? <Paragraph brand={brand}>{m.after}</Paragraph> : null}
    </MailLayout>,
  );
  const text = plainText(ctx, [...m.paragraphs, `${m.action.label}: ${m.action.href}`, m.after]);
  return { subject: m.subject, html, text };
}

/** Sign-up with an address that has an account: the owner of that account hears of it here. */
export function alreadyRegisteredMail(ctx: MailContext, p: { emailVerified: boolean }): Promise<RenderedMail> {
  const { name, baseUrl } = ctx.brand;
  return noticeMail(ctx, {
    subject: `You already have a ${name} account`,
    heading: "You already have an account",
    paragraphs: [
      `Someone, hopefully you, tried to create a ${name} account with this email address, which already has one.`,
      ...(p.emailVerified ? [] : ["Your address is not confirmed yet: sign in and we will offer to send the confirmation link again."]),
    ],
    action: { label: "Sign in", href: `${baseUrl}/auth` },
    after: `Forgot your password? ${baseUrl}/auth/forgot-password — if it was not you, ignore this mail.`,
  });
}

export function passwordChangedMail(ctx: MailContext): Promise<RenderedMail> {
  const { name, baseUrl } = ctx.brand;
  return noticeMail(ctx, {
    subject: `Your ${name} password was changed`,
    heading: "Your password was changed",
    paragraphs: [`The password of your ${name} account was just changed, and every device was signed out.`],
    action: { label: "If it was not you, reset it now", href: `${baseUrl}/auth/forgot-password` },
  });
}
