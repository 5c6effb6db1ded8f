import { randomUUID } from "node:crypto";
import { account, type Db, profiles, user } from "../../platform/index.server";

/** The credential row better-auth keeps for an email-and-password account. */
export async function insertCredentialAccount(db: Db, userId: string, passwordHash: string) {
  await db.insert(account).values({
    id: randomUUID(),
    accountId: userId,
    providerId: "credential",
    userId,
    password: passwordHash,
    updatedAt: new Date(),
  });
}

export type NewPasswordUser = {
  /** Already trimmed and lower-cased. */
  email: string;
  /** better-auth's hashPassword() of the password. */
  passwordHash: string;
  name: string;
  role: "customer" | "admin";
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  phone?: string;
};

/**
 * Writes the rows an email-and-password sign-up leaves (better-auth's user and credential account,
 * the shop's profile) without going through sign-up; run it inside a transaction. Returns the id.
 */
export async function insertPasswordUser(db: Db, u: NewPasswordUser): Promise<string> {
  const id = randomUUID();
  await db.insert(user).values({ id, name: u.name, email: u.email, emailVerified: u.emailVerified, role: u.role });
  await insertCredentialAccount(db, id, u.passwordHash);
  await db.insert(profiles).values({ userId: id, email: u.email, firstName: u.firstName, lastName: u.lastName, phone: u.phone ?? "" });
  return id;
}
