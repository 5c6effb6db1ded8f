import { eq, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { REMINDER_SETTING_KEY } from "~/lib/abandoned-checkout";
import { mailOptOuts, mailOutbox, newsletterSubscriptions, orders, products, siteSettings } from "~/server/platform/db/schema";
import { resetEnvCache } from "~/server/platform/env.server";
import { sendCheckoutReminders } from "~/server/commerce/reminders/checkout-reminders.server";
import { makeProduct } from "../factories/products";
import { asAdmin } from "../factories/users";
import { E2E_AUTH_SECRET, useShop } from "./harness";
import { hydrated, open, seeToast, slow } from "./page-helpers";
import { addToCart, checkoutForm, fillShipping } from "./shopper-steps";

const shop = useShop();

/**
 * The reminder's task, run by this test process against the shop's database as the shop would
 * run it (its public address and auth secret, so the mail's signed links work on that shop).
 */
async function runReminderTask() {
  const saved = { url: process.env.PUBLIC_URL, secret: process.env.BETTER_AUTH_SECRET };
  process.env.PUBLIC_URL = shop.baseUrl;
  process.env.BETTER_AUTH_SECRET = E2E_AUTH_SECRET;
  resetEnvCache();
  try {
    return await sendCheckoutReminders(shop.db);
  } finally {
    process.env.PUBLIC_URL = saved.url;
    process.env.BETTER_AUTH_SECRET = saved.secret;
    resetEnvCache();
  }
}

afterEach(() => resetEnvCache());

/** The links in the text part of the mail with this subject to `to`, as /admin/outbox shows them. */
async function mailLinks(admin: Page, to: string, subject: string) {
  await open(admin, "/admin/outbox");
  await admin.getByRole("row").filter({ hasText: to }).getByRole("link", { name: subject }).click();
  await admin.getByRole("heading", { name: subject }).waitFor();
  const href = async (pattern: RegExp) => (await admin.getByRole("link", { name: pattern }).first().getAttribute("href"))!;
  return { cart: await href(/\/cart\/restore\?/), unsubscribe: await href(/\/unsubscribe\?/) };
}

describe("the abandoned-checkout reminder in the browser", () => {
  it("the owner turns it on; a guest ticks 'Email me about my order' and leaves the payment unpaid; once the address is a confirmed subscriber the reminder goes, and its links refill the cart and unsubscribe", async () => {
    const duvet = await makeProduct(shop.db, { name: "Reminder Duvet Cover", priceCents: 14800, stockQuantity: 10 });
    const pillow = await makeProduct(shop.db, { name: "Reminder Pillowcase", priceCents: 3500, stockQuantity: 10 });

    // Site Settings → Emails: on, 2 hours after the checkout.
    const admin = slow(await asAdmin(shop));
    await open(admin, "/admin/site-settings");
    await admin.getByRole("tab", { name: "Emails" }).click();
    const card = admin.getByRole("form", { name: "Abandoned-checkout reminder" });
    await hydrated(admin, card);
    expect(await card.getByLabel("Send the abandoned-checkout reminder").isChecked()).toBe(false);
    await card.getByLabel("Hours after the checkout").fill("0");
    await card.getByRole("button", { name: "Save reminder" }).click();
    await card.getByText("Enter a whole number of hours from 1 to 72.").first().waitFor();
    await card.getByLabel("Send the abandoned-checkout reminder").check();
    await card.getByLabel("Hours after the checkout").fill("2");
    await card.getByRole("button", { name: "Save reminder" }).click();
    await seeToast(admin, "Reminder on: it goes out 2 hours after an unpaid checkout.");

    // A guest checks out with the box ticked and never pays.
    const guest = slow(await shop.newPage());
    const errors: string[] = [];
    guest.on("pageerror", (e) => errors.push(e.message));
    const email = `reminded-${Date.now()}@example.test`;
    await addToCart(guest, duvet.id, duvet.name);
    await addToCart(guest, pillow.id, pillow.name);
    await open(guest, "/checkout");
    await fillShipping(guest, email);
    const box = checkoutForm(guest).getByLabel("Email me about my order");
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await guest.getByRole("button", { name: "Place Order" }).click();
    await guest.waitForURL(/\/pay\/test\/test_cs_/);
    const [order] = await shop.db.select().from(orders).where(eq(orders.email, email));
    expect(order).toMatchObject({ emailAboutOrder: true, paymentStatus: "unpaid" });

    // Not yet due: nothing. Three hours later (the order and the setting moved back in time): one mail.
    await runReminderTask();
    await shop.db.update(orders).set({ createdAt: sql`now() - interval '3 hours'` }).where(eq(orders.id, order!.id));
    await shop.db
      .update(siteSettings)
      .set({ settingValue: sql`jsonb_set(${siteSettings.settingValue}, '{enabledSince}', to_jsonb(to_json(now() - interval '1 day') #>> '{}'))` })
      .where(eq(siteSettings.settingKey, REMINDER_SETTING_KEY));
    // A guest's typed address has proved nothing: no reminder to it.
    expect(await runReminderTask()).toMatchObject({ reminded: 0 });
    // Once it confirmed a newsletter subscription (proved through that mail), the reminder goes, once.
    // Counted in the outbox, not by this run's answer: the shop's own ten-minute tick may be the
    // one that sends it, between the insert and this run (and commit just after it).
    await shop.db.insert(newsletterSubscriptions).values({ email, confirmedAt: sql`now()` });
    const reminders = async () => (await shop.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).filter((m) => m.subject.includes("cart is waiting"));
    await runReminderTask();
    await expect.poll(async () => (await reminders()).length, { timeout: 10_000 }).toBe(1);
    expect(await runReminderTask()).toMatchObject({ reminded: 0 });
    expect(await reminders()).toHaveLength(1);

    // The mail in /admin/outbox, and its links.
    const links = await mailLinks(admin, email, "Your Linen & Loft cart is waiting");
    await admin.getByText("1 × Reminder Duvet Cover").first().waitFor();
    expect(links.cart).toMatch(new RegExp(`^${shop.baseUrl}/cart/restore\\?o=${order!.orderNumber}&t=[A-Za-z0-9_-]{43}$`));
    expect(links.unsubscribe).toMatch(new RegExp(`^${shop.baseUrl}/unsubscribe\\?e=[^&]+&t=[A-Za-z0-9_-]{43}$`));

    // The cart link, in the guest's browser (whose cart was emptied for the payment page): the cart holds the lines.
    await guest.goto(links.cart);
    await guest.waitForURL(`${shop.baseUrl}/cart`);
    const items = guest.getByRole("list", { name: "Cart items" });
    await items.getByRole("link", { name: "Reminder Duvet Cover" }).waitFor();
    await items.getByRole("link", { name: "Reminder Pillowcase" }).waitFor();
    expect(await guest.getByRole("spinbutton", { name: "Quantity of Reminder Duvet Cover" }).inputValue()).toBe("1");
    // Following it again does not double the lines.
    await guest.goto(links.cart);
    await guest.waitForURL(`${shop.baseUrl}/cart`);
    await items.getByRole("link", { name: "Reminder Pillowcase" }).waitFor();
    expect(await guest.getByRole("spinbutton", { name: "Quantity of Reminder Duvet Cover" }).inputValue()).toBe("1");

    // On another device, after the pillowcase was withdrawn: the page says what could not go back.
    await shop.db.update(products).set({ active: false }).where(eq(products.id, pillow.id));
    const phone = slow(await shop.newPage());
    await phone.goto(links.cart);
    await phone.getByRole("list", { name: "Not added to your cart" }).getByText('"Reminder Pillowcase" is no longer available.').waitFor();
    await phone.getByRole("list", { name: "In your cart" }).getByText("1 × Reminder Duvet Cover").waitFor();
    await phone.getByRole("link", { name: "View your cart" }).click();
    await phone.getByRole("list", { name: "Cart items" }).getByRole("link", { name: "Reminder Duvet Cover" }).waitFor();

    // A tampered cart link: its message, not an error page.
    const tampered = await phone.goto(links.cart.replace(/.$/, (c) => (c === "A" ? "B" : "A")));
    expect(tampered?.status()).toBe(404);
    await phone.getByRole("heading", { name: "This link does not work" }).waitFor();
    await phone.getByText("This link does not open a cart.").waitFor();

    // Unsubscribe: opening the link changes nothing; the button does, without signing in.
    await open(guest, links.unsubscribe);
    await guest.getByRole("heading", { name: "Unsubscribe from reminders" }).waitFor();
    await guest.getByText(email).waitFor();
    expect(await shop.db.select().from(mailOptOuts).where(eq(mailOptOuts.emailKey, email))).toHaveLength(0);
    await guest.getByRole("button", { name: "Unsubscribe" }).click();
    await guest.getByRole("heading", { name: "Unsubscribed" }).waitFor();
    await guest.getByText("You're unsubscribed. We won't send reminders about unfinished checkouts to this address any more.").waitFor();
    expect(await shop.db.select().from(mailOptOuts).where(eq(mailOptOuts.emailKey, email))).toHaveLength(1);

    const badUnsubscribe = await guest.goto(links.unsubscribe.replace("reminded-", "someone-"));
    expect(badUnsubscribe?.status()).toBe(400);
    await guest.getByRole("heading", { name: "This link does not work" }).waitFor();
    expect(errors).toEqual([]);
  });
});
