import { describe, expect, it } from "vitest";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { releaseOrderStock } from "~/server/commerce/settlement/stock.server";
import { products, testPaymentSessions } from "~/server/platform/db/schema";
import { eq } from "drizzle-orm";
import { useTestDatabase } from "../setup/database";
import { openCheckout, orderBySession, stockOf } from "../factories/orders";
import { makeProduct } from "../factories/products";

const t = useTestDatabase();

async function markPaid(sessionId: string) {
  await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_x" }).where(eq(testPaymentSessions.id, sessionId));
  return confirmPayment(t.db, sessionId);
}

describe("releaseOrderStock (for cancelling a paid order)", () => {
  it("returns exactly the tracked stock, once; unlimited products and unpaid orders are left alone", async () => {
    const tracked = await makeProduct(t.db, { stockQuantity: 5 });
    const unlimited = await makeProduct(t.db, { unlimitedStock: true, stockQuantity: 0 });
    const paid = await openCheckout(t.db, [[tracked, 2], [unlimited, 4]]);
    expect((await markPaid(paid.sessionId)).state).toBe("paid");
    expect(await stockOf(t.db, tracked.id)).toBe(3);

    const unpaid = await openCheckout(t.db, [[tracked, 1]]);
    expect(await releaseOrderStock(t.db, unpaid.orderId)).toBe(false);

    const results = await Promise.all([releaseOrderStock(t.db, paid.orderId), releaseOrderStock(t.db, paid.orderId)]);
    expect(results.sort()).toEqual([false, true]);
    expect(await stockOf(t.db, tracked.id)).toBe(5);
    expect(await stockOf(t.db, unlimited.id)).toBe(0);
    expect((await orderBySession(t.db, paid.sessionId)).stockReleasedAt).toBeInstanceOf(Date);
  });

  it("a sold-out order took no stock, so releasing it returns none", async () => {
    const last = await makeProduct(t.db, { stockQuantity: 1 });
    const first = await openCheckout(t.db, [[last, 1]]);
    const second = await openCheckout(t.db, [[last, 1]]);
    expect((await markPaid(first.sessionId)).state).toBe("paid");
    expect((await markPaid(second.sessionId)).state).toBe("sold_out");
    expect(await releaseOrderStock(t.db, second.orderId)).toBe(true);
    expect(await stockOf(t.db, last.id)).toBe(0);
  });

  it("gives back what payment took when the product switched between unlimited and counted stock after the order", async () => {
    const becameCounted = await makeProduct(t.db, { unlimitedStock: true, stockQuantity: 0 });
    const becameUnlimited = await makeProduct(t.db, { stockQuantity: 5 });
    const order = await openCheckout(t.db, [[becameCounted, 2], [becameUnlimited, 1]]);
    await t.db.update(products).set({ unlimitedStock: false, stockQuantity: 10 }).where(eq(products.id, becameCounted.id));
    await t.db.update(products).set({ unlimitedStock: true }).where(eq(products.id, becameUnlimited.id));
    expect((await markPaid(order.sessionId)).state).toBe("paid");
    expect(await stockOf(t.db, becameCounted.id)).toBe(8);

    expect(await releaseOrderStock(t.db, order.orderId)).toBe(true);
    expect(await stockOf(t.db, becameCounted.id)).toBe(10);
    expect(await stockOf(t.db, becameUnlimited.id)).toBe(5);
  });
});
