import { eq } from "drizzle-orm";
import { type Db, orders } from "../../platform/index.server";
import { payTestSession, type TestPaymentResult } from "../payments/test-provider.server";
import { closeUnpaidOrder } from "./close.server";
import { afterPayment, confirmPayment, takePayment, type AppliedPayment } from "./confirm.server";
import { shopProviders, type Providers } from "./providers.server";

/**
 * The built-in test provider's Pay button. The card is charged (or declined) and the order settled
 * in ONE transaction, so a crash can never leave a paid session beside an unpaid order; the mail
 * and any refund follow the commit, as after Stripe's webhook.
 */
export async function payWithTestCard(db: Db, sessionId: string, card: unknown, opts: { providers?: Providers } = {}): Promise<TestPaymentResult> {
  const providers = opts.providers ?? shopProviders(db);
  const mails: string[] = [];
  const { result, applied } = await db.transaction(async (tx) => {
    const result = await payTestSession(tx, sessionId, card);
    let applied: AppliedPayment | null = null;
    const session = result.kind === "done" ? result.session : undefined;
    if (session) {
      const [order] = await tx
        .select({ id: orders.id, total: orders.totalAmountCents, currency: orders.currency })
        .from(orders)
        .where(eq(orders.paymentSessionId, sessionId));
      // A session that is not this order's, or not for its total, is left to confirmPayment to refuse.
      const matches = order && (!session.orderId || session.orderId === order.id) && session.amountTotalCents === order.total && (session.currency ?? order.currency) === order.currency;
      if (order && matches && session.state === "paid") applied = await takePayment(tx, order.id, session, "test", mails);
      else if (order && session.state === "failed") await closeUnpaidOrder(tx, order.id, "failed", "test");
    }
    return { result, applied };
  });
  if (result.kind === "done") {
    if (applied === "paid" || applied === "sold_out") await afterPayment(db, sessionId, applied, providers, mails);
    // Declined, lapsed, already closed, or paid for an order closed meanwhile: the idempotent path decides.
    else await confirmPayment(db, sessionId, { providers });
  }
  return result;
}
