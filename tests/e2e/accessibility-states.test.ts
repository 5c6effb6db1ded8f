import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { useDatabase } from "~/server/platform/db/client.server";
import { testPaymentSessions } from "~/server/platform/db/schema";
import { openCheckout, orderBySession } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer } from "../factories/users";
import { check, pagesByRole, WIDTHS, type Finding, type Role } from "./axe-helpers";
import { reportIfFailed } from "./failure-report";
import { launchBrowser, startShop } from "./harness";
import { hydrated } from "./page-helpers";
import { addToCart } from "./shopper-steps";

/**
 * WCAG 2.2 AA in the states people meet (docs/rules/accessibility.md): axe-core's WCAG 2.0, 2.1
 * and 2.2 A and AA rules find no violation with the admin's dialogs and its drawer open, and with
 * forms showing their errors, at 1280 and 390 px. A state is reached once and the window resized,
 * not the page reloaded, so the file stays fast.
 */

let shop: Awaited<ReturnType<typeof startShop>>;
let browser: Browser;
const contexts: BrowserContext[] = [];
const pages = {} as Record<Role, Page>;
let customerEmail = "";
let productId = "";
let productName = "";
let orderNumber = "";

beforeAll(async () => {
  shop = await startShop();
  useDatabase(shop.db, shop.test.url);
  browser = await launchBrowser();
  const customer = await makeCustomer(shop.db);
  customerEmail = customer.email;
  const admin = await makeAdmin(shop.db);
  const made = await pagesByRole(browser, shop, { customer, admin });
  Object.assign(pages, made.pages);
  contexts.push(...made.contexts);
  const product = await makeProduct(shop.db, { name: "States Linen Throw", priceCents: 4200, stockQuantity: 8 });
  productId = product.id;
  productName = product.name;
  const paid = await openCheckout(shop.db, [[product, 1]], { userId: customer.id });
  await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: `test_pi_${paid.sessionId}` }).where(eq(testPaymentSessions.id, paid.sessionId));
  expect((await confirmPayment(shop.db, paid.sessionId)).state).toBe("paid");
  orderNumber = (await orderBySession(shop.db, paid.sessionId)).orderNumber;
}, 90_000);

// What the pages and the shop showed when a test failed (the pages are kept for the next test).
afterEach((ctx) => reportIfFailed(ctx, contexts, shop));

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => {})));
  await browser?.close();
  await shop?.stop();
  await shop?.test.drop();
});

/** Checks what the page shows now at each width, resizing (not reloading) between them. */
async function atWidths(page: Page, label: string, widths: readonly number[] = WIDTHS): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const width of widths) {
    if (page.viewportSize()?.width !== width) await page.setViewportSize({ width, height: 900 });
    found.push(...(await check(page, label)));
  }
  return found;
}

/** Opens a page at 1280 px, hydrated. */
async function visit(page: Page, url: string) {
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  await page.goto(url, { waitUntil: "load" });
  await hydrated(page);
}

/**
 * Submits a form with the browser's own required-field check off, so the shop's own messages
 * show (the bubble the browser draws is not in the page for axe to see).
 */
async function submitUnchecked(page: Page, button: ReturnType<Page["getByRole"]>) {
  await button.evaluate((b) => {
    const form = (b as HTMLButtonElement).form;
    if (form) form.noValidate = true;
  });
  await button.click();
}

describe("WCAG 2.2 AA in the states people meet: axe-core finds no violation", () => {
  it("with the admin's confirmation dialogs, its product form showing errors and its drawer open", async () => {
    const admin = pages.admin;
    const found: Finding[] = [];

    await visit(admin, `/admin/products?q=${encodeURIComponent(productName)}`);
    await admin.getByRole("button", { name: `Delete ${productName}` }).click();
    await admin.getByRole("alertdialog", { name: "Delete Product" }).waitFor();
    found.push(...(await atWidths(admin, "the Delete Product confirmation")));
    await admin.keyboard.press("Escape");
    await admin.getByRole("alertdialog").waitFor({ state: "hidden" });

    await admin.setViewportSize({ width: WIDTHS[0], height: 900 });
    await admin.getByRole("button", { name: `Edit ${productName}` }).click();
    const dialog = admin.getByRole("dialog", { name: "Edit Product" });
    await dialog.getByLabel("Product Name").fill("");
    await dialog.getByLabel("Price", { exact: true }).fill("-3");
    await submitUnchecked(admin, dialog.getByRole("button", { name: "Save Changes" }));
    await dialog.locator('[aria-invalid="true"]').first().waitFor();
    found.push(...(await atWidths(admin, "the Edit Product form showing its errors")));
    await admin.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });

    await visit(admin, `/admin/orders/${orderNumber}`);
    await hydrated(admin, admin.getByRole("button", { name: "Refund", exact: true }));
    await admin.getByRole("button", { name: "Refund", exact: true }).click();
    await admin.getByRole("dialog", { name: `Refund order ${orderNumber}` }).waitFor();
    found.push(...(await atWidths(admin, "the Refund dialog")));
    await admin.keyboard.press("Escape");
    await admin.getByRole("dialog").waitFor({ state: "hidden" });

    // The sidebar is a drawer on a phone.
    await admin.setViewportSize({ width: 390, height: 900 });
    await admin.getByRole("button", { name: "Toggle sidebar" }).first().click();
    await admin.getByRole("dialog").waitFor();
    found.push(...(await atWidths(admin, "the admin's drawer", [390])));
    await admin.keyboard.press("Escape");

    expect(found, found.join("\n")).toEqual([]);
  }, 120_000);

  it("with the sign-in, sign-up, contact and checkout forms showing their errors", async () => {
    const visitor = pages.visitor;
    const found: Finding[] = [];

    await visit(visitor, "/auth");
    const signIn = visitor.locator("form").filter({ has: visitor.locator("#signin-email") });
    await signIn.getByLabel("Email").fill(customerEmail);
    await signIn.getByLabel("Password").fill("not-the-password-1");
    await signIn.getByRole("button", { name: "Sign In" }).click();
    await visitor.getByRole("alert").filter({ hasText: "Sign in failed" }).first().waitFor();
    found.push(...(await atWidths(visitor, "sign-in with a wrong password")));

    await visit(visitor, "/auth?tab=signup");
    const signUp = visitor.locator("form").filter({ has: visitor.locator("#signup-email") });
    await submitUnchecked(visitor, signUp.getByRole("button", { name: "Sign Up" }));
    await visitor.getByRole("alert").filter({ hasText: "Sign up failed" }).first().waitFor();
    found.push(...(await atWidths(visitor, "sign-up submitted empty")));

    await visit(visitor, "/contact");
    await submitUnchecked(visitor, visitor.getByRole("button", { name: "Send Message" }));
    await visitor.locator('[aria-invalid="true"]').first().waitFor();
    found.push(...(await atWidths(visitor, "the contact form submitted empty")));

    const customer = pages.customer;
    await customer.setViewportSize({ width: WIDTHS[0], height: 900 });
    await addToCart(customer, productId, productName);
    await visit(customer, "/checkout");
    const form = customer.getByRole("form", { name: "Checkout" });
    // The form is on screen before its fields are listed: when the cart had not reached the server
    // yet, the page renders it only once hydrated, and an empty list would leave the saved address
    // in place, so Place Order would place the order.
    await form.getByRole("textbox", { name: "First Name" }).waitFor();
    for (const field of await form.locator("input:not([type=hidden]):not([type=radio]):not([type=checkbox])").all()) await field.fill("");
    await submitUnchecked(customer, customer.getByRole("button", { name: "Place Order" }));
    await customer.locator('[aria-invalid="true"]').first().waitFor();
    found.push(...(await atWidths(customer, "the checkout submitted empty")));

    expect(found, found.join("\n")).toEqual([]);
  }, 120_000);
});
