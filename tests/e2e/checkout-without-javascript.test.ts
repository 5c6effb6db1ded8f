import { and, eq } from "drizzle-orm";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cartLines, orders, shippingRates, shippingZones } from "~/server/platform/db/schema";
import { makeProduct } from "../factories/products";
import { makeCustomer, signInPageAs, type TestUser } from "../factories/users";
import { launchBrowser, useShop } from "./harness";
import { checkoutForm } from "./shopper-steps";

/**
 * Buying with JavaScript turned off (docs/rules/cart-and-checkout.md, Checkout without
 * JavaScript): a signed-in shopper's saved cart is checked out through the page's plain form, paid
 * on the test payment page's plain form, and confirmed by the result page as the server renders
 * it. A guest, whose cart lives in the browser, is told why the checkout needs JavaScript.
 */
const shop = useShop();
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  // A second way to ship, so the shopper has a method to pick.
  const [everywhere] = await shop.db.select().from(shippingZones).where(eq(shippingZones.restOfWorld, true));
  await shop.db.insert(shippingRates).values({ zoneId: everywhere!.id, name: "Express", kind: "flat", priceCents: 1500, estimate: "1–2 business days", position: 1 });
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close().catch(() => {})));
});
afterAll(async () => {
  await browser?.close();
});

/** A page that runs no script, signed in as `as` when given. Navigations get extra time: the machine is shared. */
async function pageWithoutJavaScript(as?: TestUser): Promise<Page> {
  const context = await browser.newContext({ baseURL: shop.baseUrl, javaScriptEnabled: false });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.setDefaultNavigationTimeout(30_000);
  if (as) await signInPageAs(shop, page, as);
  return page;
}

async function savedCartOf(userId: string) {
  return shop.db.select({ id: cartLines.productId, quantity: cartLines.quantity }).from(cartLines).where(eq(cartLines.userId, userId));
}

/** The street, city, state and ZIP of an Illinois address; the name and email come filled in. */
async function fillAddress(form: Locator) {
  await form.getByLabel("Address").fill("1 Linen Lane");
  await form.getByLabel("City").fill("Springfield");
  await form.getByLabel("State").fill("IL");
  await form.getByLabel("ZIP Code").fill("62701");
}

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? "").trim();

describe("checkout without JavaScript", () => {
  it("a signed-in shopper's saved cart: fill the form, pick Express, place the order, pay 4242 4242 4242 4242 and see 'Order Confirmed!'", async () => {
    const shopper = await makeCustomer(shop.db, { firstName: "Noor", lastName: "Script" });
    const sheets = await makeProduct(shop.db, { name: "No Script Sheet Set", priceCents: 4500, stockQuantity: 10 });
    const pillow = await makeProduct(shop.db, { name: "No Script Pillow", priceCents: 2250, stockQuantity: 10 });
    await shop.db.insert(cartLines).values([
      { userId: shopper.id, productId: sheets.id, quantity: 2, updatedAt: new Date(Date.now() - 10) },
      { userId: shopper.id, productId: pillow.id, quantity: 1 },
    ]);

    const page = await pageWithoutJavaScript(shopper);
    const res = await page.goto("/checkout");
    expect(res?.status()).toBe(200);
    const form = checkoutForm(page);
    await form.waitFor();
    // What will be bought, priced by the server: 2 × $45.00 + $22.50.
    const summary = page.getByRole("region", { name: "Order Summary" });
    await summary.getByText("No Script Sheet Set").waitFor();
    expect(await summary.getByText("No Script Pillow").count()).toBe(1);
    expect(await text(page, "order-subtotal")).toBe("$112.50");
    expect(await text(page, "order-total")).toBe("$112.50");
    // The lines the form posts carry a product id and a quantity, never a price.
    expect(await page.locator('input[type="hidden"][name="line"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual([
      `${sheets.id}:2`,
      `${pillow.id}:1`,
    ]);
    // The shopper's name and email come filled in.
    expect(await form.getByLabel("First Name").inputValue()).toBe("Noor");
    expect(await form.getByRole("textbox", { name: "Email" }).inputValue()).toBe(shopper.email);

    await fillAddress(form);
    const method = page.getByRole("group", { name: "Shipping Method" });
    expect(await method.getByRole("radio", { name: /Standard/ }).isChecked()).toBe(true);
    await method.getByRole("radio", { name: /Express/ }).check();
    await form.getByLabel("Email me about my order").check();
    await form.getByRole("button", { name: "Place Order" }).click();

    // The test payment page, as plain HTML: the server's total, Express included.
    await page.waitForURL(/\/pay\/test\/test_cs_/);
    expect(await page.getByLabel("Total $127.50").isVisible()).toBe(true);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry date").fill("12 / 34");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Pay" }).click();

    await page.waitForURL(/\/order-success\?session_id=test_cs_/);
    await page.getByRole("heading", { name: "Order Confirmed!" }).waitFor();
    const sessionId = new URL(page.url()).searchParams.get("session_id")!;
    const [order] = await shop.db.select().from(orders).where(eq(orders.paymentSessionId, sessionId));
    expect(order).toMatchObject({
      userId: shopper.id,
      paymentStatus: "paid",
      status: "processing",
      subtotalCents: 11_250,
      shippingName: "Express",
      shippingCents: 1500,
      totalAmountCents: 12_750,
      firstName: "Noor",
      city: "Springfield",
      emailAboutOrder: true,
    });
    await page.getByText(order!.orderNumber).waitFor();
    expect(await page.getByRole("main").textContent()).toContain("$127.50");
    // What was bought left the saved cart.
    expect(await savedCartOf(shopper.id)).toEqual([]);
  });

  it("refusals are answered in the page: a code that is not valid beside its field and at checkout, a missing field beside the field", async () => {
    const shopper = await makeCustomer(shop.db);
    const lamp = await makeProduct(shop.db, { name: "No Script Lamp", priceCents: 3000, stockQuantity: 5 });
    await shop.db.insert(cartLines).values({ userId: shopper.id, productId: lamp.id, quantity: 1 });
    const page = await pageWithoutJavaScript(shopper);
    await page.goto("/checkout");
    const form = checkoutForm(page);
    await fillAddress(form);

    // 'Apply' prices the form again and places nothing.
    await form.getByLabel("Discount code").fill("NOPE");
    await form.getByRole("button", { name: "Apply" }).click();
    await page.getByText("This code is not valid.").waitFor();
    expect(await form.getByLabel("City").inputValue()).toBe("Springfield");

    // Placing the order with it: refused in the page, 400, nothing made.
    let response = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/checkout");
    await form.getByRole("button", { name: "Place Order" }).click();
    expect((await response).status()).toBe(400);
    const refusal = page.getByTestId("checkout-refusal");
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe("Checkout FailedThis code is not valid.");
    expect(await shop.db.select().from(orders).where(eq(orders.userId, shopper.id))).toEqual([]);

    // A required field left empty: 'Missing Information', and 'Required' beside it.
    await form.getByLabel("Discount code").fill("");
    await form.getByLabel("First Name").fill("");
    response = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/checkout");
    await form.getByRole("button", { name: "Place Order" }).click();
    expect((await response).status()).toBe(400);
    await refusal.getByText("Missing Information").waitFor();
    expect(await refusal.textContent()).toBe("Missing InformationPlease fill in all required fields.");
    const firstName = form.getByLabel("First Name");
    expect(await firstName.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#checkout-firstName-error").textContent()).toBe("Required");
    expect(await form.getByLabel("Address").inputValue()).toBe("1 Linen Lane");

    // Put right, the same page places the order.
    await firstName.fill("Casey");
    await form.getByRole("button", { name: "Place Order" }).click();
    await page.waitForURL(/\/pay\/test\/test_cs_/);
    expect(await page.getByLabel("Total $30.00").isVisible()).toBe(true);
    expect(await shop.db.select().from(orders).where(and(eq(orders.userId, shopper.id), eq(orders.paymentStatus, "unpaid")))).toHaveLength(1);
  });

  it("a shipping rate raised while the page was open is refused with 'Shipping for your order is now $20.00.', shown, then charged once placed again", async () => {
    const shopper = await makeCustomer(shop.db);
    const quilt = await makeProduct(shop.db, { name: "No Script Quilt", priceCents: 8000, stockQuantity: 5 });
    await shop.db.insert(cartLines).values({ userId: shopper.id, productId: quilt.id, quantity: 1 });
    const page = await pageWithoutJavaScript(shopper);
    await page.goto("/checkout");
    const form = checkoutForm(page);
    await fillAddress(form);
    // Express is picked beside its price, $15.00; the page is not priced again for it.
    const method = page.getByRole("group", { name: "Shipping Method" });
    await method.getByRole("radio", { name: /Express/ }).check();
    expect(await method.textContent()).toContain("$15.00");

    // The owner raises Express meanwhile.
    const [express] = await shop.db.select().from(shippingRates).where(eq(shippingRates.name, "Express"));
    await shop.db.update(shippingRates).set({ priceCents: 2000 }).where(eq(shippingRates.id, express!.id));
    try {
      const response = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/checkout");
      await form.getByRole("button", { name: "Place Order" }).click();
      expect((await response).status()).toBe(400);
      const refusal = page.getByTestId("checkout-refusal");
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain("Shipping for your order is now $20.00.");
      expect(await shop.db.select().from(orders).where(eq(orders.userId, shopper.id))).toEqual([]);
      // The page shows the new figures, Express still picked, and charges them once placed again.
      expect(await text(page, "order-shipping")).toBe("$20.00");
      expect(await text(page, "order-total")).toBe("$100.00");
      expect(await page.getByRole("group", { name: "Shipping Method" }).getByRole("radio", { name: /Express/ }).isChecked()).toBe(true);
      await form.getByRole("button", { name: "Place Order" }).click();
      await page.waitForURL(/\/pay\/test\/test_cs_/);
      expect(await page.getByLabel("Total $100.00").isVisible()).toBe(true);
    } finally {
      await shop.db.update(shippingRates).set({ priceCents: 1500 }).where(eq(shippingRates.id, express!.id));
    }
  });

  it("a guest, whose cart lives in the browser, is told the checkout needs JavaScript or signing in; no broken form", async () => {
    const page = await pageWithoutJavaScript();
    await page.goto("/checkout");
    await page.getByText("Your cart is kept in this browser, and the checkout needs JavaScript to read it.").waitFor();
    expect(await checkoutForm(page).count()).toBe(0);
    const notice = page.getByTestId("checkout-needs-script");
    expect(await notice.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/auth?redirectTo=%2Fcheckout");
    expect(await page.getByLabel("Loading the checkout").isVisible()).toBe(false);
  });
});
