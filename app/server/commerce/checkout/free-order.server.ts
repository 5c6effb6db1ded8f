import { eq } from "drizzle-orm";
import { type Db, orders } from "../../platform/index.server";
import { closeUnpaidOrder } from "../settlement/close.server";
import { takePayment } from "../settlement/take-payment.server";

/** The label a $0.00 order's timeline and payment carry instead of a provider's. */
export const NO_PAYMENT_NEEDED = "No payment needed";

/** The session id a $0.00 order is found by on the result page: no provider ever saw it. */
export const freeSessionId = (orderId: string) => `free_${orderId}`;

/**
 * A $0.00 order (a 100 % code, free shipping) has nothing to charge, and no provider opens a page
 * for nothing: it is paid at once, through the same settlement as a payment (takePayment: stock
 * taken, the code's use kept, the confirmation mail), in one transaction. When the stock ran out
 * since the cart was checked, nothing is kept: the payment is rolled back (no refund is recorded,
 * as nothing was paid) and the order is closed unpaid, giving the code's use back.
 * "paid", or "sold_out" for the checkout to refuse.
 */
export async function completeWithoutPayment(db: Db, order: { id: string; currency: string }): Promise<"paid" | "sold_out"> {
  const sessionId = freeSessionId(order.id);
  return db.transaction(async (tx) => {
    await tx.update(orders).set({ paymentSessionId: sessionId, updatedAt: new Date() }).where(eq(orders.id, order.id));
    const remote = { id: sessionId, state: "paid" as const, url: null, orderId: order.id, amountTotalCents: 0, currency: order.currency, paymentReference: null };
    try {
      // A savepoint: a sold-out answer is undone whole (its cancel and its refund), never half kept.
      await tx.transaction(async (sp) => {
        if ((await takePayment(sp, order.id, remote, NO_PAYMENT_NEEDED)) === "sold_out") throw new SoldOut();
      });
      return "paid" as const;
    } catch (err) {
      if (!(err instanceof SoldOut)) throw err;
      await closeUnpaidOrder(tx, order.id, "failed", NO_PAYMENT_NEEDED);
      return "sold_out" as const;
    }
  });
}

/** Internal: rolls the savepoint back; never leaves this module. */
class SoldOut extends Error {}
