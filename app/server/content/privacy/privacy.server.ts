import { sql } from "drizzle-orm";
import type { PrivacySteps } from "../../platform/index.server";

/**
 * What content keeps under an address and erases at once when its owner asks (an account's
 * erasure or a guest's): the newsletter entry and the contact messages. Registered with platform's
 * privacy steps by content's face; the people area runs it in the erasure's transaction.
 */
export const contentPrivacySteps: PrivacySteps = {
  async guest(tx, email) {
    const e = email.trim().toLowerCase();
    const newsletter = await tx.execute(sql`delete from newsletter_subscriptions where lower(email) = ${e}`);
    const messages = await tx.execute(sql`delete from contact_messages where lower(email) = ${e}`);
    return { newsletter: newsletter.rowCount ?? 0, contactMessages: messages.rowCount ?? 0 };
  },
};
