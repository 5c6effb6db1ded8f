import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getPaymentProvider, type PaymentProvider } from "~/server/commerce/payments/index.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { scheduleCallJob } from "~/server/commerce/settlement/provider-calls.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { refundableFor, refundOrder } from "~/server/commerce/settlement/refunds.server";
import { mailOutbox, orderMoneyMovements, orders, paymentTasks, testPaymentSessions } from "~/server/platform/db/schema";
import { openCheckout, orderBySession, stockOf } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { asAdmin, asCustomer } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, open, seeToast, unique } from "./page-helpers";

const shop = useShop();

/** A paid order of three lines through the real checkout and the test provider; `userId` its shopper. */
async function paidOrderOfThree(userId: string | null) {
  const throw_ = await makeProduct(shop.db, { name: unique("Refund Throw"), priceCents: 2000, stockQuantity: 5 });
  const pillow = await makeProduct(shop.db, { name: unique("Refund Pillow"), priceCents: 1250, stockQuantity: 5 });
  const towel = await makeProduct(shop.db, { name: unique("Refund Towel"), priceCents: 800, stockQuantity: 5 });
  const checkout = await openCheckout(shop.db, [[throw_, 2], [pillow, 1], [towel, 3]], { userId });
  await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: `test_pi_${checkout.sessionId}` }).where(eq(testPaymentSessions.id, checkout.sessionId));
  expect((await confirmPayment(shop.db, checkout.sessionId)).state).toBe("paid");
  const order = await orderBySession(shop.db, checkout.sessionId);
  return { order, throw_, pillow, towel };
}

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The test provider, refusing every refund. */
const refusingProvider = () =>
  Object.assign(Object.create(getPaymentProvider(shop.db, "test")) as PaymentProvider, {
    async refund() {
      throw new Error("card network unreachable");
    },
  });

/**
 * A refund refused in this process, as the provider goes on refusing it: its next try an hour away,
 * as after several refusals. Left due in 30 s, the shop's own worker would make it with the test
 * provider (which accepts) while the test looks for it among the failed ones.
 */
async function refusedRefund(orderId: string, lines: { orderItemId: string; quantity: number }[]) {
  const refundable = (await refundableFor(shop.db, orderId))!;
  const outcome = await refundOrder(
    shop.db,
    {
      orderId,
      expectedVersion: refundable.version,
      lines: lines.map((l) => ({ ...l, restock: false })),
      shippingCents: 0,
      adjustmentCents: 0,
      actor: { actorUserId: null, actorLabel: "Test" },
    },
    { providers: onlyProvider(refusingProvider()) },
  );
  const inAnHour = new Date(Date.now() + 3_600_000);
  const [task] = await shop.db
    .update(paymentTasks)
    .set({ attempts: 3, nextAttemptAt: inAnHour })
    .where(eq(paymentTasks.movementId, outcome.movementId))
    .returning({ id: paymentTasks.id });
  await scheduleCallJob(shop.db, task!.id, inAnHour);
  return outcome;
}

const refundRows = (orderId: string) =>
  shop.db.select().from(orderMoneyMovements).where(and(eq(orderMoneyMovements.orderId, orderId), eq(orderMoneyMovements.kind, "refund")));

const orderMoneyCache = async (orderId: string) =>
  (await shop.db.select({ paymentStatus: orders.paymentStatus, refundedCents: orders.refundedCents }).from(orders).where(eq(orders.id, orderId)))[0];

describe("the admin's Refund dialog", () => {
  it("refunds 1 unit of one line with Restock: total shown live, Payments and balance updated, stock back, the shopper sees it; over the cap is refused in the dialog", async () => {
    const customer = await asCustomer(shop);
    const { order, throw_ } = await paidOrderOfThree(customer.user.id);
    const stockAfterSale = await stockOf(shop.db, throw_.id);
    expect(stockAfterSale).toBe(3);

    const admin = await asAdmin(shop);
    const netSales = async () => {
      await open(admin, "/admin/analytics");
      return admin.getByTestId("figure-netSalesCents").innerText();
    };
    const netBefore = await netSales();
    await open(admin, `/admin/orders/${order.orderNumber}`);
    await hydrated(admin, admin.getByRole("button", { name: "Refund", exact: true }));
    await admin.getByRole("button", { name: "Refund", exact: true }).click();
    const dialog = admin.getByRole("dialog", { name: `Refund order ${order.orderNumber}` });
    await dialog.waitFor();
    expect(await dialog.getByTestId("refund-total").innerText()).toBe("$0.00");

    // More than is left (the whole total and a cent) is refused by the server, shown in the dialog.
    await dialog.getByLabel("Extra amount (optional)").fill(money(order.totalAmountCents + 1));
    await dialog.getByLabel("Reason for the extra amount").fill("Goodwill");
    await dialog.getByRole("button", { name: `Refund ${money(order.totalAmountCents + 1)}` }).click();
    await dialog.getByRole("alert").filter({ hasText: `You can refund at most ${money(order.totalAmountCents)}.` }).waitFor();
    expect(await shop.db.select().from(orderMoneyMovements).where(eq(orderMoneyMovements.orderId, order.id))).toHaveLength(1);

    await dialog.getByLabel("Extra amount (optional)").fill("");
    await dialog.getByLabel("Reason for the extra amount").fill("");
    await dialog.getByLabel(throw_.name).fill("1");
    expect(await dialog.getByRole("checkbox", { name: "Restock" }).first().isChecked()).toBe(true);
    expect(await dialog.getByTestId("refund-total").innerText()).toBe("$20.00");
    await dialog.getByRole("button", { name: "Refund $20.00" }).click();
    await seeToast(admin, "Refunded $20.00.");
    await expect.poll(() => dialog.count()).toBe(0);

    const rows = admin.getByRole("table", { name: "Payments" }).getByRole("row");
    await rows.filter({ hasText: "Refund" }).filter({ hasText: "−$20.00" }).filter({ hasText: "Succeeded" }).waitFor();
    await admin.getByText(`Balance: ${money(order.totalAmountCents - 2000)}`).waitFor();
    await admin.getByRole("list", { name: "Stock moves" }).getByText(`Restocked: 1 × ${throw_.name}`).waitFor();
    expect(await stockOf(shop.db, throw_.id)).toBe(stockAfterSale + 1);

    // The shopper is mailed the refund once it went through; net sales drop by exactly that amount.
    await expect
      .poll(async () => (await shop.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "refund-issued"))).map((m) => [m.to, m.subject]))
      .toEqual([[order.email, `Your refund for order ${order.orderNumber}`]]);
    const cents = (text: string) => Math.round(Number(text.replace(/[^0-9.]/g, "")) * 100);
    await expect.poll(async () => cents(netBefore) - cents(await netSales()), { timeout: 20_000 }).toBe(2000);

    await open(customer, `/profile/orders/${order.orderNumber}`);
    await customer.getByRole("list", { name: "Refunds" }).getByText(/^Refunded \$20\.00 on /).waitFor();
    expect(await customer.getByTestId("order-page-refunded").innerText()).toBe("$20.00");
    expect(await customer.getByTestId("order-page-balance").innerText()).toBe(money(order.totalAmountCents - 2000));
  });

  it("a refund the provider refused shows in Needs attention and on the order; Retry makes it", async () => {
    const { order, pillow } = await paidOrderOfThree(null);
    const line = (await refundableFor(shop.db, order.id))!.lines.find((l) => l.name === pillow.name)!;
    const outcome = await refusedRefund(order.id, [{ orderItemId: line.orderItemId, quantity: 1 }]);
    expect(outcome).toMatchObject({ state: "failed", amountCents: 1250 });

    const admin = await asAdmin(shop);
    await open(admin, "/admin");
    const attention = admin.getByRole("list", { name: "Needs attention" });
    await attention.getByText("refund that failed").waitFor();
    await attention.getByRole("link", { name: /Refund by hand/ }).click();
    await admin.waitForURL((u) => u.searchParams.get("needs") === "refund-failed");
    await admin.getByRole("link", { name: order.orderNumber }).click();

    const failed = admin.getByRole("list", { name: "Refunds that failed" });
    await failed.getByText("$12.50").waitFor();
    await admin.getByRole("list", { name: "Stock moves" }).getByText(`Written off: 1 × ${pillow.name}`).waitFor();
    await hydrated(admin, failed.getByRole("button", { name: "Retry the refund of $12.50" }));
    await failed.getByRole("button", { name: "Retry the refund of $12.50" }).click();
    await seeToast(admin, "Refunded $12.50.");
    await expect.poll(() => failed.count()).toBe(0);
    const rows = admin.getByRole("table", { name: "Payments" }).getByRole("row");
    await rows.filter({ hasText: "Refund" }).filter({ hasText: "−$12.50" }).filter({ hasText: "Succeeded" }).waitFor();
    await admin.getByText(`Balance: ${money(order.totalAmountCents - 1250)}`).waitFor();
  });
  it("a refused refund the owner closes leaves Needs attention and the card, reads 'Failed, closed' in the ledger, and leaves the balance as it was", async () => {
    const { order, towel } = await paidOrderOfThree(null);
    const line = (await refundableFor(shop.db, order.id))!.lines.find((l) => l.name === towel.name)!;
    const outcome = await refusedRefund(order.id, [{ orderItemId: line.orderItemId, quantity: 1 }]);
    expect(outcome).toMatchObject({ state: "failed", amountCents: 800 });

    const admin = await asAdmin(shop);
    await open(admin, "/admin");
    const attention = admin.getByRole("list", { name: "Needs attention" });
    await attention.getByText("refund that failed").waitFor();
    await attention.getByRole("link", { name: /Refund by hand/ }).click();
    await admin.waitForURL((u) => u.searchParams.get("needs") === "refund-failed");
    await admin.getByRole("link", { name: order.orderNumber }).click();

    const failed = admin.getByRole("list", { name: "Refunds that failed" });
    await failed.getByText("$8.00").waitFor();
    await hydrated(admin, failed.getByRole("button", { name: "Close the refund of $8.00" }));
    await failed.getByRole("button", { name: "Close the refund of $8.00" }).click();
    const confirm = admin.getByRole("alertdialog", { name: "Close the refund of $8.00?" });
    await confirm.getByRole("button", { name: "Yes, close it" }).click();
    await seeToast(admin, "The refund was closed: it no longer counts as refunded.");
    await expect.poll(() => failed.count()).toBe(0);

    // The ledger keeps the row, failed and closed; nothing was given back, so the balance is the whole payment.
    const rows = admin.getByRole("table", { name: "Payments" }).getByRole("row");
    await rows.filter({ hasText: "Refund" }).filter({ hasText: "−$8.00" }).filter({ hasText: "Failed, closed" }).waitFor();
    await admin.getByText(`Balance: ${money(order.totalAmountCents)}`).waitFor();
    const [row, ...more] = await refundRows(order.id);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ amountCents: 800, state: "failed" });
    expect(row!.closedAt).not.toBeNull();
    expect(await orderMoneyCache(order.id)).toEqual({ paymentStatus: "paid", refundedCents: 0 });

    // Nothing about it is left to attend to: the filtered list no longer has the order.
    await open(admin, "/admin/orders?needs=refund-failed");
    await admin.getByRole("heading", { level: 1 }).first().waitFor();
    expect(await admin.getByRole("link", { name: order.orderNumber }).count()).toBe(0);
  });

  it("two admins: a refund made while the dialog is open is not made twice, and the dialog says the order changed", async () => {
    const { order, throw_, pillow } = await paidOrderOfThree(null);
    const admin = await asAdmin(shop);
    await open(admin, `/admin/orders/${order.orderNumber}`);
    await hydrated(admin, admin.getByRole("button", { name: "Refund", exact: true }));
    await admin.getByRole("button", { name: "Refund", exact: true }).click();
    const dialog = admin.getByRole("dialog", { name: `Refund order ${order.orderNumber}` });
    await dialog.waitFor();
    await dialog.getByLabel(throw_.name).fill("1");
    expect(await dialog.getByTestId("refund-total").innerText()).toBe("$20.00");

    // Meanwhile a second admin refunds a pillow, through the function the dialog posts to.
    const refundable = (await refundableFor(shop.db, order.id))!;
    const line = refundable.lines.find((l) => l.name === pillow.name)!;
    const other = await refundOrder(shop.db, {
      orderId: order.id,
      expectedVersion: refundable.version,
      lines: [{ orderItemId: line.orderItemId, quantity: 1, restock: true }],
      shippingCents: 0,
      adjustmentCents: 0,
      actor: { actorUserId: null, actorLabel: "Second admin" },
    });
    expect(other).toMatchObject({ state: "succeeded", amountCents: 1250 });

    await dialog.getByRole("button", { name: "Refund $20.00" }).click();
    await dialog.getByRole("alert").filter({ hasText: "This order changed since you opened it. Review it and try again." }).waitFor();
    expect(await dialog.isVisible()).toBe(true);
    // Only the second admin's refund was made, once.
    expect((await refundRows(order.id)).map((r) => [r.amountCents, r.state, r.actorLabel])).toEqual([[1250, "succeeded", "Second admin"]]);
    expect(await orderMoneyCache(order.id)).toEqual({ paymentStatus: "partially_refunded", refundedCents: 1250 });
  });
});
