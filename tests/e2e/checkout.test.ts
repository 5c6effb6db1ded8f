import { describe, expect, it } from "vitest";
import { makeProduct } from "../factories/products";
import { asCustomer } from "../factories/users";
import { orderBySession, stockOf } from "../factories/orders";
import { useShop } from "./harness";
import { open } from "./page-helpers";
import { addToCart, checkoutForm, fillShipping, payWith } from "./shopper-steps";

// The payment page is a round trip through the server and the provider: on a loaded machine it can take past 10 s.
const shop = useShop({ pageTimeout: 30_000 });

describe("buying through the cart, the checkout and the test payment page", () => {
  it("add 2 products → cart → change a quantity → checkout → pay → 'Order Confirmed!', stock reduced, order in the Orders tab", async () => {
    const sheets = await makeProduct(shop.db, { name: "Percale Sheet Set", priceCents: 2500, stockQuantity: 10 });
    const pillow = await makeProduct(shop.db, { name: "Down Pillow", priceCents: 4000, stockQuantity: 5 });
    const page = await asCustomer(shop);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await addToCart(page, sheets.id, "Percale Sheet Set");
    await addToCart(page, pillow.id, "Down Pillow");

    await page.getByRole("banner").getByRole("link", { name: /cart/i }).click();
    await page.waitForURL("**/cart");
    await page.getByRole("heading", { name: "Order Summary" }).waitFor();
    const quantity = page.getByRole("spinbutton", { name: "Quantity of Percale Sheet Set" });
    await quantity.fill("3");
    await quantity.press("Enter");
    const total = page.getByTestId("order-total");
    await expect.poll(() => total.textContent()).toBe("$115.00");
    await page.getByText("Free", { exact: true }).waitFor();

    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await page.waitForURL("**/checkout");
    await page.getByRole("button", { name: "Place Order" }).waitFor();
    await page.getByText("$0.00").waitFor();
    await fillShipping(page, page.user.email);
    const placeOrder = page.getByRole("button", { name: "Place Order" });
    await placeOrder.click();

    // The hosted payment page shows the total the server computed.
    await page.waitForURL(/\/pay\/test\//);
    expect(await page.getByLabel("Total $115.00").isVisible()).toBe(true);
    const sessionId = await payWith(page, "4242 4242 4242 4242");

    await page.getByRole("heading", { name: "Order Confirmed!" }).waitFor();
    const order = await orderBySession(shop.db, sessionId);
    expect(order).toMatchObject({ paymentStatus: "paid", status: "processing", totalAmountCents: 11500, userId: page.user.id });
    await page.getByText(order.orderNumber).first().waitFor();
    await page.getByText("Payment Successful!").waitFor();
    await page.getByText(`Order ${order.orderNumber} has been confirmed.`).waitFor();
    expect(await stockOf(shop.db, sheets.id)).toBe(7);
    expect(await stockOf(shop.db, pillow.id)).toBe(4);
    // The cart was cleared for the payment and stays empty.
    expect(await page.getByRole("banner").getByRole("link", { name: "Cart, 0 items" }).count()).toBe(1);

    await open(page, "/profile?tab=orders");
    await page.getByText(`Order #${order.orderNumber}`).waitFor();
    expect(errors).toEqual([]);
  });

  it("a declined card ends in 'Payment Failed'; 'Try Again' leads back to the cart, which is still there; stock untouched", async () => {
    const lamp = await makeProduct(shop.db, { name: "Brass Lamp", priceCents: 7500, stockQuantity: 3 });
    const page = await shop.newPage();
    await addToCart(page, lamp.id, "Brass Lamp");
    await open(page, "/checkout");
    await fillShipping(page, "declined@example.test");
    // Hold the answer a moment: the button must read 'Processing Order...' and refuse a second submit.
    let posts = 0;
    await page.route("**/api/checkout", async (route) => {
      posts++;
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.getByRole("button", { name: "Place Order" }).click();
    const processing = page.getByRole("button", { name: "Processing Order..." });
    await processing.waitFor();
    expect(await processing.isDisabled()).toBe(true);
    await page.getByRole("form", { name: "Checkout" }).evaluate((f: HTMLFormElement) => f.requestSubmit());
    const sessionId = await payWith(page, "4000 0000 0000 0002");
    expect(posts).toBe(1);

    await page.getByRole("heading", { name: "Payment Failed" }).waitFor();
    await page.getByText("Your payment could not be processed. Please try again or contact support.").waitFor();
    expect(await orderBySession(shop.db, sessionId)).toMatchObject({ paymentStatus: "failed", status: "cancelled" });
    expect(await stockOf(shop.db, lamp.id)).toBe(3);

    await page.getByRole("link", { name: "Try Again" }).click();
    await page.waitForURL("**/cart");
    await page.getByRole("link", { name: "Brass Lamp" }).waitFor();
  });

  it("guards the checkout: an empty cart goes to /cart, missing fields give 'Missing Information', Cancel gives the cart back", async () => {
    const towel = await makeProduct(shop.db, { name: "Bath Towel", priceCents: 1800, stockQuantity: 4 });
    const page = await shop.newPage();
    await open(page, "/checkout");
    await page.waitForURL("**/cart");
    await page.getByText("Your cart is empty").waitFor();

    await addToCart(page, towel.id, "Bath Towel");
    await open(page, "/checkout");
    await checkoutForm(page).getByLabel("First Name").fill("Casey");
    await page.getByRole("button", { name: "Place Order" }).click();
    await page.getByText("Missing Information").waitFor();
    await page.getByText("Please fill in all required fields.").waitFor();
    expect(await checkoutForm(page).getByRole("textbox", { name: "Email" }).getAttribute("aria-invalid")).toBe("true");

    await fillShipping(page, "cancel@example.test");
    await page.getByRole("button", { name: "Place Order" }).click();
    await page.waitForURL(/\/pay\/test\//);
    await page.getByRole("link", { name: "Cancel" }).click();
    await page.waitForURL((u) => u.pathname === "/cart");
    await page.getByRole("link", { name: "Bath Towel" }).waitFor();
    await page.getByRole("button", { name: "Clear Cart" }).click();
    await page.getByText("Your cart is empty").waitFor();

    await open(page, "/order-success");
    await page.getByRole("heading", { name: "Payment Error" }).waitFor();
    await page.getByText("No session ID found").first().waitFor();
    await open(page, "/order-success?session_id=test_cs_unknown");
    await page.getByText("There was an issue verifying your payment.").waitFor();
    await page.getByText("Failed to verify payment").waitFor();
    await page.getByRole("link", { name: "Return Home" }).waitFor();
  });

  it("flags a line whose product changed price or was withdrawn since it went into the cart", async () => {
    const quilt = await makeProduct(shop.db, { name: "Cotton Quilt", priceCents: 9000, stockQuantity: 4 });
    const sham = await makeProduct(shop.db, { name: "Pillow Sham", priceCents: 2000, stockQuantity: 4 });
    const page = await shop.newPage();
    await addToCart(page, quilt.id, "Cotton Quilt");
    await addToCart(page, sham.id, "Pillow Sham");
    const { products } = await import("~/server/platform/db/schema");
    const { eq } = await import("drizzle-orm");
    await shop.db.update(products).set({ priceCents: 9900 }).where(eq(products.id, quilt.id));
    await shop.db.update(products).set({ active: false }).where(eq(products.id, sham.id));

    await open(page, "/cart");
    await page.getByText("Price changed from $90.00 to $99.00").waitFor();
    await page.getByText("No longer available").waitFor();
    expect(await page.getByRole("button", { name: "Proceed to Checkout" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Remove Pillow Sham" }).click();
    await page.getByRole("link", { name: "Proceed to Checkout" }).waitFor();
    await expect.poll(() => page.getByTestId("order-total").textContent()).toBe("$99.00");
  });

  it("fits a 360px-wide phone: cart, checkout and payment page without sideways scrolling", async () => {
    const p = await makeProduct(shop.db, { name: "Organic Cotton Percale Sheet Set With A Rather Long Name", priceCents: 2500, stockQuantity: 3 });
    const page = await shop.newPage();
    await page.setViewportSize({ width: 360, height: 780 });
    await addToCart(page, p.id, p.name);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await open(page, "/cart");
    await page.getByRole("heading", { name: "Order Summary" }).waitFor();
    expect(await overflow()).toBe(0);
    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await page.getByRole("button", { name: "Place Order" }).waitFor();
    expect(await overflow()).toBe(0);
    await fillShipping(page, "phone@example.test");
    await page.getByRole("button", { name: "Place Order" }).click();
    await page.getByLabel("Card number").waitFor();
    expect(await overflow()).toBe(0);
  });

  it("two tabs submitting the same cart at the same moment get one order and one payment page", async () => {
    const rug = await makeProduct(shop.db, { name: "Jute Rug", priceCents: 6000, stockQuantity: 5 });
    const first = await shop.newPage();
    await addToCart(first, rug.id, "Jute Rug");
    const second = await first.context().newPage();
    second.setDefaultTimeout(10_000);
    for (const tab of [first, second]) {
      await open(tab, "/checkout");
      await fillShipping(tab, "twotabs@example.test");
    }
    // Hold both requests until both tabs have sent theirs: the server sees them together.
    let arrived = 0;
    let release!: () => void;
    const together = new Promise<void>((r) => (release = r));
    for (const tab of [first, second]) {
      await tab.route("**/api/checkout", async (route) => {
        if (++arrived === 2) release();
        await together;
        await route.continue();
      });
    }
    await Promise.all([
      first.getByRole("button", { name: "Place Order" }).click(),
      second.getByRole("button", { name: "Place Order" }).click(),
    ]);
    await Promise.all([first.waitForURL(/\/pay\/test\//), second.waitForURL(/\/pay\/test\//)]);
    expect(second.url()).toBe(first.url());
    const { orders } = await import("~/server/platform/db/schema");
    const { eq } = await import("drizzle-orm");
    expect(await shop.db.select().from(orders).where(eq(orders.email, "twotabs@example.test"))).toHaveLength(1);
  });

  it("keeps the summary's size while a new address is quoted, so 'Place Order' does not move under the pointer", async () => {
    const lamp = await makeProduct(shop.db, { name: "Reading Lamp", priceCents: 4500, stockQuantity: 3 });
    const page = await shop.newPage();
    await addToCart(page, lamp.id, "Reading Lamp");
    await open(page, "/checkout");
    const summary = page.getByRole("region", { name: "Order Summary" });
    await summary.getByText("Reading Lamp").waitFor();
    const placeOrder = page.getByRole("button", { name: "Place Order" });
    const before = await placeOrder.boundingBox();

    // Each quote is held until the test lets it go, so the loading state can be looked at.
    const held: (() => void)[] = [];
    await page.route("**/api/cart/quote?**", async (route) => {
      await new Promise<void>((release) => held.push(release));
      // A quote the page gave up on while it was held (a newer one replaced it) is already
      // answered as aborted, and cannot be let through.
      await route.continue().catch(() => {});
    });
    await checkoutForm(page).getByLabel("ZIP Code").fill("62701");
    await expect.poll(() => held.length, { timeout: 10_000 }).toBeGreaterThan(0);
    // Loading: the figures are placeholders, and nothing has moved.
    await summary.locator("[aria-busy=true]").waitFor();
    expect(await summary.getByTestId("order-total").textContent()).toBe("");
    expect(await placeOrder.boundingBox()).toEqual(before);

    for (const release of held) release();
    await page.unroute("**/api/cart/quote?**");
    await summary.locator("[aria-busy=false]").waitFor();
    await summary.getByText("Reading Lamp").waitFor();
    expect(await placeOrder.boundingBox()).toEqual(before);
  });
});
