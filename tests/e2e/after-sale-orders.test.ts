import { and, eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { mailOutbox, products, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { openCheckout, orderBySession } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { asAdmin, asCustomer } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, open, seeToast } from "./page-helpers";
import { addToCart, checkoutForm, fillShipping, payWith } from "./shopper-steps";

const shop = useShop();

const UPS_NUMBER = "1Z999AA10123456784";
const UPS_LINK = `https://www.ups.com/track?tracknum=${UPS_NUMBER}`;

/** The link of the mail's plain text that points at the order page, as the admin's outbox shows it. */
async function orderLinkInOutbox(admin: Page, subject: string) {
  await open(admin, "/admin/outbox");
  await admin.getByRole("link", { name: subject }).first().click();
  await admin.getByRole("heading", { name: subject }).waitFor();
  const link = admin.getByRole("link", { name: /\/profile\/orders\// }).first();
  await link.waitFor();
  return (await link.getAttribute("href"))!;
}

describe("the shopper's order page in the browser", () => {
  it("a guest pays, the confirmation mail's link opens the order page; once shipped with UPS the page shows the tracking link", async () => {
    const quilt = await makeProduct(shop.db, { name: "Waffle Weave Quilt", priceCents: 8950, stockQuantity: 6 });
    const guest = await shop.newPage();
    const errors: string[] = [];
    guest.on("pageerror", (e) => errors.push(e.message));
    const email = `guest-${Date.now()}@example.test`;
    await addToCart(guest, quilt.id, quilt.name);
    await open(guest, "/checkout");
    await fillShipping(guest, email);
    await guest.getByRole("button", { name: "Place Order" }).click();
    const sessionId = await payWith(guest, "4242 4242 4242 4242");
    await guest.getByRole("heading", { name: "Order Confirmed!" }).waitFor();
    const order = await orderBySession(shop.db, sessionId);

    const admin = await asAdmin(shop);
    const href = await orderLinkInOutbox(admin, `Order ${order.orderNumber} confirmed`);
    expect(href).toMatch(new RegExp(`^${shop.baseUrl}/profile/orders/${order.orderNumber}\\?t=[A-Za-z0-9_-]{43}$`));

    await guest.goto(href);
    await guest.getByRole("heading", { name: `Order #${order.orderNumber}` }).waitFor();
    await guest.getByRole("heading", { name: "Status: Paid: being prepared" }).waitFor();
    const items = guest.getByRole("list", { name: "Items in this order" });
    await items.getByRole("link", { name: "Waffle Weave Quilt" }).waitFor();
    expect(await guest.getByTestId("order-page-total").textContent()).toBe("$89.50");
    await guest.getByText("1 Linen Lane").waitFor();
    // A changed token opens nothing.
    const tampered = await guest.goto(href.replace(/.$/, (c) => (c === "A" ? "B" : "A")));
    expect(tampered?.status()).toBe(404);
    await guest.getByText("Oops! Page not found").waitFor();

    // The admin ships it with UPS.
    await open(admin, `/admin/orders/${order.id}`);
    await admin.getByLabel("Carrier").selectOption("ups");
    await admin.getByLabel("Tracking number", { exact: true }).fill("1z999 aa1 0123456784");
    await admin.getByRole("button", { name: "Mark as shipped" }).click();
    await admin.getByRole("status").filter({ hasText: "Order marked as shipped." }).waitFor();
    const [shipMail] = await shop.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, "order-shipped"), eq(mailOutbox.to, email)));
    expect(shipMail!.text).toContain(UPS_LINK);

    const response = await guest.goto(href);
    expect(response?.headers()["cache-control"]).toBe("private, no-store");
    await guest.getByRole("heading", { name: "Status: Shipped" }).waitFor();
    const shipped = guest.getByRole("list", { name: "Order progress" }).locator('[data-step="shipped"]');
    await shipped.getByText(`Carrier: UPS`).waitFor();
    const track = shipped.getByRole("link", { name: /Track your parcel/ });
    expect(await track.getAttribute("href")).toBe(UPS_LINK);
    expect(await track.getAttribute("rel")).toContain("noreferrer");
    expect(errors).toEqual([]);
  });

  it("a signed-in shopper adds, edits and chooses a default address; the checkout fills it in and offers the others", async () => {
    const shopper = await asCustomer(shop);
    await open(shopper, "/profile?tab=addresses");
    await shopper.getByText("No saved addresses yet.", { exact: false }).waitFor();
    await hydrated(shopper);

    const add = async (fields: Record<string, string>) => {
      await shopper.getByRole("button", { name: "Add address" }).click();
      const form = shopper.getByRole("form", { name: "New address" });
      for (const [label, value] of Object.entries(fields)) await form.getByLabel(label, { exact: true }).fill(value);
      await form.getByRole("button", { name: "Save address" }).click();
      await seeToast(shopper, "Address saved");
      await form.waitFor({ state: "detached" });
    };
    const home = { "First Name": "Ann", "Last Name": "Lee", Address: "1 Linen Lane", City: "Springfield", State: "IL", "ZIP Code": "62701" };
    await add(home);
    await add({ ...home, Address: "200 Loft Street", City: "Chicago", "ZIP Code": "60601" });
    const list = shopper.getByRole("list", { name: "Your addresses" });
    await expect.poll(() => list.getByRole("listitem").count()).toBe(2);
    const first = list.getByRole("listitem").filter({ hasText: "1 Linen Lane" });
    await first.getByText("Default").waitFor();

    // Edit the second address.
    const loft = list.getByRole("listitem").filter({ hasText: "200 Loft Street" });
    await loft.getByRole("button", { name: /^Edit/ }).click();
    const edit = shopper.getByRole("form", { name: "Edit address" });
    await edit.getByLabel("City").fill("Evanston");
    await edit.getByLabel("ZIP Code").fill("60201");
    await edit.getByRole("button", { name: "Save address" }).click();
    await seeToast(shopper, "Address updated");
    await list.getByRole("listitem").filter({ hasText: "Evanston" }).waitFor();

    await list.getByRole("listitem").filter({ hasText: "Evanston" }).getByRole("button", { name: /the default$/ }).click();
    await seeToast(shopper, "Default address changed");
    await list.getByRole("listitem").filter({ hasText: "Evanston" }).getByText("Default").waitFor();
    await expect.poll(() => list.getByRole("listitem").first().textContent()).toContain("200 Loft Street");

    // The checkout fills in the default; the select offers the other and fills it.
    const pillow = await makeProduct(shop.db, { name: "Down Pillow", priceCents: 3000 });
    await addToCart(shopper, pillow.id, pillow.name);
    await open(shopper, "/checkout");
    const form = checkoutForm(shopper);
    await form.waitFor();
    const picker = form.getByLabel("Ship to");
    expect(await picker.locator("option:checked").textContent()).toContain("200 Loft Street");
    expect(await form.getByLabel("Address").inputValue()).toBe("200 Loft Street");
    expect(await form.getByLabel("City").inputValue()).toBe("Evanston");
    expect(await form.getByLabel("ZIP Code").inputValue()).toBe("60201");
    expect(await form.getByRole("textbox", { name: "Email" }).inputValue()).toBe(shopper.user.email);
    const other = await picker.locator("option", { hasText: "1 Linen Lane" }).getAttribute("value");
    await picker.selectOption(other!);
    expect(await form.getByLabel("Address").inputValue()).toBe("1 Linen Lane");
    expect(await form.getByLabel("City").inputValue()).toBe("Springfield");
  });

  it("Buy again puts the lines still for sale in the cart and says which could not be added and why", async () => {
    const shopper = await asCustomer(shop);
    const sheet = await makeProduct(shop.db, { name: "Percale Sheet Set", priceCents: 6000 });
    const towel = await makeProduct(shop.db, { name: "Retired Towel", priceCents: 1500 });
    const checkout = await openCheckout(shop.db, [[sheet, 2], [towel, 1]], { userId: shopper.user.id });
    await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_again" }).where(eq(testPaymentSessions.id, checkout.sessionId));
    expect((await confirmPayment(shop.db, checkout.sessionId)).state).toBe("paid");
    const order = await orderBySession(shop.db, checkout.sessionId);
    await shop.db.update(products).set({ active: false }).where(eq(products.id, towel.id));
    await shop.db.update(products).set({ priceCents: 6500 }).where(eq(products.id, sheet.id));

    await open(shopper, "/profile?tab=orders");
    await shopper.getByRole("link", { name: `Order #${order.orderNumber}` }).click();
    await shopper.getByRole("heading", { name: `Order #${order.orderNumber}` }).waitFor();
    await hydrated(shopper);
    await shopper.getByRole("button", { name: "Buy again" }).click();
    const added = shopper.getByRole("list", { name: "Added to your cart", exact: true });
    await added.getByText("2 × Percale Sheet Set").waitFor();
    expect(await added.textContent()).toContain("Now $65.00 (you paid $60.00).");
    await shopper.getByRole("list", { name: "Not added to your cart" }).getByText('"Retired Towel" is no longer available.').waitFor();

    await shopper.getByRole("link", { name: "View cart" }).click();
    await shopper.waitForURL((u) => u.pathname === "/cart");
    // The URL changes before React has drawn the cart page (a transition): until then the order
    // page, whose lines link both products, is still on screen. Only the cart's own list proves it.
    await shopper.getByRole("list", { name: "Cart items" }).getByRole("link", { name: "Percale Sheet Set" }).waitFor();
    expect(await shopper.getByRole("link", { name: "Retired Towel" }).count()).toBe(0);
  });
});
