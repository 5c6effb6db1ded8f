import { sql } from "drizzle-orm";
import { addDays } from "~/lib/date-range";
import { UNSHIPPED_AFTER_DAYS, type AttentionItem } from "~/lib/dashboard-view";
import { countLowStock } from "../../catalog/index.server";
import { contactMessages, countFailedJobs, countFailedMails, type Db, searchTermsDaily } from "../../platform/index.server";
import { countOrdersNeeding } from "../../commerce/index.server";
import { dashboardPeriods } from "./dashboard.server";

/** Beyond this a count shows as "1,000+": the owner needs to know there is a lot, not the exact number. */
const CAP = 1000;

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

async function countOpenMessages(db: Db) {
  // Through contact_messages_open_idx: only the unanswered messages are read.
  const result = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${contactMessages} where not ${contactMessages.handled} limit ${CAP + 1}) open`,
  );
  const n = result.rows[0]?.n ?? 0;
  return { count: Math.min(n, CAP), capped: n > CAP };
}

/** Search terms that found nothing at least once in the last 7 UTC days (today included). */
async function countEmptySearchTerms(db: Db, now: Date) {
  const today = dashboardPeriods(now).current.end;
  const result = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (
      select 1 from ${searchTermsDaily}
      where ${searchTermsDaily.day} between ${addDays(today, -6)}::date and ${today}::date and ${searchTermsDaily.emptySearches} > 0
      group by ${searchTermsDaily.term}
      limit ${CAP + 1}
    ) empty`);
  const n = result.rows[0]?.n ?? 0;
  return { count: Math.min(n, CAP), capped: n > CAP };
}

/** Mails that failed and are not delivered yet (retrying or given up), as the Outbox badge counts them. */
async function countMailsFailed(db: Db) {
  const n = await countFailedMails(db);
  return { count: Math.min(n, CAP), capped: n > CAP };
}

/** Background jobs whose tries are spent, as the Background jobs badge counts them. */
async function countJobsFailed(db: Db) {
  const n = await countFailedJobs(db);
  return { count: Math.min(n, CAP), capped: n > CAP };
}

/**
 * The 'Needs attention' card: each thing the owner should act on, with how many and a link to the
 * page that lists them. Only those with a count above zero, in a fixed order.
 */
export async function getAttentionItems(db: Db, now = new Date()): Promise<AttentionItem[]> {
  const [lowStock, unshipped, messages, refunds, toConfirm, mails, jobs, searches] = await Promise.all([
    countLowStock(db, CAP),
    countOrdersNeeding(db, "unshipped", CAP),
    countOpenMessages(db),
    countOrdersNeeding(db, "refund-failed", CAP),
    countOrdersNeeding(db, "refund-to-confirm", CAP),
    countMailsFailed(db),
    countJobsFailed(db),
    countEmptySearchTerms(db, now),
  ]);
  const items: AttentionItem[] = [
    {
      kind: "low_stock",
      ...lowStock,
      label: plural(lowStock.count, "product at or below its low-stock threshold", "products at or below their low-stock threshold"),
      action: "Restock",
      href: "/admin/products?stock=low",
    },
    {
      kind: "unshipped",
      ...unshipped,
      label: `${plural(unshipped.count, "paid order", "paid orders")} not shipped after ${UNSHIPPED_AFTER_DAYS} days`,
      action: "Ship",
      href: "/admin/orders?needs=unshipped",
    },
    {
      kind: "messages",
      ...messages,
      label: plural(messages.count, "contact message not answered", "contact messages not answered"),
      action: "Answer",
      href: "/admin/inbox",
    },
    {
      kind: "refunds",
      ...refunds,
      label: plural(refunds.count, "refund that failed", "refunds that failed"),
      action: "Refund by hand",
      href: "/admin/orders?needs=refund-failed",
    },
    {
      kind: "refunds_to_confirm",
      ...toConfirm,
      label: plural(toConfirm.count, "payment that differs from its order's total", "payments that differ from their order's total"),
      action: "Confirm refund",
      href: "/admin/orders?needs=refund-to-confirm",
    },
    {
      kind: "mails",
      ...mails,
      label: plural(mails.count, "mail that failed to send", "mails that failed to send"),
      action: "See mails",
      href: "/admin/outbox?state=failed",
    },
    {
      kind: "jobs",
      ...jobs,
      label: plural(jobs.count, "background job that failed every try", "background jobs that failed every try"),
      action: "See jobs",
      href: "/admin/jobs",
    },
    {
      kind: "searches",
      ...searches,
      label: plural(searches.count, "search term found nothing this week", "search terms found nothing this week"),
      action: "See searches",
      href: "/admin/analytics#searches",
    },
  ];
  return items.filter((i) => i.count > 0);
}
