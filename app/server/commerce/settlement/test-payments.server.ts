import { eq } from "drizzle-orm";
import { type Db, orders } from "../../platform/index.server";
import { payTestSession, type TestPaymentResult } from "../payments/test-provider.server";
import { closeUnpaidOrder } from "./close.server";
import { confirmPayment } from "./confirm.server";
import type { Providers } from "./providers.server";
import { sessionFitsOrder, takePayment } from "./take-payment.server";

/**
 * The built-in test provider's Pay button. The card is charged (or declined) and the order settled
 * in ONE transaction, so a crash can never leave a paid session beside an unpaid order; the mail,
 * the follow-ups and any refund are jobs added in it, as after Stripe's webhook.
 */
export async function payWithTestCard(db: Db, sessionId: string, card: unknown, opts: { providers?: Providers } = {}): Promise<TestPaymentResult> {
  const result = await db.transaction(async (tx) => {
    const result = await payTestSession(tx, sessionId, card);
    const session = result.kind === "done" ? result.session : undefined;
    if (session) {
      const [order] = await tx
        .select({ id: orders.id, totalAmountCents: orders.totalAmountCents, currency: orders.currency, paymentSessionId: orders.paymentSessionId })
        .from(orders)
        .where(eq(orders.paymentSessionId, sessionId));
      // A session that is not this order's, or not for its total, is left to confirmPayment to refuse.
      const fits = order && sessionFitsOrder(session, order) === "fits";
      if (order && fits && session.state === "paid") await takePayment(tx, order.id, session, "test");
      else if (order && session.state === "failed") await closeUnpaidOrder(tx, order.id, "failed", "test");
    }
    return result;
  });
  // Whatever the transaction decided, the idempotent path answers the rest: a sold-out order's
  // refund now, a decline, a lapse, or a payment for an order closed meanwhile.
  if (result.kind === "done") await confirmPayment(db, sessionId, opts);
  return result;
}
