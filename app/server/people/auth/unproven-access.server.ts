import { and, eq } from "drizzle-orm";
import { account, type Db, session } from "../../platform/index.server";

/**
 * Run as an address is confirmed: whoever signed it up never proved the mailbox, so the
 * password chosen then and any session are dropped. The one who confirms chooses the password
 * (confirm-email.server.ts), so an account made in someone else's name is never theirs.
 */
export async function dropUnprovenAccess(db: Db, userId: string) {
  await db.transaction(async (tx) => {
    await tx.delete(session).where(eq(session.userId, userId));
    await tx.update(account).set({ password: null, updatedAt: new Date() }).where(and(eq(account.userId, userId), eq(account.providerId, "credential")));
  });
}
