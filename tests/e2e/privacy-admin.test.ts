import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { savedAddresses, testPaymentSessions, user } from "~/server/platform/db/schema";
import { openCheckout } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { asAdmin, createSession, makeCustomer } from "../factories/users";
import { E2E_AUTH_SECRET, useShop } from "./harness";
import { hydrated, open, seeToast, unique } from "./page-helpers";

/**
 * The owner's side of personal-data requests in the browser (docs/rules/personal-data.md, The
 * owner's side): for a request that came by mail, the admin downloads a customer's ZIP from the
 * customer page, erases the account through the confirmation that names what goes and what stays,
 * and finds both in the privacy log.
 */

const shop = useShop({ pageTimeout: 30_000 });

/** data.json of a downloaded ZIP. */
function dataJson(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error("no zip"));
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName !== "data.json") return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error("no stream"));
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        });
      });
      zip.on("end", () => reject(new Error("no data.json in the ZIP")));
      zip.readEntry();
    });
  });
}

describe("the admin answers a personal-data request that came by mail", () => {
  it("exports the customer's ZIP, erases the account through the confirmation, and the privacy log shows both", async () => {
    const family = unique("Erasable").replace(" ", "");
    const customer = await makeCustomer(shop.db, { firstName: "Rowan", lastName: family });
    await createSession(shop.db, customer.id, E2E_AUTH_SECRET);
    await shop.db.insert(savedAddresses).values({ userId: customer.id, firstName: "Rowan", lastName: family, address: "1 Mill Lane", city: "Leeds", state: "WY", zipCode: "LS1 1AA", country: "GB" });
    const product = await makeProduct(shop.db, { name: unique("Erased Shopper Throw"), stockQuantity: 20 });
    const checkout = await openCheckout(shop.db, [[product, 1]], { userId: customer.id, form: { email: customer.email, firstName: "Rowan", lastName: family } });
    await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: `test_pi_${checkout.sessionId.slice(0, 8)}` }).where(eq(testPaymentSessions.id, checkout.sessionId));
    expect((await confirmPayment(shop.db, checkout.sessionId)).state).toBe("paid");
    // The paid order's address joins the account's book in a job after the payment: wait for it.
    const addressCount = async () => (await shop.db.select({ id: savedAddresses.id }).from(savedAddresses).where(eq(savedAddresses.userId, customer.id))).length;
    await expect.poll(addressCount, { timeout: 20_000 }).toBe(2);

    const admin = await asAdmin(shop);
    await open(admin, `/admin/customers?q=${encodeURIComponent(customer.email)}`);
    await admin.getByRole("table").getByRole("link", { name: `Rowan ${family}` }).click();
    await admin.getByRole("heading", { level: 1, name: `Rowan ${family}` }).waitFor();
    const customerUrl = admin.url();

    // 'Export data': the customer's own ZIP, kept on the customer page.
    const [download] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("link", { name: "Export data" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^customer-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const json = await dataJson((await download.path())!);
    expect(json).toContain(customer.email);
    expect(admin.url()).toBe(customerUrl);

    // 'Erase': the confirmation names what goes and what stays before anything happens.
    const eraseButton = admin.getByRole("button", { name: "Erase", exact: true });
    await hydrated(admin, eraseButton);
    await eraseButton.click();
    const dialog = admin.getByRole("alertdialog", { name: "Erase this customer's personal data?" });
    await dialog.waitFor();
    const goes = (await dialog.getByRole("list", { name: "What goes" }).getByRole("listitem").allTextContents()).map((t) => t.trim());
    expect(goes).toEqual([
      "The account, its sign-in and 1 session",
      // The one above, and the paid order's, which the shop saves to the account after the payment.
      "2 saved addresses",
      "The saved cart (0 items)",
      "Two-factor secrets",
      "The newsletter entry (none)",
      "Contact messages, one-time links, never-paid checkouts and copies of mails to this address",
    ]);
    const stays = await dialog.getByRole("list", { name: "What stays" }).innerText();
    expect(stays).toMatch(/^1 order, detached from the account and kept as the shop's records until \d{4}-\d{2}-\d{2}; then their personal details are erased too\.$/);
    await dialog.getByRole("group", { name: "Reviews (0)" }).getByLabel("Keep them, signed 'A customer'").check();
    await dialog.getByRole("button", { name: "Erase now" }).click();

    await seeToast(admin, "The customer's personal data has been erased.");
    await admin.waitForURL((url) => url.pathname === "/admin/customers");
    expect(await shop.db.select({ id: user.id }).from(user).where(eq(user.id, customer.id))).toEqual([]);

    // The account is gone from the list; its paid order stays, listed as a guest's.
    await open(admin, `/admin/customers?q=${encodeURIComponent(customer.email)}`);
    const rows = admin.getByRole("table").getByRole("row");
    await expect.poll(() => rows.count()).toBe(2);
    const cells = (await rows.nth(1).getByRole("cell").allTextContents()).map((c) => c.trim());
    expect(cells.slice(1, 4)).toEqual([customer.email, "Guest", "1"]);

    // The privacy log: both, newest first, naming the admin and whose, without the erased data.
    await admin.getByRole("navigation", { name: "Upkeep" }).getByRole("link", { name: "Privacy log" }).click();
    await admin.getByRole("heading", { level: 1, name: "Privacy log" }).waitFor();
    const log = admin.getByRole("table", { name: "Exports and erasures of personal data, newest first" });
    const mine = log.getByRole("row").filter({ hasText: `user:${customer.id}` });
    await expect.poll(() => mine.count()).toBe(2);
    const whatWho = async (i: number) => (await mine.nth(i).getByRole("cell").allTextContents()).slice(1, 4).map((c) => c.trim());
    expect(await whatWho(0)).toEqual(["Account erased", admin.user.email, `user:${customer.id}`]);
    expect(await whatWho(1)).toEqual(["Data exported", admin.user.email, `user:${customer.id}`]);
    expect(await log.innerText()).not.toContain(customer.email);
  });
});
