import { sql, type SQL } from "drizzle-orm";
import { REMINDER_COOLDOWN_DAYS, REMINDER_MAX_AGE_DAYS } from "~/lib/abandoned-checkout";
import { composeMail, type Db, loadTemplates, logger, type MailLineItem, publicUrl, queueMail } from "../../platform/index.server";
import { cartRestorePath, unsubscribePath } from "./reminder-links.server";
import { getReminderSetting, type StoredReminderSetting } from "./reminder-setting.server";

/**
 * The abandoned-checkout reminder (docs/rules/after-sale.md, The abandoned-checkout reminder): one
 * mail, some hours after a checkout that was never paid, to a signed-in shopper with a confirmed
 * account address who asked for it at checkout, or to a confirmed newsletter subscriber, with a
 * link back to a cart holding those lines.
 */

export const REMINDER_MAIL_KIND = "abandoned-checkout";

/** The class number of the per-address transaction lock (a two-number key, apart from the queue's alive locks' 7242101). */
const ADDRESS_LOCK_CLASS = 7_242_118;
/** Addresses handled per run; a run every 10 minutes leaves any backlog to the next. */
const ADDRESSES_PER_RUN = 200;

/**
 * A checkout that is due for its reminder, as SQL over `orders o`. Everything is read by the
 * database's clock, the one that stamped the orders.
 */
function due(setting: StoredReminderSetting): SQL {
  return sql`
        o.reminder_sent_at is null
    and o.payment_status in ('unpaid', 'failed', 'expired')
    and o.status in ('pending', 'cancelled')
    and o.created_at <= now() - make_interval(hours => ${setting.hours})
    and o.created_at > now() - make_interval(days => ${REMINDER_MAX_AGE_DAYS})
    ${setting.enabledSince ? sql`and o.created_at >= ${setting.enabledSince}::timestamptz` : sql``}
    and ${provenAddress()}
    and not exists (select 1 from mail_opt_outs x where x.email_key = lower(o.email))
    and not exists (select 1 from orders p
                     where lower(p.email) = lower(o.email) and p.paid_at is not null and p.paid_at >= o.created_at)`;
}

/**
 * Only an address that proved it reads its mail gets a reminder, since anyone can type any address
 * at checkout: a confirmed newsletter subscriber's, or, when the shopper ticked the box, the
 * confirmed email of the account that placed the checkout while signed in.
 */
function provenAddress(): SQL {
  return sql`(
         exists (select 1 from newsletter_subscriptions n
                  where lower(n.email) = lower(o.email) and n.confirmed_at is not null)
      or (o.email_about_order
          and exists (select 1 from users u
                       where u.id = o.user_id and u.email_verified and lower(u.email) = lower(o.email))))`;
}

export type ReminderRun = { reminded: number; covered: number };

/**
 * One run of the cron line: every address with a checkout due for its reminder. Off (the
 * default): nothing. Safe to run on several servers at once: each address is handled under a
 * transaction lock of its own, and each checkout is claimed by a conditional update.
 */
export async function sendCheckoutReminders(db: Db): Promise<ReminderRun> {
  const run: ReminderRun = { reminded: 0, covered: 0 };
  const setting = await getReminderSetting(db);
  if (!setting.enabled) return run;
  const found = await db.execute<{ email_key: string }>(sql`
    select distinct lower(o.email) as email_key from orders o where ${due(setting)} limit ${ADDRESSES_PER_RUN}`);
  for (const { email_key: key } of found.rows) {
    try {
      const outcome = await remindAddress(db, key, setting);
      if (outcome === "reminded") run.reminded++;
      else if (outcome === "covered") run.covered++;
    } catch (err) {
      // Nothing was marked (the transaction rolled back): the next run tries this address again.
      logger.error({ err: (err as Error).message }, "abandoned-checkout reminder failed; the next run tries again");
    }
  }
  return run;
}

type Claimed = { id: string; order_number: string; email: string; first_name: string; email_about_order: boolean; created_epoch: string };

/**
 * One address, in one transaction: claim its due checkouts (reminder_sent_at set only where it is
 * still null), then either record one mail about the newest of them — in the same transaction, so
 * a checkout is marked if and only if its mail is in the send log — or, when the address already
 * had a reminder in the last REMINDER_COOLDOWN_DAYS, mark them as covered by that one (stamped
 * with its time, so the quiet period is not prolonged) and mail nothing.
 */
async function remindAddress(db: Db, key: string, setting: StoredReminderSetting): Promise<"reminded" | "covered" | "none"> {
  return db.transaction(async (tx) => {
    // Two runs at once (two servers while the task changes hands) take an address in turn.
    await tx.execute(sql`select pg_advisory_xact_lock(${ADDRESS_LOCK_CLASS}, hashtext(${key}))`);
    const claimed = await tx.execute<Claimed>(sql`
      update orders o set reminder_sent_at = now()
       where lower(o.email) = ${key} and ${due(setting)}
       returning o.id, o.order_number, o.email, o.first_name, o.email_about_order, extract(epoch from o.created_at)::text as created_epoch`);
    if (claimed.rows.length === 0) return "none" as const;
    const ids = sql.join(
      claimed.rows.map((r) => sql`${r.id}`),
      sql`, `,
    );

    const covered = await tx.execute(sql`
      update orders set reminder_sent_at = prev.at
        from (select max(reminder_sent_at) as at from orders
               where lower(email) = ${key} and reminder_sent_at < now()
                 and reminder_sent_at > now() - make_interval(days => ${REMINDER_COOLDOWN_DAYS})) prev
       where prev.at is not null and orders.id in (${ids})
      returning orders.id`);
    if (covered.rows.length > 0) return "covered" as const;

    // The newest checkout is what the shopper last wanted.
    const newest = [...claimed.rows].sort((a, b) => Number(b.created_epoch) - Number(a.created_epoch))[0]!;
    const lines = await tx.execute<{ name: string; quantity: number; unit_price_cents: number; line_total_cents: string; image_url: string }>(sql`
      select name, quantity, unit_price_cents, line_total_cents, image_url
        from order_items where order_id = ${newest.id} order by name, id`);
    const mailLines: MailLineItem[] = lines.rows.map((l) => ({
      name: l.name,
      quantity: l.quantity,
      unitPriceCents: l.unit_price_cents,
      // bigint: the driver answers a string.
      lineTotalCents: Number(l.line_total_cents),
      imageUrl: l.image_url || null,
    }));
    const base = publicUrl();
    const order = { orderNumber: newest.order_number, email: newest.email };
    const { abandonedCheckoutMail } = await loadTemplates();
    const rendered = await composeMail(tx, (ctx) =>
      abandonedCheckoutMail(ctx, {
        firstName: newest.first_name,
        lines: mailLines,
        cartUrl: `${base}${cartRestorePath(order)}`,
        unsubscribeUrl: `${base}${unsubscribePath(newest.email)}`,
        reason: claimed.rows.some((r) => r.email_about_order) ? "asked" : "subscriber",
      }),
    );
    const queued = await queueMail(tx, { to: newest.email, kind: REMINDER_MAIL_KIND, ...rendered });
    logger.info({ orderNumber: newest.order_number, checkouts: claimed.rows.length, mailId: queued.id }, "abandoned-checkout reminder recorded");
    // Its job sends it after the commit; with SMTP down the send log retries it (its
    // List-Unsubscribe header is found again in the text).
    return "reminded" as const;
  });
}
