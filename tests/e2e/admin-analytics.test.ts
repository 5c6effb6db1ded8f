import { beforeAll, describe, expect, it, vi } from "vitest";
import { searchTermsDaily, visitsDaily } from "~/server/platform/db/schema";
import { makeProduct } from "../factories/products";
import { placeOrder } from "../factories/sold-orders";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, slow } from "./page-helpers";

vi.setConfig({ testTimeout: 120_000 });

// March 1–7, 2025 (compared with February 22–28, 2025): three paid orders for $180.00, against
// one for $120.00 before; one whose payment failed, which never counts.
describe("the Analytics page", () => {
  const shop = useShop();

  beforeAll(async () => {
    const db = shop.db;
    const duvet = await makeProduct(db, { name: "Washed Linen Duvet", category: "Bedding", priceCents: 12_000 });
    const towel = await makeProduct(db, { name: "Waffle Bath Towel", category: "Bath", priceCents: 2_000 });
    await placeOrder(db, { email: "ada@example.test", paidAt: "2025-02-25T10:00:00Z", lines: [[duvet, 1, 12_000]] });
    await placeOrder(db, { email: "ada@example.test", paidAt: "2025-03-01T09:00:00Z", lines: [[duvet, 1, 12_000]] });
    await placeOrder(db, { email: "ben@example.test", paidAt: "2025-03-01T15:00:00Z", lines: [[towel, 2, 2_000]] });
    await placeOrder(db, { email: "cy@example.test", paidAt: "2025-03-04T15:00:00Z", lines: [[towel, 1, 2_000]] });
    await placeOrder(db, { email: "dee@example.test", paymentStatus: "failed", status: "cancelled", lines: [[duvet, 5, 12_000]] });
    await db.insert(visitsDaily).values([
      { day: "2025-03-01", pageViews: 800, visitors: 200, productViewers: 100, cartAdders: 40, checkoutStarters: 20 },
      { day: "2025-03-02", pageViews: 400, visitors: 100, productViewers: 50, cartAdders: 20, checkoutStarters: 10 },
    ]);
    await db.insert(searchTermsDaily).values([
      { day: "2025-03-02", term: "linen duvet", searches: 6, emptySearches: 0 },
      { day: "2025-03-03", term: "weighted blanket", searches: 4, emptySearches: 4 },
    ]);
  });

  it("shows a chosen range's figures, chart, table of the chart, top sellers, funnel and searches", async () => {
    const page = slow(await asAdmin(shop));
    await page.goto("/admin/analytics");
    await page.getByRole("heading", { level: 1, name: "Analytics" }).waitFor();
    await hydrated(page);
    // The default range, with nothing sold in it: the empty states say so.
    expect(await page.getByRole("combobox", { name: "Date range" }).inputValue()).toBe("30d");
    await page.getByText("No paid orders or refunds in this range, so there is nothing to chart yet.").waitFor();
    await page.getByText("No visits were counted in this range yet.").waitFor();

    await page.getByRole("combobox", { name: "Date range" }).selectOption("custom");
    await page.getByLabel("From", { exact: true }).fill("2025-03-01");
    await page.getByLabel("To", { exact: true }).fill("2025-03-07");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/from=2025-03-01/);
    await page.getByText("Mar 1, 2025 – Mar 7, 2025").first().waitFor();

    expect(await page.getByTestId("figure-revenueCents").innerText()).toBe("$180.00");
    expect(await page.getByTestId("change-revenueCents").innerText()).toContain("+50%");
    expect(await page.getByTestId("change-revenueCents").innerText()).toContain("$120.00 before");
    expect(await page.getByTestId("figure-orders").innerText()).toBe("3");
    expect(await page.getByTestId("change-orders").innerText()).toContain("+200%");
    expect(await page.getByTestId("figure-averageOrderCents").innerText()).toBe("$60.00");
    expect(await page.getByTestId("change-averageOrderCents").innerText()).toContain("−50%");
    expect(await page.getByTestId("figure-units").innerText()).toBe("4");
    // Ben and Cy are new; Ada returns (her first order was in February).
    expect(await page.getByTestId("figure-newCustomers").innerText()).toBe("2");
    expect(await page.getByTestId("figure-returningCustomers").innerText()).toBe("1");

    // The chart is drawn (recharts, fetched when the page needs it) and its figures are in a table.
    const chart = page.getByTestId("sales-chart");
    await chart.locator("svg.recharts-surface").first().waitFor();
    await expect(chart.getByText("Gross sales", { exact: true }).first().isVisible()).resolves.toBe(true);
    await page.getByText("Chart figures as a table").click();
    const march1 = page.getByRole("row", { name: /^Mar 1 / });
    // Gross sales, refunds, net sales, paid orders.
    expect(await march1.getByRole("cell").allInnerTexts()).toEqual(["$160.00", "$0.00", "$160.00", "2"]);
    expect(await page.getByRole("row", { name: /^Mar 2 / }).getByRole("cell").allInnerTexts()).toEqual(["$0.00", "$0.00", "$0.00", "0"]);

    const byRevenue = page.getByTestId("top-products-revenue");
    expect(await byRevenue.getByRole("rowheader").allInnerTexts()).toEqual(["Washed Linen Duvet", "Waffle Bath Towel"]);
    const byUnits = page.getByTestId("top-products-units");
    expect(await byUnits.getByRole("rowheader").allInnerTexts()).toEqual(["Waffle Bath Towel", "Washed Linen Duvet"]);
    expect(await page.getByTestId("top-categories-revenue").getByRole("rowheader").allInnerTexts()).toEqual(["Bedding", "Bath"]);

    const funnel = page.getByTestId("funnel");
    const step = async (name: string) => funnel.getByRole("row", { name: new RegExp(`^${name}`) }).getByRole("cell").allInnerTexts();
    expect((await step("Visitors")).slice(0, 2)).toEqual(["300", "—"]);
    expect((await step("Viewed a product")).slice(0, 2)).toEqual(["150", "50% drop"]);
    expect((await step("Added to cart")).slice(0, 2)).toEqual(["60", "60% drop"]);
    expect((await step("Started checkout")).slice(0, 2)).toEqual(["30", "50% drop"]);
    expect((await step("Paid orders")).slice(0, 2)).toEqual(["3", "90% drop"]);
    // How a visitor is counted, so the owner knows what the numbers can and cannot be.
    expect(await page.getByTestId("visitor-counting").innerText()).toBe(
      "A visitor is one browser (its network address and user agent), at most 20 a minute from one network address (an IPv6 network by its /64); bots and admin pages are not counted.",
    );

    expect(await page.getByTestId("top-searches").getByRole("rowheader").allInnerTexts()).toEqual(["linen duvet", "weighted blanket"]);
    const nothing = page.getByTestId("empty-searches");
    expect(await nothing.getByRole("rowheader").allInnerTexts()).toEqual(["weighted blanket"]);
    expect(await nothing.getByRole("cell").last().innerText()).toBe("4");
  });

  it("answers a range whose end is before its start with a message and the last 30 days", async () => {
    const page = slow(await asAdmin(shop));
    await page.goto("/admin/analytics?range=custom&from=2025-03-01&to=2025-03-07");
    await hydrated(page);
    await page.getByLabel("From", { exact: true }).fill("2025-03-07");
    await page.getByLabel("To", { exact: true }).fill("2025-03-01");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByRole("alert").filter({ hasText: "The end date is before the start date. Showing the last 30 days." }).waitFor();
    expect(await page.getByRole("combobox", { name: "Date range" }).inputValue()).toBe("30d");
    expect(await page.getByTestId("figure-revenueCents").innerText()).toBe("$0.00");

    // A garbled date in the address gets the same treatment.
    await page.goto("/admin/analytics?range=custom&from=2025-02-30&to=yesterday");
    await page.getByRole("alert").filter({ hasText: "Enter both dates as real days (YYYY-MM-DD). Showing the last 30 days." }).waitFor();
  });
});
