import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { testPaymentSessions } from "~/server/platform/db/schema";
import { openCheckout, orderBySession } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { open } from "./page-helpers";

const shop = useShop();

describe("the admin order page's Payments card", () => {
  it("lists the charge with its reference and the balance; after a cancel, the refund and a $0.00 balance", async () => {
    const product = await makeProduct(shop.db, { name: "Ledger Throw", priceCents: 2500, stockQuantity: 5 });
    const checkout = await openCheckout(shop.db, [[product, 1]]);
    await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_ledger" }).where(eq(testPaymentSessions.id, checkout.sessionId));
    expect((await confirmPayment(shop.db, checkout.sessionId)).state).toBe("paid");
    const order = await orderBySession(shop.db, checkout.sessionId);
    const total = `$${(order.totalAmountCents / 100).toFixed(2)}`;

    const admin = await asAdmin(shop);
    await open(admin, `/admin/orders/${order.orderNumber}`);
    const rows = admin.getByRole("table", { name: "Payments" }).getByRole("row");
    await rows.filter({ hasText: "Charge" }).filter({ hasText: total }).filter({ hasText: "Succeeded" }).filter({ hasText: "test_pi_ledger" }).waitFor();
    await admin.getByText(`Balance: ${total}`).waitFor();

    const owner = admin.user;
    await changeOrderStatus(shop.db, { orderId: order.id, to: "cancelled", expectedVersion: order.version, actor: { id: owner.id, name: "Ada", email: owner.email }, refund: true });
    await open(admin, `/admin/orders/${order.orderNumber}`);
    await rows.filter({ hasText: "Refund" }).filter({ hasText: `−${total}` }).filter({ hasText: "Succeeded" }).waitFor();
    await admin.getByText("Balance: $0.00").waitFor();
  });
});
