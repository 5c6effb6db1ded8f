import fs from "node:fs";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { mailOutbox, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { openCheckout, orderBySession, stockOf } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { asAdmin, asCustomer } from "../factories/users";
import { useShop } from "./harness";
import { open } from "./page-helpers";
import { addToCart, fillShipping, payWith } from "./shopper-steps";

const shop = useShop();

/** A shopper's purchase through the product page, the checkout and the test payment page (card 4242…). */
async function buyThroughTheShop(page: Page, product: { id: string; name: string }, email: string) {
  await addToCart(page, product.id, product.name);
  await open(page, "/checkout");
  await fillShipping(page, email);
  await page.getByRole("button", { name: "Place Order" }).click();
  const sessionId = await payWith(page, "4242 4242 4242 4242");
  await page.getByRole("heading", { name: "Order Confirmed!" }).waitFor();
  return orderBySession(shop.db, sessionId);
}

/** A paid order made by the real checkout and confirmed as the test provider would. */
async function paidOrderFor(product: { id: string; name: string; priceCents: number }, quantity: number) {
  const checkout = await openCheckout(shop.db, [[product, quantity]]);
  await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_e2e" }).where(eq(testPaymentSessions.id, checkout.sessionId));
  expect((await confirmPayment(shop.db, checkout.sessionId)).state).toBe("paid");
  return orderBySession(shop.db, checkout.sessionId);
}

const statusBadge = (page: Page) => page.getByRole("main").locator("h1 ~ [data-status]").first();

describe("admin order management", () => {
  it("a shopper's order is found by its number, opened, shipped and completed; the shopper sees each status", async () => {
    const quilt = await makeProduct(shop.db, { name: "Waffle Weave Quilt", priceCents: 8950, stockQuantity: 6 });
    const shopper = await asCustomer(shop);
    const order = await buyThroughTheShop(shopper, quilt, shopper.user.email);
    expect(order).toMatchObject({ status: "processing", paymentStatus: "paid" });

    const admin = await asAdmin(shop, { firstName: "Ada", lastName: "Admin" });
    const errors: string[] = [];
    admin.on("pageerror", (e) => errors.push(e.message));
    await open(admin, "/admin/orders");
    await admin.getByRole("heading", { name: "Order Management" }).waitFor();
    expect(await admin.title()).toBe("Order Management — Admin");
    await admin.getByTestId("order-stat-Revenue").waitFor();
    await admin.getByLabel("Search orders").fill(order.orderNumber);
    await admin.getByRole("button", { name: "Search" }).click();
    await admin.waitForURL((u) => u.searchParams.get("q") === order.orderNumber);
    const rows = admin.getByRole("table").getByRole("row");
    await expect.poll(() => rows.count()).toBe(2);
    const row = rows.nth(1);
    expect(await row.textContent()).toContain(shopper.user.email);
    expect(await row.getByRole("cell").nth(4).textContent()).toBe("$89.50");
    expect(await row.locator("[data-status]").textContent()).toBe("processing");

    await row.getByRole("link", { name: order.orderNumber }).click();
    await admin.getByRole("heading", { name: `Order ${order.orderNumber}` }).waitFor();
    const items = admin.getByRole("table");
    const line = items.getByRole("row", { name: /Waffle Weave Quilt/ });
    expect((await line.getByRole("cell").allTextContents()).map((c) => c.trim())).toEqual(["Waffle Weave Quilt", "$89.50", "1", "$89.50"]);
    expect(await admin.getByTestId("order-shipping").textContent()).toBe("Free");
    expect(await admin.getByTestId("order-tax").textContent()).toBe("$0.00");
    expect(await admin.getByTestId("order-total").textContent()).toBe("$89.50");
    await admin.getByText("1 Linen Lane").waitFor();
    await admin.getByText(`Signed in as ${shopper.user.email}.`).waitFor();
    await admin.getByText("test_pi_", { exact: false }).first().waitFor();
    await admin.getByRole("list", { name: "Order timeline" }).getByText("Test payment provider", { exact: false }).waitFor();

    await admin.getByLabel("Tracking number (optional)").fill("1Z999AA10123456784");
    await admin.getByRole("button", { name: "Mark as shipped" }).click();
    await admin.getByRole("status").filter({ hasText: "Order marked as shipped. The customer has been emailed." }).waitFor();
    await expect.poll(() => statusBadge(admin).textContent()).toBe("shipped");
    const timeline = admin.getByRole("list", { name: "Order timeline" });
    await timeline.getByText("Status changed from processing to shipped").waitFor();
    await timeline.getByText(`by Ada Admin (${admin.user.email})`).first().waitFor();
    const [shipMail] = await shop.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "order-shipped"));
    expect(shipMail).toMatchObject({ to: shopper.user.email, subject: `Order ${order.orderNumber} has shipped` });
    expect(shipMail!.text).toContain("Tracking number: 1Z999AA10123456784");

    await open(shopper, "/profile?tab=orders");
    await shopper.getByText(`Order #${order.orderNumber}`).waitFor();
    await expect.poll(() => shopper.getByRole("list", { name: "Your orders" }).locator("[data-status]").textContent()).toBe("shipped");

    await admin.getByRole("button", { name: "Mark as completed" }).click();
    await admin.getByRole("status").filter({ hasText: "Order marked as completed." }).waitFor();
    await expect.poll(() => statusBadge(admin).textContent()).toBe("completed");
    await admin.getByText("This order is final: its status can no longer change.").waitFor();
    expect(await admin.getByRole("button", { name: "Cancel order" }).count()).toBe(0);

    await open(shopper, "/profile?tab=orders");
    await expect.poll(() => shopper.getByRole("list", { name: "Your orders" }).locator("[data-status]").textContent()).toBe("completed");
    expect(errors).toEqual([]);
  });

  it("cancelling a paid order puts its stock back and refunds it; the list's filter finds it as cancelled", async () => {
    const lamp = await makeProduct(shop.db, { name: "Ceramic Bedside Lamp", priceCents: 4200, stockQuantity: 5 });
    const order = await paidOrderFor(lamp, 2);
    expect(await stockOf(shop.db, lamp.id)).toBe(3);

    const admin = await asAdmin(shop);
    await open(admin, `/admin/orders/${order.id}`);
    await admin.getByRole("heading", { name: `Order ${order.orderNumber}` }).waitFor();
    await admin.getByRole("button", { name: "Cancel order" }).click();
    const dialog = admin.getByRole("alertdialog", { name: `Cancel order ${order.orderNumber}?` });
    await dialog.waitFor();
    expect(await dialog.getByLabel("Refund $84.00 to the customer").isChecked()).toBe(true);
    await dialog.getByRole("button", { name: "Yes, cancel order" }).click();
    await admin
      .getByRole("status")
      .filter({ hasText: "Order cancelled. Its items are back in stock. The payment was refunded." })
      .waitFor();
    await expect.poll(() => statusBadge(admin).textContent()).toBe("cancelled");
    await admin.getByText("Stock returned: 2 units").waitFor();
    expect(await stockOf(shop.db, lamp.id)).toBe(5);

    const storefront = await shop.newPage();
    await storefront.goto(`/product/${lamp.id}`);
    await storefront.getByText("In stock: 5 available").waitFor();

    await open(admin, "/admin/orders?status=cancelled");
    await admin.getByRole("link", { name: order.orderNumber }).waitFor();
    expect(await admin.getByLabel("Status").inputValue()).toBe("cancelled");

    // The export follows the filter: cancelled orders only.
    const [download] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("link", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await download.path())!, "utf8");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^order_number,created_at,status,/);
    expect(lines.slice(1).every((l) => l.split(",")[2] === '"cancelled"')).toBe(true);
    expect(lines.some((l) => l.startsWith(`"${order.orderNumber}"`))).toBe(true);
  });

  it("two admins on the same order: the second change is refused with a message, and unknown orders are 404", async () => {
    const towel = await makeProduct(shop.db, { name: "Turkish Bath Towel", priceCents: 1900, stockQuantity: 4 });
    const order = await paidOrderFor(towel, 1);
    const first = await asAdmin(shop);
    const second = await asAdmin(shop);
    await open(first, `/admin/orders/${order.id}`);
    await open(second, `/admin/orders/${order.id}`);

    await first.getByRole("button", { name: "Mark as shipped" }).click();
    await first.getByRole("status").filter({ hasText: "Order marked as shipped." }).waitFor();

    await second.getByRole("button", { name: "Cancel order" }).click();
    await second.getByRole("alertdialog").getByRole("button", { name: "Yes, cancel order" }).click();
    await second
      .getByRole("alert")
      .filter({ hasText: "Someone else changed this order while you were looking at it: it is now shipped." })
      .waitFor();
    await expect.poll(() => statusBadge(second).textContent()).toBe("shipped");
    expect(await stockOf(shop.db, towel.id)).toBe(3);

    for (const bad of ["00000000-0000-4000-8000-000000000000", "nonsense", "ORD-20990101-ZZZZ"]) {
      const res = await second.goto(`/admin/orders/${bad}`);
      expect(res?.status()).toBe(404);
    }
  });

  it("fits a 360px-wide phone: the list and an order page without sideways scrolling", async () => {
    const sheet = await makeProduct(shop.db, { name: "Organic Cotton Percale Fitted Sheet In A Long Name", priceCents: 5500, stockQuantity: 3 });
    const order = await paidOrderFor(sheet, 1);
    const admin = await asAdmin(shop);
    await admin.setViewportSize({ width: 360, height: 780 });
    const overflow = () => admin.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await open(admin, "/admin/orders");
    await admin.getByRole("heading", { name: "Order Management" }).waitFor();
    expect(await overflow()).toBe(0);
    await open(admin, `/admin/orders/${order.id}`);
    await admin.getByRole("heading", { name: `Order ${order.orderNumber}` }).waitFor();
    expect(await overflow()).toBe(0);
  });
});
