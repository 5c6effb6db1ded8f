import { createHmac } from "node:crypto";
import { desc, lt, or, and, eq } from "drizzle-orm";
import { type Db, PRIVACY_AUDIT_KINDS, privacyAuditLog, purposeKey } from "../../platform/index.server";

/** Who asked: the person themself (signed in, or a guest by a mailed link), an admin, or the periodic task. */
export type PrivacyActor = { kind: "customer" | "admin"; id: string } | { kind: "guest" } | { kind: "system" };
export type PrivacyAuditKind = (typeof PRIVACY_AUDIT_KINDS)[number];

/** An account is named by its id, which names nobody once the account is erased. */
export const userSubjectRef = (userId: string) => `user:${userId}`;

/**
 * An address is named by a keyed hash (the key derives from the server's secret, so the log alone
 * cannot be checked against a list of guessed addresses); the owner can still answer 'was this
 * address's data erased?' by hashing it again (`emailSubjectRef`).
 */
export const emailSubjectRef = (email: string) =>
  `email:${createHmac("sha256", purposeKey("privacy-audit")).update(email.trim().toLowerCase()).digest("hex").slice(0, 32)}`;

/** Only counts, never values: the row says what kind of data went and how much, not what it was. */
export async function writePrivacyAudit(
  db: Db,
  entry: { kind: PrivacyAuditKind; actor: PrivacyActor; subjectRef: string; counts: Record<string, number> },
) {
  await db.insert(privacyAuditLog).values({
    kind: entry.kind,
    actorKind: entry.actor.kind,
    // A customer's own id is the subject already; only an admin's id says who acted.
    actorId: entry.actor.kind === "admin" ? entry.actor.id : null,
    subjectRef: entry.subjectRef,
    counts: entry.counts,
  });
}

export type PrivacyAuditRow = {
  id: string;
  kind: PrivacyAuditKind;
  actorKind: string;
  actorId: string | null;
  actorEmail: string | null;
  subjectRef: string;
  counts: Record<string, number>;
  createdAt: string;
};

export const PRIVACY_AUDIT_PAGE_SIZE = 50;

/** The log, newest first, a page at a time (keyset on created_at, id); an admin's id shows as their address while they have an account. */
export async function listPrivacyAudit(
  db: Db,
  opts: { before?: { createdAt: Date; id: string }; subjectRef?: string; limit?: number } = {},
): Promise<PrivacyAuditRow[]> {
  const { before, subjectRef } = opts;
  const rows = await db.query.privacyAuditLog.findMany({
    where: and(
      subjectRef ? eq(privacyAuditLog.subjectRef, subjectRef) : undefined,
      before
        ? or(lt(privacyAuditLog.createdAt, before.createdAt), and(eq(privacyAuditLog.createdAt, before.createdAt), lt(privacyAuditLog.id, before.id)))
        : undefined,
    ),
    orderBy: [desc(privacyAuditLog.createdAt), desc(privacyAuditLog.id)],
    limit: opts.limit ?? PRIVACY_AUDIT_PAGE_SIZE,
  });
  const adminIds = [...new Set(rows.map((r) => r.actorId).filter((id): id is string => Boolean(id)))];
  const admins = adminIds.length
    ? await db.query.user.findMany({ where: (u, { inArray }) => inArray(u.id, adminIds), columns: { id: true, email: true } })
    : [];
  const emailOf = new Map(admins.map((a) => [a.id, a.email]));
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    actorKind: r.actorKind,
    actorId: r.actorId,
    actorEmail: r.actorId ? (emailOf.get(r.actorId) ?? null) : null,
    subjectRef: r.subjectRef,
    counts: r.counts,
    createdAt: r.createdAt.toISOString(),
  }));
}
