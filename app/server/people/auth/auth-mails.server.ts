import { composeMail, type Db, loadTemplates, type MailDraft, sendMail } from "../../platform/index.server";

type Person = { email: string; name?: string | null };

async function sendAccountMail(db: Db, to: Person, kind: string, draft: MailDraft, secretLink?: string) {
  const mail = await composeMail(db, draft);
  return sendMail(db, { to: to.email, kind, secretLink, ...mail });
}

export function sendConfirmationMail(db: Db, to: Person, url: string) {
  return sendAccountMail(db, to, "email-verification", async (ctx) => (await loadTemplates()).accountConfirmationMail(ctx, { name: to.name, url }), url);
}

export function sendPasswordResetMail(db: Db, to: Person, url: string) {
  return sendAccountMail(db, to, "password-reset", async (ctx) => (await loadTemplates()).passwordResetMail(ctx, { name: to.name, url }), url);
}

/**
 * Sign-up answers "Check your email" whether or not the address has an account (no enumeration),
 * so the owner of an existing account learns about the attempt here instead.
 */
export function sendAlreadyRegisteredMail(db: Db, to: Person & { emailVerified: boolean }) {
  return sendAccountMail(db, to, "already-registered", async (ctx) => (await loadTemplates()).alreadyRegisteredMail(ctx, { emailVerified: to.emailVerified }));
}

export function sendPasswordChangedMail(db: Db, to: Person) {
  return sendAccountMail(db, to, "password-changed", async (ctx) => (await loadTemplates()).passwordChangedMail(ctx));
}

/** The one-time sign-in link for an owner whose account others' guesses hold back (auth-guards.server.ts). */
export function sendSignInLinkMail(db: Db, to: Person, url: string) {
  return sendAccountMail(db, to, "sign-in-link", async (ctx) => (await loadTemplates()).signInLinkMail(ctx, { url }), url);
}
