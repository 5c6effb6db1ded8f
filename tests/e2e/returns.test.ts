import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { orderItems, orderReturns, products, testPaymentSessions } from "~/server/platform/db/schema";
import { openCheckout, orderBySession } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { asAdmin, asCustomer } from "../factories/users";
import { useShop } from "./harness";
import { formsHydrated, hydrated, open, seeToast, unique } from "./page-helpers";

const shop = useShop();

/** A signed-in shopper's paid order of 2 units, marked shipped. */
async function shippedOrderOf(userId: string, name: string) {
  const product = await makeProduct(shop.db, { name, priceCents: 4000, stockQuantity: 5 });
  const checkout = await openCheckout(shop.db, [[product, 2]], { userId });
  await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_returns" }).where(eq(testPaymentSessions.id, checkout.sessionId));
  expect((await confirmPayment(shop.db, checkout.sessionId)).state).toBe("paid");
  const order = await orderBySession(shop.db, checkout.sessionId);
  await changeOrderStatus(shop.db, { orderId: order.id, to: "shipped", expectedVersion: order.version, actor: { id: userId, name: "Shop", email: "shop@example.test" }, trackingNumber: "1Z999AA10123456784" });
  return { order: await orderBySession(shop.db, checkout.sessionId), product };
}

describe("a return", () => {
  it("a shopper asks to return an item from the order page; the admin approves it, receives it (restocked) and refunds it from the dialog its Refund link opens prefilled", async () => {
    const shopper = await asCustomer(shop);
    const name = unique("Returned Throw");
    const { order, product } = await shippedOrderOf(shopper.user.id, name);

    await open(shopper, `/profile/orders/${order.orderNumber}`);
    await shopper.getByRole("link", { name: "Return items" }).click();
    await shopper.getByRole("heading", { name: "Return items" }).waitFor();
    await formsHydrated(shopper);
    const form = shopper.getByRole("form", { name: "Return items" });
    await form.getByLabel(name).fill("1");
    await form.getByLabel("Reason").selectOption({ label: "Damaged" });
    await form.getByRole("button", { name: "Request return" }).click();
    const returnNumber = `R-${order.orderNumber}-1`;
    await shopper.getByRole("list", { name: "Returns" }).getByText(`Return ${returnNumber}: Requested`).waitFor();

    const admin = await asAdmin(shop);
    await open(admin, "/admin/returns?state=requested");
    await hydrated(admin);
    const card = admin.getByRole("listitem", { name: `Return ${returnNumber}` });
    await card.getByText("Reason: Damaged").waitFor();
    await card.getByRole("button", { name: "Approve" }).click();
    await admin.getByRole("status").getByText("Return approved: the shopper was mailed.").waitFor();

    await open(admin, "/admin/returns?state=approved");
    await hydrated(admin);
    const approved = admin.getByRole("listitem", { name: `Return ${returnNumber}` });
    await expect(approved.getByRole("checkbox", { name: "Restock" }).isChecked()).resolves.toBe(true);
    await approved.getByRole("button", { name: "Mark received" }).click();
    await admin.getByRole("status").getByText("Return received: stock settled, the shopper was mailed.").waitFor();
    const [after] = await shop.db.select({ stock: products.stockQuantity }).from(products).where(eq(products.id, product.id));
    expect(after!.stock).toBe(5 - 2 + 1);

    await open(admin, "/admin/returns?state=received");
    const received = admin.getByRole("listitem", { name: `Return ${returnNumber}` });
    await received.getByText(`1 × ${name} — restocked`).waitFor();
    const [ret] = await shop.db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id));
    const refund = received.getByRole("link", { name: "Refund" });
    expect(await refund.getAttribute("href")).toBe(`/admin/orders/${order.orderNumber}?refundReturn=${ret!.id}`);
    await refund.click();
    await admin.waitForURL(`**/admin/orders/${order.orderNumber}?refundReturn=${ret!.id}`);
    // The Refund dialog opens with the return's line: 1 unit, no restock choice (the stock was settled at receipt).
    await hydrated(admin);
    const dialog = admin.getByRole("dialog", { name: `Refund order ${order.orderNumber}` });
    await dialog.getByText(`For return ${returnNumber}`).waitFor();
    expect(await dialog.getByRole("spinbutton", { name }).inputValue()).toBe("1");
    expect(await dialog.getByRole("checkbox", { name: "Restock" }).count()).toBe(0);
    const total = await dialog.getByTestId("refund-total").innerText();
    expect(total).not.toBe("$0.00");
    const stockBefore = (await shop.db.select({ n: products.stockQuantity }).from(products).where(eq(products.id, product.id)))[0]!.n;
    await dialog.getByRole("button", { name: `Refund ${total}` }).click();
    await seeToast(admin, `Refunded ${total}.`);
    // Refunded once, its stock not given back a second time.
    expect((await shop.db.select({ n: products.stockQuantity }).from(products).where(eq(products.id, product.id)))[0]!.n).toBe(stockBefore);
    await open(admin, "/admin/returns?state=refunded");
    await admin.getByRole("listitem", { name: `Return ${returnNumber}` }).waitFor();
    // The shopper's page follows the return.
    await open(shopper, `/profile/orders/${order.orderNumber}`);
    await shopper.getByText(`Return ${returnNumber}: Refunded`).waitFor();
    const [line] = await shop.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(ret!.lines).toEqual([{ orderItemId: line!.id, quantity: 1, restock: true }]);
  });
});
