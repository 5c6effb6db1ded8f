import { describe, expect, it } from "vitest";
import { orderItems } from "~/server/platform/db/schema";
import { makeOrder } from "../factories/account-orders";
import { asAdmin, asCustomer } from "../factories/users";
import { useShop } from "./harness";
import { open } from "./page-helpers";

const shop = useShop();

describe("an order's money lines", () => {
  it("the admin order page and the shopper's Orders tab show subtotal, discount, shipping, tax and total", async () => {
    const shopper = await asCustomer(shop);
    const order = await makeOrder(shop.db, {
      userId: shopper.user.id,
      status: "processing",
      paymentStatus: "paid",
      subtotalCents: 5000,
      discountCode: "SAVE5",
      discountCents: 500,
      shippingName: "Express",
      shippingCents: 999,
      taxName: "Tax",
      taxRateBasisPoints: 725,
      taxCents: 326,
      totalAmountCents: 5825,
    });
    await shop.db.insert(orderItems).values({ orderId: order.id, name: "Linen Pillowcase", unitPriceCents: 2500, quantity: 2, lineTotalCents: 5000 });

    const admin = await asAdmin(shop);
    const errors: string[] = [];
    admin.on("pageerror", (e) => errors.push(e.message));
    await open(admin, `/admin/orders/${order.id}`);
    await admin.getByRole("heading", { name: `Order ${order.orderNumber}` }).waitFor();
    const text = async (id: string) => (await admin.getByTestId(id).textContent())?.trim();
    expect(await text("order-subtotal")).toBe("$50.00");
    expect(await text("order-discount-label")).toBe("Discount (SAVE5)");
    expect(await text("order-discount")).toBe("\u2212$5.00");
    expect(await text("order-shipping-label")).toBe("Shipping (Express)");
    expect(await text("order-shipping")).toBe("$9.99");
    expect(await text("order-tax-label")).toBe("Tax 7.25%");
    expect(await text("order-tax")).toBe("$3.26");
    expect(await text("order-total")).toBe("$58.25");
    // In the order they add up, below the item.
    const footer = (await admin.locator("tfoot tr").allInnerTexts()).map((r) => r.replace(/\s+/g, " ").trim());
    expect(footer).toEqual(["Subtotal $50.00", "Discount (SAVE5) \u2212$5.00", "Shipping (Express) $9.99", "Tax 7.25% $3.26", "Total $58.25"]);
    expect(errors).toEqual([]);

    await open(shopper, "/profile?tab=orders");
    const card = shopper.getByRole("list", { name: "Your orders" }).getByRole("listitem").filter({ hasText: order.orderNumber });
    await card.waitFor();
    expect(await card.getByTestId("account-order-total").textContent()).toBe("$58.25");
    expect(await card.getByTestId("account-order-discount").textContent()).toBe("\u2212$5.00");
    expect(await card.getByTestId("account-order-shipping").textContent()).toBe("$9.99");
    expect(await card.getByTestId("account-order-tax").textContent()).toBe("$3.26");
    await card.getByText("Tax 7.25%").waitFor();
  });
});
