import type { Db } from "../db/client.server";
import { publicUrl } from "../env.server";
import { sendMail } from "../mail/mail.server";

type Person = { email: string; name?: string | null };

export function sendConfirmationMail(db: Db, to: Person, url: string) {
  return sendMail(db, {
    to: to.email,
    kind: "email-verification",
    secretLink: url,
    subject: "Confirm your Linen & Loft account",
    text: `Welcome to Linen & Loft!\n\nConfirm your email address to finish creating your account (the link works for 24 hours and signs you in):\n${url}\n\nIf you did not sign up, ignore this mail.`,
  });
}

export function sendPasswordResetMail(db: Db, to: Person, url: string) {
  return sendMail(db, {
    to: to.email,
    kind: "password-reset",
    secretLink: url,
    subject: "Reset your Linen & Loft password",
    text: `Someone asked to reset the password of your Linen & Loft account.\n\nChoose a new password here (the link works once, for one hour):\n${url}\n\nIf it was not you, ignore this mail: your password stays as it is.`,
  });
}

/**
 * Sign-up answers "Check your email" whether or not the address has an account (no enumeration),
 * so the owner of an existing account learns about the attempt here instead.
 */
export function sendAlreadyRegisteredMail(db: Db, to: Person & { emailVerified: boolean }) {
  const base = publicUrl();
  const unconfirmed = to.emailVerified
    ? ""
    : `\n\nYour address is not confirmed yet: sign in and we will offer to send the confirmation link again.`;
  return sendMail(db, {
    to: to.email,
    kind: "already-registered",
    subject: "You already have a Linen & Loft account",
    text: `Someone, hopefully you, tried to create a Linen & Loft account with this email address, which already has one.\n\nSign in: ${base}/auth\nForgot your password? ${base}/auth/forgot-password${unconfirmed}\n\nIf it was not you, ignore this mail.`,
  });
}

export function sendPasswordChangedMail(db: Db, to: Person) {
  return sendMail(db, {
    to: to.email,
    kind: "password-changed",
    subject: "Your Linen & Loft password was changed",
    text: `The password of your Linen & Loft account was just changed, and every device was signed out.\n\nIf it was not you, reset it now: ${publicUrl()}/auth/forgot-password`,
  });
}
