import { and, inArray } from "drizzle-orm";
import { type Db, logger, orders } from "../../platform/index.server";
import { confirmPayment } from "./confirm.server";
import { shopProviders, type Providers } from "./providers.server";

/** Sessions asked about per provider and run: a backlog is worked through over several runs. */
const PER_RUN = 500;

/**
 * How far back paid sessions are listed: a day and an hour, far longer than a payment page lives
 * (an hour), so a payment is still found after the shop was down for most of a day.
 */
const LOOK_BACK_MS = 25 * 60 * 60 * 1000;

/**
 * Finds payments the shop never heard about — a crash between the provider taking the money and
 * the order being settled, a webhook lost for good — and settles them: every session paid at a
 * provider in the last day (plus an hour) whose order is not marked paid goes through the same
 * idempotent confirmation as the result page. Returns how many orders it settled.
 */
export async function settleLostPayments(db: Db, opts: { providers?: Providers; now?: Date } = {}): Promise<number> {
  const providers = opts.providers ?? shopProviders(db);
  const since = new Date((opts.now ?? new Date()).getTime() - LOOK_BACK_MS);
  let settled = 0;
  for (const provider of providers.inUse()) {
    let ids: string[];
    try {
      ids = await provider.paidSessionsSince(since, PER_RUN);
    } catch (err) {
      logger.warn({ err: (err as Error).message, provider: provider.name }, "could not list paid payment sessions");
      continue;
    }
    if (!ids.length) continue;
    const unsettled = await db
      .select({ id: orders.id, orderNumber: orders.orderNumber, sessionId: orders.paymentSessionId })
      .from(orders)
      .where(and(inArray(orders.paymentSessionId, ids), inArray(orders.paymentStatus, ["unpaid", "failed", "expired"])));
    for (const order of unsettled) {
      try {
        const outcome = await confirmPayment(db, order.sessionId!, { providers });
        if (outcome.state !== "error" && outcome.state !== "pending") {
          settled++;
          logger.warn({ orderId: order.id, orderNumber: order.orderNumber, state: outcome.state }, "settled a payment whose confirmation was lost");
        }
      } catch (err) {
        logger.warn({ err: (err as Error).message, orderId: order.id, orderNumber: order.orderNumber }, "could not settle a lost payment");
      }
    }
  }
  return settled;
}
