import { and, asc, eq, gt, isNotNull, isNull, lt } from "drizzle-orm";
import { type Db, logger, orders } from "../../platform/index.server";
import { PAYMENT_SESSION_LIFETIME_MS } from "../payments/provider.server";
import { closeInterruptedCheckout, SESSION_OPEN_LIMIT_MS } from "./close.server";
import { confirmPayment } from "./confirm.server";
import type { Providers } from "./providers.server";

const BATCH = 100;
/** Provider look-ups per sweep: a long backlog is worked through over several sweeps. */
const MAX_LOOKUPS_PER_SWEEP = 500;

/** Where the last sweep stopped among the lapsed orders (by id), per process. */
export type Sweeper = { cursor: string | null };

/**
 * Closes checkouts nobody will finish, so they stop counting as pending orders: those whose
 * server died before their payment page opened, and those whose payment page has lapsed (each
 * is asked of its provider, which answers "expired"; Stripe's webhook usually got there first).
 * Safe to run on every app server at once: each order is settled under its row lock. Lapsed
 * orders the provider cannot settle (it no longer knows the session; a bank debit still in
 * flight) stay pending, so each sweep goes on from where the previous one stopped, in id
 * order, and one order's failure never stops the others.
 */
export async function closeAbandonedCheckouts(
  db: Db,
  now = new Date(),
  state: Sweeper = { cursor: null },
  { batch = BATCH, maxLookups = MAX_LOOKUPS_PER_SWEEP, providers }: { batch?: number; maxLookups?: number; providers?: Providers } = {},
): Promise<number> {
  const pendingUnpaid = and(eq(orders.status, "pending"), eq(orders.paymentStatus, "unpaid"));
  let closed = 0;

  const interrupted = await db
    .select({ id: orders.id, orderNumber: orders.orderNumber, createdAt: orders.createdAt, paymentSessionId: orders.paymentSessionId })
    .from(orders)
    .where(and(pendingUnpaid, isNull(orders.paymentSessionId), lt(orders.createdAt, new Date(now.getTime() - SESSION_OPEN_LIMIT_MS))))
    .orderBy(asc(orders.createdAt), asc(orders.id))
    .limit(BATCH);
  for (const order of interrupted) {
    try {
      if (await closeInterruptedCheckout(db, order, now.getTime())) closed++;
    } catch (err) {
      logger.warn({ err: (err as Error).message, orderId: order.id, orderNumber: order.orderNumber }, "could not close an interrupted checkout");
    }
  }

  const lapsedBefore = new Date(now.getTime() - PAYMENT_SESSION_LIFETIME_MS);
  for (let looked = 0; looked < maxLookups; ) {
    const after = state.cursor;
    const page = await db
      .select({ id: orders.id, orderNumber: orders.orderNumber, sessionId: orders.paymentSessionId })
      .from(orders)
      .where(
        and(
          pendingUnpaid,
          isNotNull(orders.paymentSessionId),
          lt(orders.createdAt, lapsedBefore),
          after ? gt(orders.id, after) : undefined,
        ),
      )
      .orderBy(asc(orders.id))
      .limit(batch);
    for (const order of page) {
      looked++;
      state.cursor = order.id;
      try {
        const outcome = await confirmPayment(db, order.sessionId!, { providers });
        if (outcome.state === "expired" || outcome.state === "failed") closed++;
      } catch (err) {
        logger.warn({ err: (err as Error).message, orderId: order.id, orderNumber: order.orderNumber }, "could not settle a lapsed checkout");
      }
    }
    if (page.length < batch) {
      // The end of the backlog: the next sweep starts from the beginning again.
      state.cursor = null;
      break;
    }
  }
  return closed;
}

/**
 * The sweep's place in this process: a run that stops at its time budget goes on from here the
 * next time this server gets the sweep; another server starts from the beginning.
 */
export const sweepHere: Sweeper = { cursor: null };
