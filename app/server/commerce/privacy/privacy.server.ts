import { sql } from "drizzle-orm";
import { type Db, ERASED_EMAIL, ERASED_NAME, ERASED_TEXT, type PrivacySteps } from "../../platform/index.server";

/**
 * Commerce's part of an erasure (docs/rules/personal-data.md). Orders are the shop's records: an
 * erased account's orders stay with their personal fields (the foreign key detaches them, and the
 * saved cart goes with the account by cascade) until the retention period ends; then these fields
 * are replaced here. A checkout that was never paid (failed, expired, or cancelled unpaid) is no
 * record of a sale: its personal fields go at once, with the person's other data.
 */
export async function eraseOrderPersonalFields(tx: Db, orderIds: string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const ids = sql`(${sql.join(orderIds.map((id) => sql`${id}::uuid`), sql`, `)})`;
  const result = await tx.execute(sql`
    update orders set email = ${ERASED_EMAIL}, first_name = ${ERASED_NAME}, last_name = ${ERASED_TEXT},
      phone = ${ERASED_TEXT}, address = ${ERASED_TEXT}, city = ${ERASED_TEXT}, state = ${ERASED_TEXT},
      zip_code = ${ERASED_TEXT}, user_id = null, version = version + 1, updated_at = now()
    where id in ${ids}`);
  await tx.execute(sql`update order_events set note = ${ERASED_TEXT} where order_id in ${ids} and note <> ''`);
  await tx.execute(sql`
    update order_returns set reason_text = ${ERASED_TEXT}, shopper_message = ${ERASED_TEXT}, requested_by_user_id = null
    where order_id in ${ids}`);
  await tx.execute(sql`
    update test_payment_sessions set customer_email = ${ERASED_EMAIL}, card_last4 = null where order_id in ${ids}`);
  await tx.execute(sql`update discount_uses set email_key = null where order_id in ${ids} and email_key is not null`);
  return result.rowCount ?? 0;
}

export const commercePrivacySteps: PrivacySteps = {
  async account(tx, { userId }) {
    // Counted before the account's row goes: the foreign key then detaches them (user_id set null).
    const result = await tx.execute<{ n: number }>(sql`select count(*)::int as n from orders where user_id = ${userId}`);
    const cart = await tx.execute<{ n: number }>(sql`select count(*)::int as n from cart_lines where user_id = ${userId}`);
    return { ordersKept: result.rows[0]?.n ?? 0, savedCartLines: cart.rows[0]?.n ?? 0 };
  },
  async guest(tx, email) {
    const e = email.trim().toLowerCase();
    const abandoned = await tx.execute<{ id: string }>(sql`
      select id from orders
      where lower(email) = ${e}
        and (payment_status in ('failed', 'expired') or (payment_status = 'unpaid' and status = 'cancelled'))
      order by id for update`);
    return { abandonedCheckouts: await eraseOrderPersonalFields(tx, abandoned.rows.map((r) => r.id)) };
  },
  async expiredOrders(tx, orderIds) {
    return { orders: await eraseOrderPersonalFields(tx, orderIds) };
  },
};
