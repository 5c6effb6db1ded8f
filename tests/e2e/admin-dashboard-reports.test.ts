import fs from "node:fs";
import { eq, sql } from "drizzle-orm";
import Papa from "papaparse";
import { describe, expect, it, vi } from "vitest";
import { formatDay } from "~/lib/date-range";
import { formatMoney } from "~/lib/money";
import { contactMessages, mailOutbox, orders, paymentTasks, searchTermsDaily, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { makeOrder } from "../factories/account-orders";
import { openCheckout } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, open, slow } from "./page-helpers";

// Several pages and downloads on a machine shared with other test runs.
vi.setConfig({ testTimeout: 180_000 });

const shop = useShop();
const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms);

/** A paid order made by the real checkout and confirmed as the test provider would. */
async function paidOrderFor(product: { id: string; name: string; priceCents: number }, quantity: number) {
  const checkout = await openCheckout(shop.db, [[product, quantity]]);
  await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_e2e" }).where(eq(testPaymentSessions.id, checkout.sessionId));
  expect((await confirmPayment(shop.db, checkout.sessionId)).state).toBe("paid");
  return checkout;
}

describe("the admin dashboard", () => {
  it("says All clear, then shows the real changes, what needs attention and links that open the lists filtered", async () => {
    const admin = slow(await asAdmin(shop));
    await open(admin, "/admin");
    await admin.getByRole("heading", { name: "Needs attention" }).waitFor();
    await admin.getByText("All clear: nothing needs your attention right now.").waitFor();

    await makeProduct(shop.db, { name: "Dashboard Pillow", sku: "DASH-PILLOW", stockQuantity: 2 });
    await makeOrder(shop.db, { orderNumber: "ORD-E2E-OLD", paymentStatus: "paid", status: "completed", totalAmountCents: 4_000, paidAt: ago(40 * DAY), createdAt: ago(40 * DAY) });
    const late = await makeOrder(shop.db, { orderNumber: "ORD-E2E-LATE", paymentStatus: "paid", status: "processing", totalAmountCents: 5_000, paidAt: ago(3 * DAY), createdAt: ago(3 * DAY) });
    await makeOrder(shop.db, { orderNumber: "ORD-E2E-NEW", paymentStatus: "paid", status: "processing", totalAmountCents: 3_000, paidAt: ago(60_000) });
    const stuck = await makeOrder(shop.db, { orderNumber: "ORD-E2E-STUCK", paymentStatus: "paid", status: "cancelled", totalAmountCents: 1_000, paidAt: ago(5 * DAY) });
    // Refused three times, so its next try is a while away (backoff). Due now, the shop's every-minute
    // sweep of provider calls would make it with the test provider and it would need no one.
    await shop.db.insert(paymentTasks).values({
      orderId: stuck.id,
      kind: "refund",
      idempotencyKey: `refund-${stuck.id}`,
      attempts: 3,
      lastError: "declined",
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });
    await shop.db.insert(contactMessages).values({ name: "Nell", email: "nell@example.test", subject: "Gift wrap?", message: "Do you gift wrap?" });
    await shop.db.insert(searchTermsDaily).values({ day: formatDay(Date.now()), term: "silk pyjamas", searches: 4, emptySearches: 4 });
    await shop.db.insert(mailOutbox).values({
      to: "nell@example.test",
      from: "shop@example.test",
      subject: "Order ORD-E2E-LATE has shipped",
      text: "…",
      kind: "order-shipped",
      transport: "smtp",
      status: "given_up",
      attempts: 5,
      error: "550 5.1.1 mailbox unavailable",
    });

    await open(admin, "/admin");
    const attention = admin.getByRole("list", { name: "Needs attention" });
    await attention.waitFor();
    expect(await attention.getByRole("listitem").allInnerTexts()).toEqual([
      expect.stringMatching(/^1\s*product at or below its low-stock threshold\s*Restock$/),
      expect.stringMatching(/^1\s*paid order not shipped after 2 days\s*Ship$/),
      expect.stringMatching(/^1\s*contact message not answered\s*Answer$/),
      expect.stringMatching(/^1\s*refund that failed\s*Refund by hand$/),
      expect.stringMatching(/^1\s*mail that failed to send\s*See mails$/),
      expect.stringMatching(/^1\s*search term found nothing this week\s*See searches$/),
    ]);
    // Orders paid: three in the last 30 days (the cancelled one too, on the day it was paid), one in
    // the 30 before. Net sales: $80 + $10 − $10 (the cancel, today) against $40: doubled.
    expect(await admin.getByTestId("stat-Total Orders").innerText()).toBe("4");
    expect(await admin.getByTestId("change-Total Orders").innerText()).toMatch(/^\+200%\s*from the previous 30 days$/);
    expect(await admin.getByTestId("meaning-Total Orders").innerText()).toBe("Orders paid: 3 in the last 30 days, 1 in the 30 before.");
    expect(await admin.getByTestId("change-Revenue").innerText()).toMatch(/^\+100%\s*from the previous 30 days$/);
    // The change is told by an icon and words, not by colour alone.
    expect(await admin.getByTestId("change-Revenue").locator("svg").count()).toBe(1);
    const activity = admin.getByRole("list", { name: "Recent activity" });
    expect(await activity.getByRole("listitem").first().innerText()).toContain("Message from Nell");

    await attention.getByRole("link", { name: /^Restock/ }).click();
    await admin.waitForURL((u) => u.pathname === "/admin/products" && u.searchParams.get("stock") === "low");
    await admin.getByRole("cell", { name: /^Dashboard Pillow SKU/ }).waitFor();
    expect(await admin.getByRole("button", { name: "Low stock only" }).getAttribute("aria-pressed")).toBe("true");
    expect(await admin.getByRole("table").getByRole("row").count()).toBe(2);

    await open(admin, "/admin");
    await admin.getByRole("link", { name: /^Ship:/ }).click();
    await admin.waitForURL((u) => u.pathname === "/admin/orders" && u.searchParams.get("needs") === "unshipped");
    await admin.getByText("Showing paid orders not yet shipped 2 days after payment.").waitFor();
    const rows = admin.getByRole("table").getByRole("row");
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(1).innerText()).toContain(late.orderNumber);

    await open(admin, "/admin");
    await admin.getByRole("link", { name: /^Refund by hand:/ }).click();
    await admin.waitForURL((u) => u.searchParams.get("needs") === "refund-failed");
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(1).innerText()).toContain(stuck.orderNumber);

    await open(admin, "/admin");
    await admin.getByRole("link", { name: /^Answer:/ }).click();
    await admin.waitForURL((u) => u.pathname === "/admin/inbox");
    await admin.getByText("Gift wrap?").waitFor();

    await open(admin, "/admin");
    await admin.getByRole("link", { name: /^See mails:/ }).click();
    await admin.waitForURL((u) => u.pathname === "/admin/outbox" && u.searchParams.get("state") === "failed");
    await admin.getByRole("link", { name: "Order ORD-E2E-LATE has shipped" }).waitFor();
    expect(await admin.getByRole("navigation", { name: "Filter by state" }).locator("[aria-current=page]").innerText()).toMatch(/^Failed \(1\)$/);

    await open(admin, "/admin");
    await admin.getByRole("link", { name: /^See searches:/ }).click();
    await admin.waitForURL((u) => u.pathname === "/admin/analytics" && u.hash === "#searches");

    await open(admin, "/admin");
    await admin.getByRole("link", { name: "Order ORD-E2E-NEW paid" }).click();
    await admin.waitForURL((u) => u.pathname.startsWith("/admin/orders/"));
    await admin.getByRole("heading", { name: /ORD-E2E-NEW/ }).waitFor();
  });
});

describe("the admin reports", () => {
  it("shows a report's rows, switches report and range, downloads a CSV that parses, and refuses a bad range or report", async () => {
    const duvet = await makeProduct(shop.db, { name: "Report Duvet", sku: "REP-DUVET", category: "Bedding", priceCents: 12_000, costCents: 5_000, stockQuantity: 20 });
    await makeProduct(shop.db, { name: "Report Candle", sku: "REP-CANDLE", category: "Decor", priceCents: 1_800, unlimitedStock: true, stockQuantity: 0 });
    await paidOrderFor(duvet, 2);
    await paidOrderFor(duvet, 1);
    // What shoppers paid in the last 30 days (these two and the dashboard test's, the one cancelled
    // since included: gross stays on the day paid), shipping and tax included.
    const [paid] = await shop.db
      .select({ cents: sql<string>`coalesce(sum(${orders.totalAmountCents}), 0)::text` })
      .from(orders)
      .where(sql`${orders.paymentStatus} in ('paid', 'partially_refunded', 'refunded') and ${orders.paidAt} >= current_date - 29`);
    const revenue = formatMoney(Number(paid!.cents));

    const admin = slow(await asAdmin(shop));
    const errors: string[] = [];
    admin.on("pageerror", (e) => errors.push(e.message));
    await open(admin, "/admin/reports");
    await admin.getByRole("heading", { level: 1, name: "Reports" }).waitFor();
    expect(await admin.title()).toBe("Reports — Admin");
    await admin.getByRole("heading", { level: 2, name: "Sales by day" }).waitFor();
    // Every day of the last 30, and the totals row.
    const table = admin.getByRole("table");
    expect(await table.locator("tbody tr").count()).toBe(30);
    expect(await table.locator("tfoot").innerText()).toContain(revenue);

    await admin.getByRole("navigation", { name: "Reports" }).getByRole("link", { name: "Sales by product", exact: true }).click();
    await admin.waitForURL((u) => u.searchParams.get("report") === "sales-by-product");
    await admin.getByRole("heading", { level: 2, name: "Sales by product" }).waitFor();
    const duvetRow = table.locator("tbody tr").filter({ hasText: "Report Duvet" });
    expect((await duvetRow.getByRole("cell").allInnerTexts()).map((s) => s.trim())).toEqual(["Report Duvet", "Bedding", "3", "$360.00"]);

    // A range from the picker keeps the report chosen.
    await hydrated(admin);
    await admin.getByRole("combobox", { name: "Date range" }).selectOption("7d");
    await admin.getByRole("button", { name: "Apply" }).click();
    await admin.waitForURL((u) => u.searchParams.get("range") === "7d" && u.searchParams.get("report") === "sales-by-product");
    await admin.getByText("Report Duvet").waitFor();

    const section = admin.getByRole("region", { name: "Sales by product" });
    const [download] = await Promise.all([admin.waitForEvent("download"), section.getByRole("link", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^sales-by-product-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const parsed = Papa.parse<string[]>(fs.readFileSync((await download.path())!, "utf8").trimEnd()).data;
    expect(parsed[0]).toEqual(["Product", "Category", "Units", "Revenue"]);
    expect(parsed).toContainEqual(["Report Duvet", "Bedding", "3", "360.00"]);
    expect(parsed.at(-1)![0]).toBe("Total");

    await admin.getByRole("navigation", { name: "Reports" }).getByRole("link", { name: "Stock on hand", exact: true }).click();
    await admin.getByRole("heading", { level: 2, name: "Stock on hand" }).waitFor();
    await admin.getByText("The shop as it is now: the date range does not apply.").waitFor();
    const candle = table.locator("tbody tr").filter({ hasText: "Report Candle" });
    expect(await candle.innerText()).toContain("Unlimited");
    const [stockFile] = await Promise.all([
      admin.waitForEvent("download"),
      admin.getByRole("region", { name: "Stock on hand" }).getByRole("link", { name: "Download CSV" }).click(),
    ]);
    const stock = Papa.parse<string[]>(fs.readFileSync((await stockFile.path())!, "utf8").trimEnd()).data;
    expect(stock).toContainEqual(["REP-DUVET", "Report Duvet", "Bedding", "Active", "17", "50.00", "120.00", "850.00", "2040.00"]);
    expect(stock).toContainEqual(["REP-CANDLE", "Report Candle", "Decor", "Active", "Unlimited", "", "18.00", "", ""]);

    await open(admin, "/admin/reports?report=sales-by-day&range=custom&from=2026-03-10&to=2026-03-01");
    await admin.getByRole("alert").filter({ hasText: "The end date is before the start date. Showing the last 30 days." }).waitFor();
    expect(await admin.getByRole("combobox", { name: "Date range" }).inputValue()).toBe("30d");

    const missing = await admin.goto("/admin/reports?report=profit-and-loss");
    expect(missing?.status()).toBe(404);
    expect(errors).toEqual([]);
  });
});
