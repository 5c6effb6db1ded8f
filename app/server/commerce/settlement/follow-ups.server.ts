import { eq } from "drizzle-orm";
import { type Db, enqueue, orders } from "../../platform/index.server";
import { keepOrderAddress } from "../../people/index.server";
import { clearBoughtFromSavedCart } from "../cart/saved-cart.server";

/**
 * What a payment sets in motion for the shopper beyond the order itself, done after the payment's
 * commit by a job added in its transaction: a crash after the commit cannot lose it, and a
 * rolled-back payment never does it. (The order's mails are jobs of the mail send log, added in
 * the same transaction; refunds are recorded provider calls.)
 */
export const ORDER_PAID_TASK = "commerce:order-paid";

/** In the payment's transaction: the paid order's follow-up job, once per order. */
export async function recordPaidFollowUps(tx: Db, order: { id: string; userId: string | null }): Promise<void> {
  // A guest has no address book and no saved cart.
  if (!order.userId) return;
  await enqueue(tx, ORDER_PAID_TASK, { orderId: order.id }, { jobKey: `order-paid:${order.id}` });
}

/**
 * The job: a signed-in shopper's address book keeps the address they paid with (it never fails
 * the job: a full book is left as it is), and what they bought leaves their saved cart, so no
 * other device brings it back. Both are harmless to repeat when the job is retried.
 */
export async function doPaidFollowUps(db: Db, orderId: string): Promise<void> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order?.userId || order.paymentStatus === "unpaid") return;
  await keepOrderAddress(db, order);
  const userId = order.userId;
  await db.transaction((tx) => clearBoughtFromSavedCart(tx, userId, order.id));
}
