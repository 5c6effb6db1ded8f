import { describe, expect, it, vi } from "vitest";
import { makeOrder } from "../factories/account-orders";
import { makeProducts } from "../factories/products";
import { asAdmin, asCustomer } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, slow } from "./page-helpers";

// Long walks through several dialogs on a machine shared with other test runs.
vi.setConfig({ testTimeout: 180_000 });

const ENTRIES = ["Dashboard", "Products", "Orders", "Discounts", "Blog", "Site Settings", "Shipping & Tax", "Analytics", "Customers", "Reports"];

describe("admin shell", () => {
  const shop = useShop();
  const adminPage = async () => slow(await asAdmin(shop));

  it("sends anonymous people to sign in and shows customers a 403 page", async () => {
    const anon = slow(await shop.newPage());
    await anon.goto("/admin/products");
    expect(new URL(anon.url()).pathname).toBe("/auth");
    expect(new URL(anon.url()).searchParams.get("redirectTo")).toBe("/admin/products");

    const customer = slow(await asCustomer(shop));
    const res = await customer.goto("/admin");
    expect(res?.status()).toBe(403);
    await customer.getByText("You don't have access to this page").waitFor();
    expect(await customer.getByText("Admin Panel").count()).toBe(0);
  });

  it("shows the 'Admin Panel' sidebar with every entry, the current one highlighted", async () => {
    const page = await adminPage();
    await page.goto("/admin");
    const nav = page.getByRole("navigation", { name: "Admin" });
    const links = await nav.getByRole("link").allInnerTexts();
    expect(links.map((l) => l.trim())).toEqual([...ENTRIES, "Outbox", "Inbox", "Newsletter", "Reviews", "Returns", "Pages"]);
    await expect(page.getByText("Admin Panel").first().isVisible()).resolves.toBe(true);
    expect(await nav.getByRole("link", { name: "Dashboard" }).getAttribute("aria-current")).toBe("page");

    await nav.getByRole("link", { name: "Products" }).click();
    await page.getByRole("heading", { name: "Product Management" }).waitFor();
    expect(await nav.getByRole("link", { name: "Products" }).getAttribute("aria-current")).toBe("page");
    expect(await nav.getByRole("link", { name: "Dashboard" }).getAttribute("aria-current")).toBeNull();
  });

  it("collapses to icons, remembers it in a session cookie (docs/rules/visitor-storage.md) and renders it collapsed on the server", async () => {
    const page = await adminPage();
    await page.goto("/admin");
    const sidebar = page.locator('[data-slot="sidebar"]').first();
    expect(await sidebar.getAttribute("data-state")).toBe("expanded");
    await page.getByRole("button", { name: "Toggle sidebar" }).first().click();
    expect(await sidebar.getAttribute("data-state")).toBe("collapsed");
    expect(await sidebar.getAttribute("data-collapsible")).toBe("icon");
    // 3rem wide when collapsed (after its 200 ms transition).
    await page.waitForFunction(() => document.querySelector('[data-slot="sidebar-container"]')?.getBoundingClientRect().width === 48);
    const cookie = (await page.context().cookies()).find((c) => c.name === "sidebar_state");
    expect(cookie?.value).toBe("false");
    // Kept only until the browser closes: a layout preference may not outlive the session.
    expect(cookie!.expires).toBe(-1);

    // The server's HTML already carries the collapsed state: no flash of an open sidebar.
    const html = await page.request.get("/admin").then((r) => r.text());
    expect(html).toMatch(/data-state="collapsed"/);

    // Ctrl+B toggles it back.
    await page.reload();
    await hydrated(page);
    await page.locator("body").click({ position: { x: 600, y: 400 } });
    await page.keyboard.press("Control+b");
    await page.waitForFunction(() => document.querySelector('[data-slot="sidebar"]')?.getAttribute("data-state") === "expanded");
    // 16rem wide when expanded.
    await page.waitForFunction(() => document.querySelector('[data-slot="sidebar-container"]')?.getBoundingClientRect().width === 256);
  });

  it("becomes an 18rem sheet below 768px", async () => {
    const page = await adminPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/admin");
    await hydrated(page);
    await page.getByRole("button", { name: "Toggle sidebar" }).first().click();
    const sheet = page.getByRole("dialog", { name: "Admin Panel" });
    await sheet.waitFor();
    const width = await sheet.evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBe(288);
    await sheet.getByRole("link", { name: "Products" }).click();
    await page.getByRole("heading", { name: "Product Management" }).waitFor();
    // No sideways scrolling at 360px.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it("shows the dashboard figures from products and paid orders, with the change figures", async () => {
    await makeProducts(shop.db, 4, (i) => ({ active: i !== 0 }));
    await makeOrder(shop.db, { paymentStatus: "paid", totalAmountCents: 12_345, paidAt: new Date() });
    await makeOrder(shop.db, { paymentStatus: "unpaid", totalAmountCents: 50_000 });
    const page = await adminPage();
    await page.goto("/admin");
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    const total = await shop.db.$client.query<{ n: number; a: number }>(
      "select count(*)::int n, (count(*) filter (where active))::int a from products",
    );
    expect(await page.getByTestId("stat-Total Products").innerText()).toBe(String(total.rows[0]!.n));
    expect(await page.getByTestId("stat-Active Products").innerText()).toBe(String(total.rows[0]!.a));
    expect(await page.getByTestId("stat-Total Orders").innerText()).toBe("1");
    expect(await page.getByTestId("stat-Revenue").innerText()).toBe("$123.45");
    // Everything here happened today: each change is "new" against an empty previous 30 days.
    for (const title of ["Total Products", "Active Products", "Total Orders", "Revenue"]) {
      expect(await page.getByTestId(`change-${title}`).innerText()).toMatch(/^new\s*— none in the previous 30 days$/);
    }
    expect(await page.getByTestId("meaning-Revenue").innerText()).toBe("Revenue: $123.45 in the last 30 days, $0.00 in the 30 before.");
    await page.getByText("Recent Activity").waitFor();
    await page.getByText(/^Order ORD-TEST-\w+ paid$/).waitFor();
  });

  it("leads each Quick Action somewhere useful", async () => {
    const page = await adminPage();
    await page.goto("/admin");
    await page.getByRole("link", { name: "Add New Product" }).click();
    await page.getByRole("dialog", { name: "Add Product" }).waitFor();
    expect(await page.getByLabel("Product Name").inputValue()).toBe("");
    await page.getByRole("button", { name: "Cancel" }).click();

    await page.goto("/admin");
    await page.getByRole("link", { name: "Import Products" }).click();
    await page.waitForURL(/tab=import/);
    expect(await page.getByRole("tab", { name: "Import Products" }).getAttribute("aria-selected")).toBe("true");

    await page.goto("/admin");
    await page.getByRole("link", { name: "View Analytics" }).click();
    await page.getByRole("heading", { level: 1, name: "Analytics" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/analytics");
  });

  it("has no placeholder pages left: Analytics, Customers and Reports are real", async () => {
    const page = await adminPage();
    for (const [path, heading] of [
      ["/admin/analytics", "Analytics"],
      ["/admin/customers", "Customers"],
      ["/admin/reports", "Reports"],
    ] as const) {
      const res = await page.goto(path);
      expect(res?.status()).toBe(200);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      expect(await page.title()).toMatch(/Admin/);
      expect(await page.locator("main").innerText()).not.toMatch(/Coming Soon/i);
    }
  });
});
