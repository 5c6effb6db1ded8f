import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shippingRates } from "~/server/platform/db/schema";
import { countOrders, orderBySession, stockOf } from "../factories/orders";
import { makeDiscountCode, makeZone, resetPricing, setTax, withoutDefaultZone } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { useShop } from "./harness";
import { hydrated, open, seeToast } from "./page-helpers";
import { addToCart, checkoutForm, fillShipping } from "./shopper-steps";

// The payment page is a round trip through the server and the provider: on a loaded machine it can take past 10 s.
const shop = useShop({ pageTimeout: 30_000 });

describe("the checkout charges only what the page showed", () => {
  it("the owner raises the shipping rate while the shopper is on the checkout page: 'Place Order' says the new shipping and shows it, then places the order at it", async () => {
    await withoutDefaultZone(shop.db);
    const { rates } = await makeZone(shop.db, { name: "USA", countries: ["US"] }, [{ name: "Standard", priceCents: 500 }]);
    await setTax(shop.db, { taxName: "Sales tax" }, [{ country: "US", percent: 10 }]);
    const throw_ = await makeProduct(shop.db, { name: "Waffle Throw", priceCents: 2000, stockQuantity: 10 });
    const page = await shop.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await addToCart(page, throw_.id, "Waffle Throw");
    await open(page, "/checkout");
    await hydrated(page, page.getByRole("button", { name: "Place Order" }));
    await fillShipping(page, "shopper@example.test");
    await page.getByTestId("order-shipping").filter({ hasText: "$5.00" }).waitFor();
    await page.getByTestId("order-total").filter({ hasText: "$27.00" }).waitFor();

    // The owner changes the rate while the page is open.
    await shop.db.update(shippingRates).set({ priceCents: 800 }).where(eq(shippingRates.id, rates[0]!.id));
    const before = await countOrders(shop.db);
    await checkoutForm(page).getByRole("button", { name: "Place Order" }).click();
    await seeToast(page, "Shipping for your order is now $8.00.");
    await page.getByTestId("order-shipping").filter({ hasText: "$8.00" }).waitFor();
    await page.getByTestId("order-total").filter({ hasText: "$30.00" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/checkout");
    expect(await countOrders(shop.db)).toBe(before);

    // Seen now: placed at the new figure.
    await checkoutForm(page).getByRole("button", { name: "Place Order" }).click();
    await page.waitForURL(/\/pay\/test\//);
    expect(await page.getByLabel("Total $30.00").isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it("a 100 % code makes the order $0.00: 'Place Order' completes it without a payment page, and the result page says 'No payment needed'", async () => {
    await resetPricing(shop.db);
    const code = await makeDiscountCode(shop.db, { code: "ONTHEHOUSE", percentBasisPoints: 10_000 });
    const pillow = await makeProduct(shop.db, { name: "Sample Pillow", priceCents: 2500, stockQuantity: 3 });
    const page = await shop.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await addToCart(page, pillow.id, "Sample Pillow");
    await open(page, "/checkout");
    await hydrated(page, page.getByRole("button", { name: "Place Order" }));
    await fillShipping(page, "lucky@example.test");
    await page.getByLabel("Discount code").fill(code.code);
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("Discount applied").waitFor();
    await page.getByTestId("order-total").filter({ hasText: "$0.00" }).waitFor();
    await checkoutForm(page).getByRole("button", { name: "Place Order" }).click();

    await page.waitForURL(/\/order-success\?session_id=free_/);
    await page.getByRole("heading", { name: "Order Confirmed!" }).waitFor();
    await page.getByText("No payment needed").waitFor();
    const order = await orderBySession(shop.db, new URL(page.url()).searchParams.get("session_id")!);
    expect(order).toMatchObject({ totalAmountCents: 0, paymentStatus: "paid", status: "processing", discountCode: "ONTHEHOUSE" });
    expect(await stockOf(shop.db, pillow.id)).toBe(2);
    expect(errors).toEqual([]);
  });
});
