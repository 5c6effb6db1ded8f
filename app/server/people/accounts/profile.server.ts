import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Profile } from "~/lib/accounts-view";
import { type Db, profiles, user } from "../../platform/index.server";

export const NAME_MAX_LENGTH = 100;
export const PHONE_MAX_LENGTH = 40;

const name = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .transform((v) => v.normalize("NFC").trim())
    .pipe(z.string().max(NAME_MAX_LENGTH, `${label} must be at most ${NAME_MAX_LENGTH} characters`));

/**
 * What a person may change about themselves. Strict: a body that also names the email, the role
 * or a user id is refused outright rather than silently half-applied.
 */
export const ProfileInput = z.strictObject(
  {
    firstName: name("First name"),
    lastName: name("Last name"),
    phone: z
      .string({ error: "Phone must be text" })
      .trim()
      .max(PHONE_MAX_LENGTH, `Phone must be at most ${PHONE_MAX_LENGTH} characters`)
      .regex(/^[0-9+()./\-\s]*(?:(?:ext\.?|x)\s*[0-9]+)?$/i, "Phone may contain only digits, spaces and + ( ) - ."),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `These fields cannot be changed here: ${issue.keys.join(", ")}` : undefined) },
);
export type ProfileInput = z.infer<typeof ProfileInput>;

/** Creates the profile row if the account has none (accounts made before profiles, or by scripts). */
export async function ensureProfile(db: Db, p: { userId: string; email: string; firstName?: string; lastName?: string }) {
  await db
    .insert(profiles)
    .values({ userId: p.userId, email: p.email, firstName: p.firstName ?? "", lastName: p.lastName ?? "" })
    .onConflictDoNothing({ target: profiles.userId });
}

/** The signed-in person's profile. The email shown is the account's, which the profile cannot change. */
export async function getProfile(db: Db, userId: string): Promise<Profile | null> {
  const [row] = await db
    .select({ firstName: profiles.firstName, lastName: profiles.lastName, phone: profiles.phone, email: user.email })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, userId));
  if (!row) return null;
  if (row.firstName === null) await ensureProfile(db, { userId, email: row.email });
  return { firstName: row.firstName ?? "", lastName: row.lastName ?? "", phone: row.phone ?? "", email: row.email };
}

/** Updates only the given user's own names and phone, and keeps the account's display name in step. */
export async function updateProfile(db: Db, userId: string, input: ProfileInput): Promise<Profile> {
  return db.transaction(async (tx) => {
    const [account] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
    if (!account) throw new Error("No such user");
    await ensureProfile(tx, { userId, email: account.email });
    await tx
      .update(profiles)
      .set({ firstName: input.firstName, lastName: input.lastName, phone: input.phone, email: account.email })
      .where(eq(profiles.userId, userId));
    await tx
      .update(user)
      .set({ name: `${input.firstName} ${input.lastName}`.trim() })
      .where(eq(user.id, userId));
    return { ...input, email: account.email };
  });
}
