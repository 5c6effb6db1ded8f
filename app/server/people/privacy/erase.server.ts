import { sql } from "drizzle-orm";
import { eraseReviewsOf } from "../../catalog/index.server";
import { type Db, DomainError, ERASED_EMAIL, type ErasureCounts, eraseOutboxMailsAbout, privacySteps } from "../../platform/index.server";
import { emailSubjectRef, type PrivacyActor, userSubjectRef, writePrivacyAudit } from "./audit.server";

/**
 * Erasure (docs/rules/personal-data.md; the registry, registry.ts, says column by column what goes).
 * Each area erases the rows it owns: people here, catalog through its face, platform's outbox, and
 * commerce's and content's steps, which their faces register with platform (they stand above people
 * on the ladder, so people cannot import them). Everything of one request runs in ONE transaction,
 * with its audit row: never half-erased.
 */

export const ORDER_BEING_PAID = "You have an order being paid. Try again in an hour.";
export const ACCOUNT_NOT_FOUND = "This account no longer exists.";

/** Why an erasure cannot go ahead now. */
export class PrivacyRefusal extends DomainError<"conflict" | "not_found"> {}

/** The areas whose registered steps an erasure needs: missing one is a programming error, never a silent gap. */
const AREAS_WITH_STEPS = ["commerce", "content"] as const;

function steps() {
  const all = privacySteps();
  const missing = AREAS_WITH_STEPS.filter((area) => !all.some(([name]) => name === area));
  if (missing.length) {
    throw new Error(`Personal-data erasure needs the ${missing.join(" and ")} privacy steps: import their faces (the app's routes do).`);
  }
  return all.map(([, s]) => s);
}

function add(into: ErasureCounts, more: ErasureCounts) {
  for (const [k, v] of Object.entries(more)) into[k] = (into[k] ?? 0) + v;
  return into;
}

/**
 * An order that is being paid: unpaid and not cancelled (its checkout's payment page may still be
 * open; the expiry task closes it within the hour). Erasing under it would leave a payment with
 * nobody to confirm it to.
 */
async function refuseWhileBeingPaid(tx: Db, where: { userId?: string; email: string }) {
  const result = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n from orders
    where payment_status = 'unpaid' and status <> 'cancelled'
      and (${where.userId ?? null}::text is not null and user_id = ${where.userId ?? null} or lower(email) = ${where.email})`);
  if ((result.rows[0]?.n ?? 0) > 0) throw new PrivacyRefusal(ORDER_BEING_PAID, "conflict");
}

/** One-time links and codes naming the account or the address (email confirmations, sign-in links, data-request links). */
async function deleteVerifications(tx: Db, subject: { userId?: string; email: string }) {
  const result = await tx.execute(sql`
    delete from verifications
    where lower(identifier) = ${subject.email} or strpos(lower(value), ${subject.email}) > 0
       or (${subject.userId ?? null}::text is not null and strpos(value, ${subject.userId ?? ""}) > 0)`);
  return result.rowCount ?? 0;
}

/** What goes at once under an address, for an account and a guest alike. */
async function eraseUnderAddress(tx: Db, email: string, counts: ErasureCounts) {
  for (const s of steps()) if (s.guest) add(counts, await s.guest(tx, email));
  add(counts, { mails: await eraseOutboxMailsAbout(tx, email) });
}

export type EraseResult = { counts: ErasureCounts };

/**
 * Erases an account: the account and its sign-in rows, sessions, profile, saved addresses, saved
 * cart and 2FA secrets (by cascade from `users`), one-time links, the newsletter entry, contact
 * messages, never-paid checkouts and the mails about the address; reviews deleted or kept signed
 * 'A customer'. Its orders are detached and kept as the shop's records (their personal fields until
 * the retention period ends, eraseExpiredOrderData). An open return goes on as the shop's business
 * with its order (its link to the account is cut). Refused while an order is being paid.
 */
export async function eraseAccount(
  db: Db,
  userId: string,
  opts: { reviews: "delete" | "keep"; actor: Extract<PrivacyActor, { kind: "customer" | "admin" }> },
): Promise<EraseResult> {
  const all = steps();
  return db.transaction(async (tx) => {
    // Locks the account: a checkout starting now waits on its foreign key and then finds no account.
    const found = await tx.execute<{ email: string }>(sql`select email from users where id = ${userId} for update`);
    const row = found.rows[0];
    if (!row) throw new PrivacyRefusal(ACCOUNT_NOT_FOUND, "not_found");
    const email = row.email.trim().toLowerCase();
    await refuseWhileBeingPaid(tx, { userId, email });

    const counts: ErasureCounts = {};
    const own = await tx.execute<{ sessions: number; addresses: number; two_factor: number }>(sql`
      select (select count(*)::int from sessions where user_id = ${userId}) as sessions,
             (select count(*)::int from saved_addresses where user_id = ${userId}) as addresses,
             (select count(*)::int from two_factors where user_id = ${userId}) as two_factor`);
    const o = own.rows[0]!;
    add(counts, { account: 1, sessions: o.sessions, addresses: o.addresses, twoFactor: o.two_factor });
    for (const s of all) if (s.account) add(counts, await s.account(tx, { userId, email }, { reviews: opts.reviews }));
    const reviews = await eraseReviewsOf(tx, userId, opts.reviews);
    add(counts, opts.reviews === "delete" ? { reviewsDeleted: reviews.reviews } : { reviewsKept: reviews.reviews });
    await eraseUnderAddress(tx, email, counts);
    add(counts, { oneTimeLinks: await deleteVerifications(tx, { userId, email }) });
    // The cascade takes accounts, sessions, profiles, two_factors, saved_addresses and cart_lines;
    // orders, reviews and returns keep their rows with the link set null.
    await tx.execute(sql`delete from users where id = ${userId}`);
    await writePrivacyAudit(tx, { kind: "erase-account", actor: opts.actor, subjectRef: userSubjectRef(userId), counts });
    return { counts };
  });
}

/**
 * What a guest can have erased at once under their address: the newsletter entry, contact
 * messages, never-paid checkouts (and so their reminders), the mails about the address and one-time
 * links. Orders stay until the retention period ends; an account under the address stays (only its
 * holder, signed in, deletes it). Refused while an order under the address is being paid.
 */
export async function eraseGuestData(db: Db, email: string, actor: PrivacyActor): Promise<EraseResult> {
  const e = email.trim().toLowerCase();
  steps();
  return db.transaction(async (tx) => {
    await refuseWhileBeingPaid(tx, { email: e });
    const counts: ErasureCounts = {};
    await eraseUnderAddress(tx, e, counts);
    add(counts, { oneTimeLinks: await deleteVerifications(tx, { email: e }) });
    await writePrivacyAudit(tx, { kind: "erase-guest", actor, subjectRef: emailSubjectRef(e), counts });
    return { counts };
  });
}

export const EXPIRED_ORDERS_BATCH = 200;

/**
 * The periodic task: orders placed before `now` minus the retention period lose their personal
 * fields (commerce's step: name, address, phone, email replaced by fixed texts; notes and return
 * messages emptied). In batches, each one transaction with its audit row; an erased order reads
 * email 'erased@invalid' and is not picked again, so an interrupted run resumes where it stopped.
 * Two servers running it at once take different orders (skip locked).
 */
export async function eraseExpiredOrderData(db: Db, now: Date, retentionYears: number, batchSize = EXPIRED_ORDERS_BATCH) {
  if (!Number.isInteger(retentionYears) || retentionYears < 1) throw new Error(`retention of ${retentionYears} years: at least 1`);
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - retentionYears);
  const all = steps();
  let orders = 0;
  let batches = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const picked = await tx.execute<{ id: string }>(sql`
        select id from orders
        where created_at < ${cutoff.toISOString()}::timestamptz and email <> ${ERASED_EMAIL}
        order by created_at, id limit ${batchSize} for update skip locked`);
      const ids = picked.rows.map((r) => r.id);
      if (ids.length === 0) return 0;
      const counts: ErasureCounts = {};
      for (const s of all) if (s.expiredOrders) add(counts, await s.expiredOrders(tx, ids));
      await writePrivacyAudit(tx, {
        kind: "erase-expired-orders",
        actor: { kind: "system" },
        subjectRef: `orders-before:${cutoff.toISOString().slice(0, 10)}`,
        counts,
      });
      return ids.length;
    });
    if (done === 0) break;
    orders += done;
    batches += 1;
  }
  return { orders, batches, cutoff };
}
