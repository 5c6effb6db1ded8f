import Papa from "papaparse";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it, vi } from "vitest";
import { makeProduct } from "../factories/products";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, open, seeToast, slow } from "./page-helpers";
import { addToCart, checkoutForm, payWith } from "./shopper-steps";
import { orderBySession } from "../factories/orders";

// The owner's settings, a shopper's whole purchase and the owner's order page, in one walk.
vi.setConfig({ testTimeout: 240_000 });

const shop = useShop();

/** Clicks a button that opens a dialog, once the page has hydrated. */
async function openDialog(page: Page, button: Locator, name: string) {
  await hydrated(page, button);
  await button.click();
  const dialog = page.getByRole("dialog", { name });
  await dialog.waitFor();
  return dialog;
}

const text = async (l: Locator) => ((await l.textContent()) ?? "").replace(/\s+/g, " ").trim();

describe("shipping, VAT and a discount code from the owner's settings to the shopper's card and back", () => {
  it("the owner sets a French zone with weight bands, 20% VAT included and WELCOME10; a shopper in France sees and pays exactly that; the order and its CSV show every line", async () => {
    const duvet = await makeProduct(shop.db, { name: "Linen Duvet Cover", priceCents: 12_000, stockQuantity: 5, weightGrams: 1500 });

    // ── The owner ──
    const admin = slow(await asAdmin(shop));
    await open(admin, "/admin/settings/shipping");
    await admin.getByRole("heading", { level: 1, name: "Shipping & Tax" }).waitFor();
    const zone = await openDialog(admin, admin.getByRole("button", { name: "Add Zone" }), "Add Zone");
    await zone.getByLabel("Zone Name").fill("France");
    await zone.getByLabel("Countries").fill("FR");
    await zone.getByRole("button", { name: "Save Zone" }).click();
    await seeToast(admin, "Zone added successfully");
    await zone.waitFor({ state: "detached" });
    const france = admin.getByRole("region", { name: "France" });
    const rate = await openDialog(admin, france.getByRole("button", { name: "Add rate to France" }), "Add Rate");
    await rate.getByLabel("Rate Name").fill("Colissimo");
    await rate.getByLabel("Pricing").selectOption("weight");
    await rate.getByLabel("Band 1 To (g)").fill("2000");
    await rate.getByLabel("Band 1 Price ($)").fill("6.50");
    await rate.getByRole("button", { name: "Add Band" }).click();
    await rate.getByLabel("Band 2 Price ($)").fill("12");
    await rate.getByLabel("Delivery Estimate (optional)").fill("2–4 business days");
    await rate.getByRole("button", { name: "Save Rate" }).click();
    await seeToast(admin, "Rate added successfully");
    await rate.waitFor({ state: "detached" });
    const tax = await openDialog(admin, admin.getByRole("button", { name: "Add Tax Rate" }), "Add Tax Rate");
    await tax.getByLabel("Country").selectOption("FR");
    await tax.getByLabel("Rate (%)").fill("20");
    await tax.getByRole("button", { name: "Save Tax Rate" }).click();
    await seeToast(admin, "Tax rate added successfully");
    await tax.waitFor({ state: "detached" });
    await admin.getByLabel("Tax Name").fill("VAT");
    await admin.getByRole("switch", { name: "Prices include tax" }).click();
    await admin.getByRole("button", { name: "Save Tax Settings" }).click();
    await seeToast(admin, "Tax settings saved successfully");

    await open(admin, "/admin/discounts/new");
    await admin.getByRole("heading", { name: "New Discount Code" }).waitFor();
    await hydrated(admin);
    await admin.getByLabel("Code", { exact: true }).fill("WELCOME10");
    await admin.getByLabel("Percentage off (%)").fill("10");
    await admin.getByRole("button", { name: "Create Code" }).click();
    await seeToast(admin, "Discount code WELCOME10 created successfully");

    // ── The shopper ──
    const page = slow(await shop.newPage());
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await addToCart(page, duvet.id, "Linen Duvet Cover");
    await open(page, "/cart");
    await page.getByTestId("order-total").filter({ hasText: "$120.00" }).waitFor();
    // Several zones now: the cart cannot know the shipping before the address.
    await page.getByText("Calculated at checkout").first().waitFor();
    await hydrated(page);
    await page.getByLabel("Discount code").fill("NOPE");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("This code is not valid.").waitFor();
    await page.getByLabel("Discount code").fill("welcome10");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("Discount applied").waitFor();
    await page.getByTestId("order-discount").filter({ hasText: "−$12.00" }).waitFor();

    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await page.waitForURL("**/checkout");
    await hydrated(page);
    const form = checkoutForm(page);
    await form.getByLabel("First Name").fill("Camille");
    await form.getByLabel("Last Name").fill("Martin");
    await form.getByRole("textbox", { name: "Email" }).fill("camille@example.test");
    await form.getByLabel("Address").fill("12 rue des Lilas");
    await form.getByLabel("City").fill("Lyon");
    await form.getByLabel("State").fill("Rhône");
    await form.getByLabel("ZIP Code").fill("69001");
    await form.getByLabel("Country").selectOption("FR");
    // The French zone's rate for 1.5 kg, with its estimate, picked; VAT shown as included.
    const method = page.getByRole("group", { name: "Shipping Method" });
    const colissimo = method.getByRole("radio", { name: /Colissimo/ });
    await colissimo.waitFor();
    expect(await colissimo.isChecked()).toBe(true);
    expect(await text(method)).toContain("Colissimo$6.502–4 business days");
    await page.getByText("VAT 20% (included)").waitFor();
    // 120.00 − 12.00 + 6.50 = 114.50; VAT in the goods: 108.00 × 20/120 = 18.00.
    await page.getByTestId("order-total").filter({ hasText: "$114.50" }).waitFor();
    expect(await text(page.getByTestId("order-tax"))).toBe("$18.00");
    expect(await text(page.getByTestId("order-shipping"))).toBe("$6.50");
    await page.getByRole("button", { name: "Place Order" }).click();

    await page.waitForURL(/\/pay\/test\//);
    expect(await page.getByLabel("Total $114.50").isVisible()).toBe(true);
    const sessionId = await payWith(page, "4242 4242 4242 4242");
    await page.getByRole("heading", { name: "Order Confirmed!" }).waitFor();
    const order = await orderBySession(shop.db, sessionId);
    expect(order).toMatchObject({
      paymentStatus: "paid",
      subtotalCents: 12_000,
      discountCode: "WELCOME10",
      discountCents: 1200,
      shippingName: "Colissimo",
      shippingCents: 650,
      taxName: "VAT",
      taxCents: 1800,
      pricesIncludeTax: true,
      totalAmountCents: 11_450,
    });
    expect(errors).toEqual([]);

    // ── The owner's order page and export ──
    await open(admin, `/admin/orders/${order.orderNumber}`);
    await admin.getByTestId("order-total").filter({ hasText: "$114.50" }).waitFor();
    expect(await text(admin.getByTestId("order-discount"))).toContain("$12.00");
    expect(await text(admin.getByTestId("order-shipping"))).toBe("$6.50");
    const summary = await text(admin.locator("main"));
    expect(summary).toContain("WELCOME10");
    expect(summary).toContain("Colissimo");
    expect(summary).toContain("VAT 20% (included)");
    const csv = await admin.evaluate(async () => (await fetch("/admin/orders/export")).text());
    const parsed = Papa.parse<Record<string, string>>(csv.trim(), { header: true });
    const row = parsed.data.find((r) => Object.values(r).includes(order.orderNumber))!;
    const cell = (name: string) => row[name];
    expect(cell("discount_code")).toBe("WELCOME10");
    expect(cell("discount")).toBe("12.00");
    expect(cell("shipping_name")).toBe("Colissimo");
    expect(cell("tax_name")).toBe("VAT 20% (included)");
  });
});
