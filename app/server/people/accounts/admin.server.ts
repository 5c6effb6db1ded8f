import { hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { account, type Db, user } from "../../platform/index.server";
import { insertCredentialAccount, insertPasswordUser } from "./password-user.server";

export const AdminInput = z.object({
  email: z.email("must be a valid email address").transform((e) => e.trim().toLowerCase()),
  password: z.string().min(8, "must be at least 8 characters").max(128, "must be at most 128 characters"),
  name: z.string().trim().max(200).optional(),
});

/**
 * Creates an admin, or promotes the existing account with that email (and sets its password).
 * Writes the same rows better-auth writes for an email-and-password sign-up.
 */
export async function createOrPromoteAdmin(db: Db, input: z.input<typeof AdminInput>) {
  const { email, password, name } = AdminInput.parse(input);
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: user.id }).from(user).where(eq(sql`lower(${user.email})`, email));
    if (existing) {
      await tx.update(user).set({ role: "admin", emailVerified: true }).where(eq(user.id, existing.id));
      const updated = await tx
        .update(account)
        .set({ password: hash, updatedAt: new Date() })
        .where(sql`${account.userId} = ${existing.id} and ${account.providerId} = 'credential'`)
        .returning({ id: account.id });
      if (updated.length === 0) await insertCredentialAccount(tx, existing.id, hash);
      return { id: existing.id, email, created: false };
    }
    const id = await insertPasswordUser(tx, {
      email,
      passwordHash: hash,
      name: name ?? "Shop Admin",
      role: "admin",
      emailVerified: true,
      firstName: name ?? "Shop",
      lastName: name ? "" : "Admin",
    });
    return { id, email, created: true };
  });
}
