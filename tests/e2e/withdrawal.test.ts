import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { saveReturnsSetting } from "~/server/commerce/returns/returns-setting.server";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { orderReturns, testPaymentSessions } from "~/server/platform/db/schema";
import { openCheckout, orderBySession } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { asAdmin, asCustomer } from "../factories/users";
import { useShop } from "./harness";
import { formsHydrated, open, unique } from "./page-helpers";

const shop = useShop();

describe("the EU withdrawal button", () => {
  it("with the setting on: 'Withdraw from contract here' → the confirmation page → the acknowledgement in the outbox", async () => {
    const shopper = await asCustomer(shop);
    const name = unique("Withdrawn Duvet");
    const product = await makeProduct(shop.db, { name, priceCents: 9000, stockQuantity: 5 });
    const checkout = await openCheckout(shop.db, [[product, 1]], { userId: shopper.user.id });
    await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_withdraw" }).where(eq(testPaymentSessions.id, checkout.sessionId));
    expect((await confirmPayment(shop.db, checkout.sessionId)).state).toBe("paid");
    const order = await orderBySession(shop.db, checkout.sessionId);
    await changeOrderStatus(shop.db, { orderId: order.id, to: "shipped", expectedVersion: order.version, actor: { id: shopper.user.id, name: "Shop", email: "shop@example.test" }, trackingNumber: "1Z999AA10123456784" });

    // Off by default: no button, no footer link.
    await open(shopper, `/profile/orders/${order.orderNumber}`);
    await shopper.getByRole("heading", { name: `Order #${order.orderNumber}` }).waitFor();
    expect(await shopper.getByRole("link", { name: "Withdraw from contract here" }).count()).toBe(0);
    expect(await shopper.getByRole("contentinfo").getByRole("link", { name: "Withdraw from contract" }).count()).toBe(0);

    await saveReturnsSetting(shop.db, { returnWindowDays: 30, withdrawalEnabled: true, withdrawalDays: 14 });
    await open(shopper, `/profile/orders/${order.orderNumber}`);
    await shopper.getByRole("contentinfo").getByRole("link", { name: "Withdraw from contract", exact: true }).waitFor();
    await shopper.getByRole("link", { name: "Withdraw from contract here" }).click();
    await shopper.getByRole("heading", { name: `Withdraw from order ${order.orderNumber}` }).waitFor();
    await formsHydrated(shopper);
    const form = shopper.getByRole("form", { name: "Withdrawal" });
    await expect(form.getByRole("checkbox", { name: `1 × ${name}` }).isChecked()).resolves.toBe(true);
    await form.getByLabel("Reason (optional)").fill("Changed my plans");
    await form.getByRole("button", { name: "Confirm withdrawal" }).click();
    const returnNumber = `R-${order.orderNumber}-1`;
    await shopper.getByText(`Withdrawal ${returnNumber}: Requested`).waitFor();
    const [ret] = await shop.db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id));
    expect(ret).toMatchObject({ kind: "withdrawal", reasonText: "Changed my plans" });
    expect(ret!.withdrawnAt).toBeInstanceOf(Date);

    const admin = await asAdmin(shop);
    await admin.goto("/admin/outbox");
    await admin.getByRole("heading", { name: "Outbox" }).waitFor();
    const subject = `We received your withdrawal from order ${order.orderNumber}`;
    await admin.getByRole("row").filter({ hasText: order.email }).getByRole("link", { name: subject }).click();
    await admin.getByRole("heading", { name: subject }).waitFor();
    const stamp = `${ret!.withdrawnAt!.toISOString().slice(0, 19).replace("T", " ")} UTC`;
    await admin.getByText(`We received your withdrawal from the contract for order ${order.orderNumber} on ${stamp}.`).first().waitFor();
  });
});
