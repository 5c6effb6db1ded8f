import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getPaymentProvider } from "~/server/commerce/payments/index.server";
import { settleDifferentAmount } from "~/server/commerce/settlement/refund-difference.server";
import { paymentTasks, testPaymentSessions } from "~/server/platform/db/schema";
import { openCheckout, orderBySession } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { open } from "./page-helpers";

const shop = useShop();

describe("a payment that differs from its order's total", () => {
  it("shows in 'Needs attention'; the owner opens the order and confirms the $5.00 refund with one button", async () => {
    const product = await makeProduct(shop.db, { name: "Overpaid Throw", priceCents: 2500, stockQuantity: 5 });
    const checkout = await openCheckout(shop.db, [[product, 1]]);
    await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_over" }).where(eq(testPaymentSessions.id, checkout.sessionId));
    // The provider reports $30.00 paid for the $25.00 order (the checkout never asks for that).
    const remote = (await getPaymentProvider(shop.db, "test").retrieveSession(checkout.sessionId))!;
    expect(await settleDifferentAmount(shop.db, checkout.orderId, { ...remote, amountTotalCents: 3000 }, "test")).toBe("paid");
    const order = await orderBySession(shop.db, checkout.sessionId);

    const admin = await asAdmin(shop);
    await open(admin, "/admin");
    const attention = admin.getByRole("list", { name: "Needs attention" });
    await attention.getByText("payment that differs from its order's total").waitFor();
    await attention.getByRole("link", { name: /Confirm refund/ }).click();
    await admin.waitForURL((u) => u.searchParams.get("needs") === "refund-to-confirm");
    await admin.getByRole("link", { name: order.orderNumber }).click();

    await admin.getByRole("heading", { name: "Refund to confirm" }).waitFor();
    await admin.getByRole("list", { name: "Order timeline" }).getByText("Paid $30.00 for a total of $25.00: confirm the refund of the $5.00 difference.").waitFor();
    await admin.getByRole("button", { name: "Confirm refund of $5.00" }).click();
    await admin.getByRole("status").filter({ hasText: "The refund was sent." }).waitFor();
    await admin.getByRole("list", { name: "Order timeline" }).getByText("Refunded $5.00: paid more than the order's total.").waitFor();
    await expect.poll(() => admin.getByRole("heading", { name: "Refund to confirm" }).count()).toBe(0);
    const [task] = await shop.db.select().from(paymentTasks).where(eq(paymentTasks.orderId, checkout.orderId));
    expect(task).toMatchObject({ state: "done", amountCents: 500 });
  });
});
