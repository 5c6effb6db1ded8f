import { eq } from "drizzle-orm";
import { type Db, mailOptOuts } from "../../platform/index.server";
import { emailKey, isOptOutToken } from "./reminder-links.server";

/**
 * The reminder's unsubscribe link (docs/rules/after-sale.md, The abandoned-checkout reminder):
 * opening it only shows a button (mail programs open links to scan them); pressing it, or a mail
 * program's one-click unsubscribe, puts the address on mail_opt_outs. No sign-in: the signature
 * over the address is the proof. Doing it twice changes nothing.
 */

/** Longer than any address the checkout accepts (254); anything longer is not one of our links. */
const MAX_EMAIL = 320;

const usable = (email: unknown): email is string => typeof email === "string" && email.trim() !== "" && email.length <= MAX_EMAIL;

export type OptOutLink = { valid: false } | { valid: true; email: string; optedOut: boolean };

/** What the page shows before its button is pressed: whether the link is good, for which address, and whether it is done already. */
export async function describeOptOutLink(db: Db, email: unknown, token: unknown): Promise<OptOutLink> {
  if (!usable(email) || !isOptOutToken(email, token)) return { valid: false };
  return { valid: true, email: email.trim(), optedOut: await isOptedOut(db, email) };
}

/** The button: the address gets no more reminders. False for a bad or tampered link (nothing is written). */
export async function optOut(db: Db, email: unknown, token: unknown): Promise<boolean> {
  if (!usable(email) || !isOptOutToken(email, token)) return false;
  await db.insert(mailOptOuts).values({ emailKey: emailKey(email) }).onConflictDoNothing();
  return true;
}

export async function isOptedOut(db: Db, email: string): Promise<boolean> {
  const [row] = await db.select({ key: mailOptOuts.emailKey }).from(mailOptOuts).where(eq(mailOptOuts.emailKey, emailKey(email)));
  return Boolean(row);
}
