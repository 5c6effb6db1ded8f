import { sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { ERASED_EMAIL, ERASED_TEXT } from "./steps.server";

/**
 * The outbox keeps that a mail went, when and of which kind; after a person's erasure, not to whom
 * or what it said. A mail counts as theirs when it was sent to the address or names it in its
 * body (an owner's notice about their order). Its status and times stay, so the outbox's counts do.
 * A mail still waiting to go is given up (with that reason): nothing is sent to an erased address.
 */
export async function eraseOutboxMailsAbout(tx: Db, email: string): Promise<number> {
  const e = email.trim().toLowerCase();
  if (!e) return 0;
  const result = await tx.execute(sql`
    update mail_outbox set "to" = ${ERASED_EMAIL}, subject = ${ERASED_TEXT}, text = ${ERASED_TEXT}, html = null,
      status = case when status in ('queued', 'retrying') then 'given_up' else status end,
      next_attempt_at = case when status in ('queued', 'retrying') then null else next_attempt_at end,
      error = case when status in ('queued', 'retrying') then 'Not sent: erased at the person''s request.' else error end
    where lower("to") = ${e} or strpos(lower(text), ${e}) > 0 or strpos(lower(coalesce(html, '')), ${e}) > 0`);
  return result.rowCount ?? 0;
}
