import { sql, type SQL } from "drizzle-orm";
import { UNSHIPPED_AFTER_DAYS } from "~/lib/dashboard-view";
import { type Db, orders, paymentTasks } from "../../platform/index.server";

/**
 * Orders that need the owner (the dashboard's 'Needs attention' card and the orders list's
 * `needs=` filter read the same conditions, so the count and the list agree).
 */

export const ORDER_NEEDS = ["unshipped", "refund-failed", "refund-to-confirm"] as const;
export type OrderNeed = (typeof ORDER_NEEDS)[number];

export const isOrderNeed = (v: string | null): v is OrderNeed => v !== null && (ORDER_NEEDS as readonly string[]).includes(v);

/**
 * Paid (a partial refund leaves it paid for the rest), not cancelled, and still pending or processing two days after the payment. Written as
 * orders_unshipped_idx's predicate, so only the few orders waiting to ship are read.
 */
export function unshippedCondition(): SQL {
  return sql`(${orders.paymentStatus} in ('paid', 'partially_refunded') and ${orders.status} in ('pending', 'processing') and ${orders.paidAt} < now() - make_interval(days => ${UNSHIPPED_AFTER_DAYS}))`;
}

/**
 * A refund the payment provider refused at least once and that is still owed (settlement retries
 * it with backoff until it goes through; the owner may have to refund by hand). Pending tasks are
 * few and indexed (payment_tasks_due_idx).
 */
export function refundFailedCondition(): SQL {
  return sql`${orders.id} in (select ${paymentTasks.orderId} from ${paymentTasks}
    where ${paymentTasks.state} = 'pending' and ${paymentTasks.kind} in ('refund', 'refund_difference') and ${paymentTasks.attempts} > 0)`;
}

/**
 * A payment that did not match its order's total, with the refund it calls for waiting for the
 * owner's confirmation (settlement/refund-difference.server.ts). Such rows are few.
 */
export function refundToConfirmCondition(): SQL {
  return sql`${orders.id} in (select ${paymentTasks.orderId} from ${paymentTasks} where ${paymentTasks.state} = 'awaiting_owner')`;
}

export function orderNeedCondition(need: OrderNeed): SQL {
  if (need === "unshipped") return unshippedCondition();
  return need === "refund-failed" ? refundFailedCondition() : refundToConfirmCondition();
}

/** How many orders have this need, counted up to `cap`. */
export async function countOrdersNeeding(db: Db, need: OrderNeed, cap = 1000): Promise<{ count: number; capped: boolean }> {
  const result = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${orders} where ${orderNeedCondition(need)} limit ${cap + 1}) needing`,
  );
  const n = result.rows[0]?.n ?? 0;
  return { count: Math.min(n, cap), capped: n > cap };
}
