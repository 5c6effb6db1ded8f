import { and, eq, isNotNull, isNull, lt } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { orders } from "../db/schema";
import { logger } from "../logger.server";
import { confirmPayment } from "../orders/confirm.server";
import { TEST_SESSION_TTL_MS } from "../payments/test-provider.server";
import { closeInterruptedCheckout, SESSION_OPEN_LIMIT_MS } from "./create-checkout.server";

/** Stripe's Checkout Sessions and the test provider's both lapse after 24 hours. */
const SESSION_LIFETIME_MS = TEST_SESSION_TTL_MS;
const BATCH = 100;

/**
 * Closes checkouts nobody will finish, so they stop counting as pending orders: those whose
 * server died before their payment page opened, and those whose payment page has lapsed (each
 * is asked of its provider, which answers "expired"; Stripe's webhook usually got there first).
 * Safe to run on every app server at once: each order is settled under its row lock.
 */
export async function closeAbandonedCheckouts(db: Db, now = new Date()): Promise<number> {
  const pendingUnpaid = and(eq(orders.status, "pending"), eq(orders.paymentStatus, "unpaid"));
  const interrupted = await db
    .select({ id: orders.id, createdAt: orders.createdAt, paymentSessionId: orders.paymentSessionId })
    .from(orders)
    .where(and(pendingUnpaid, isNull(orders.paymentSessionId), lt(orders.createdAt, new Date(now.getTime() - SESSION_OPEN_LIMIT_MS))))
    .limit(BATCH);
  let closed = 0;
  for (const order of interrupted) if (await closeInterruptedCheckout(db, order, now.getTime())) closed++;
  const lapsed = await db
    .select({ sessionId: orders.paymentSessionId })
    .from(orders)
    .where(and(pendingUnpaid, isNotNull(orders.paymentSessionId), lt(orders.createdAt, new Date(now.getTime() - SESSION_LIFETIME_MS))))
    .limit(BATCH);
  for (const { sessionId } of lapsed) {
    const outcome = await confirmPayment(db, sessionId!);
    if (outcome.state === "expired" || outcome.state === "failed") closed++;
  }
  return closed;
}

/** Runs the sweep every few minutes in the background of a running shop. */
export function startAbandonedCheckoutSweeper(db: Db, everyMs = 10 * 60_000) {
  const timer = setInterval(() => {
    closeAbandonedCheckouts(db)
      .then((n) => n > 0 && logger.info({ closed: n }, "closed abandoned checkouts"))
      .catch((err: Error) => logger.warn({ err: err.message }, "could not close abandoned checkouts"));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
