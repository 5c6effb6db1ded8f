import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { openCheckout } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { asAdmin, makeCustomer } from "../factories/users";
import { useShop } from "./harness";
import { open, seeToast } from "./page-helpers";

const shop = useShop();

/** A paid order through the real checkout, confirmed as the test provider would. */
async function paidOrder(email: string, priceCents: number, names: { firstName: string; lastName: string }, userId: string | null = null) {
  const product = await makeProduct(shop.db, { priceCents, stockQuantity: 20 });
  const checkout = await openCheckout(shop.db, [[product, 1]], { userId, form: { email, ...names } });
  await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_e2e" }).where(eq(testPaymentSessions.id, checkout.sessionId));
  expect((await confirmPayment(shop.db, checkout.sessionId)).state).toBe("paid");
  return checkout;
}

describe("admin customers", () => {
  it("lists, finds with a typo, sorts, opens a customer and its order, exports the CSV and sends a password reset", async () => {
    // A family name no other test uses, made of letters so a typo in it can be matched.
    const family = `Quartz${randomBytes(3).toString("hex").replace(/\d/g, "q")}`;
    const wilhelmina = await makeCustomer(shop.db, { firstName: "Wilhelmina", lastName: family, verified: false });
    const order = await paidOrder(wilhelmina.email, 8950, { firstName: "Wilhelmina", lastName: family }, wilhelmina.id);
    const barnabyEmail = `barnaby.${family.toLowerCase()}@example.test`;
    // One guest whatever the case of the address; the list shows it as the latest order gave it.
    await paidOrder(barnabyEmail.toUpperCase(), 12_000, { firstName: "Barnaby", lastName: family });
    await paidOrder(barnabyEmail, 3000, { firstName: "Barnaby", lastName: family });
    const cedric = await makeCustomer(shop.db, { firstName: "Cedric", lastName: family });

    const admin = await asAdmin(shop);
    const errors: string[] = [];
    admin.on("pageerror", (e) => errors.push(e.message));
    await open(admin, "/admin/customers");
    await admin.getByRole("heading", { level: 1, name: "Customers" }).waitFor();
    expect(await admin.title()).toBe("Customers — Admin");
    const table = admin.getByRole("table");
    await table.getByRole("columnheader", { name: "Total spent" }).waitFor();
    expect(await table.getByRole("columnheader", { name: "Last order (UTC)" }).getAttribute("aria-sort")).toBe("descending");

    // A typo in both words still finds her.
    const misspelt = `Wilhelmna ${family.slice(0, 3)}${family.slice(4)}`;
    await admin.getByLabel("Search customers").fill(misspelt);
    await admin.getByRole("button", { name: "Search" }).click();
    await admin.waitForURL((u) => u.searchParams.get("q") === misspelt);
    const rows = table.getByRole("row");
    await expect.poll(() => rows.count()).toBe(2);
    const cells = (await rows.nth(1).getByRole("cell").allTextContents()).map((c) => c.trim());
    expect(cells.slice(0, 5)).toEqual([`Wilhelmina ${family}`, wilhelmina.email, "Account", "1", "$89.50"]);
    expect(cells[6]).toBe("No");

    // Everyone of the family, sorted by total spent: biggest first, then the other way.
    await admin.getByLabel("Search customers").fill(family);
    await admin.getByRole("button", { name: "Search" }).click();
    await admin.waitForURL((u) => u.searchParams.get("q") === family);
    await expect.poll(() => rows.count()).toBe(4);
    await table.getByRole("link", { name: "Total spent" }).click();
    await admin.waitForURL((u) => u.searchParams.get("sort") === "spent" && u.searchParams.get("dir") === "desc");
    const names = () => table.locator("tbody tr td:first-child").allTextContents();
    // The list before the sort can already be in this order: wait for the sorted header too.
    const totalSort = () => table.getByRole("columnheader", { name: "Total spent" }).getAttribute("aria-sort");
    await expect.poll(totalSort).toBe("descending");
    await expect.poll(names).toEqual([`Barnaby ${family}`, `Wilhelmina ${family}`, `Cedric ${family}`]);
    expect(await table.getByRole("columnheader", { name: "Last order (UTC)" }).getAttribute("aria-sort")).toBe("none");
    await expect.poll(() => rows.nth(1).getByRole("cell").nth(4).textContent()).toBe("$150.00");
    await table.getByRole("link", { name: "Total spent" }).click();
    await admin.waitForURL((u) => u.searchParams.get("dir") === "asc");
    await expect.poll(totalSort).toBe("ascending");
    await expect.poll(names).toEqual([`Cedric ${family}`, `Wilhelmina ${family}`, `Barnaby ${family}`]);
    expect(await admin.getByRole("status").filter({ hasText: "customers match" }).textContent()).toContain("3 customers match");

    // The export carries the search and the sort: the same three, in the same order.
    const [download] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("link", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await download.path())!, "utf8").trimEnd().split("\r\n");
    expect(csv[0]).toBe("name,email,type,orders,total_spent,refunded,net_spent,last_order_at,newsletter,first_order_at,customer_since");
    expect(csv.slice(1).map((l) => l.split(",").slice(0, 5).join(","))).toEqual([
      `"Cedric ${family}","${cedric.email}","account","0","0.00"`,
      `"Wilhelmina ${family}","${wilhelmina.email}","account","1","89.50"`,
      `"Barnaby ${family}","${barnabyEmail}","guest","2","150.00"`,
    ]);

    // Her page: profile, the order (a link to the admin order), and the account actions.
    await table.getByRole("link", { name: `Wilhelmina ${family}` }).click();
    await admin.getByRole("heading", { level: 1, name: `Wilhelmina ${family}` }).waitFor();
    await admin.getByText("Email confirmed").waitFor();
    await admin.getByText("Not subscribed").waitFor();
    await admin.getByText("1 Linen Lane").waitFor();
    await admin.getByRole("button", { name: "Send password reset email" }).click();
    await seeToast(admin, `Password reset email sent to ${wilhelmina.email}.`);
    await admin.getByRole("button", { name: "Resend confirmation email" }).click();
    await seeToast(admin, `Confirmation email sent to ${wilhelmina.email}.`);
    // The shop sends them after answering: the outbox gets both soon after.
    const accountMails = async () =>
      (await shop.db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.to, wilhelmina.email)))
        .map((m) => m.kind)
        .filter((k) => k !== "order-confirmation")
        .sort();
    await expect.poll(accountMails).toEqual(["email-verification", "password-reset"]);

    await admin.getByRole("link", { name: order.orderNumber }).click();
    await admin.getByRole("heading", { name: `Order ${order.orderNumber}` }).waitFor();
    expect(new URL(admin.url()).pathname).toBe(`/admin/orders/${order.orderId}`);

    // Addresses that name no customer: the not-found page, with 404.
    for (const bad of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const res = await admin.goto(`/admin/customers/${bad}`);
      expect(res?.status()).toBe(404);
      await admin.getByText("Page not found").waitFor();
    }
    expect(errors).toEqual([]);
  });

  it("says so when nobody matches", async () => {
    const admin = await asAdmin(shop);
    await open(admin, "/admin/customers?q=zzqqxxjj");
    await admin.getByText("No customers match “zzqqxxjj”.", { exact: false }).waitFor();
    expect(await admin.getByRole("table").count()).toBe(0);
  });
});
