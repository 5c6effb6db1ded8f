import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const PRIVACY_AUDIT_KINDS = ["export", "erase-account", "erase-guest", "erase-expired-orders"] as const;
export const PRIVACY_ACTOR_KINDS = ["admin", "customer", "guest", "system"] as const;

/**
 * Every export and erasure of personal data (docs/rules/personal-data.md): who, when, what kind,
 * and counts of what went. Never the data itself, not even the address: `subject_ref` is the
 * account's id ('user:<id>', which names nobody once the account is gone) or a keyed hash of the
 * address ('email:<hmac>'), or the cut-off of a retention run. Owner: people.
 */
export const privacyAuditLog = pgTable(
  "privacy_audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: PRIVACY_AUDIT_KINDS }).notNull(),
    actorKind: text("actor_kind", { enum: PRIVACY_ACTOR_KINDS }).notNull(),
    /** The admin's user id when an admin acted; null for the person themself and the periodic task. */
    actorId: text("actor_id"),
    subjectRef: text("subject_ref").notNull(),
    counts: jsonb("counts").$type<Record<string, number>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("privacy_audit_log_created_idx").on(t.createdAt.desc(), t.id.desc()),
    check("privacy_audit_log_admin_has_id", sql`(${t.actorKind} = 'admin') = (${t.actorId} is not null)`),
  ],
);
