import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { REMINDER_SETTING_KEY } from "~/lib/abandoned-checkout";
import { action as checkoutAction } from "~/routes/resources/checkout";
import { loader as restoreLoader } from "~/routes/store/cart-restore";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/store/unsubscribe";
import { action as reminderSettingAction } from "~/routes/admin/site-settings-reminder";
import { loader as siteSettingsLoader } from "~/routes/admin/site-settings";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { createDatabase, type Database, type Db } from "~/server/platform/db/client.server";
import { mailOptOuts, mailOutbox, newsletterSubscriptions, orders, products, siteSettings, testPaymentSessions, user } from "~/server/platform/db/schema";
import { getPaymentProvider } from "~/server/commerce/payments/index.server";
import { sendCheckoutReminders } from "~/server/commerce/reminders/checkout-reminders.server";
import { cartRestorePath, unsubscribePath } from "~/server/commerce/reminders/reminder-links.server";
import { getReminderSetting, saveReminderSetting } from "~/server/commerce/reminders/reminder-setting.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { cartLines, checkoutRequest, shippingForm } from "../factories/orders";
import { makeProduct, type ProductRow } from "../factories/products";
import { makeAdmin, makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post, run } from "./accounts-helpers";
import { args, settle } from "./admin-catalog-helpers";

/**
 * The abandoned-checkout reminder (docs/rules/after-sale.md, The abandoned-checkout reminder):
 * who gets it and when, once only (also with two servers at once), the link back to the cart and
 * the unsubscribe link.
 */
const t = useTestDatabase();

const newEmail = (label = "shopper") => `${label}-${randomBytes(4).toString("hex")}@example.test`;

/**
 * Who placed a checkout: a signed-in customer whose account has that email, confirmed ("verified",
 * the default) or not, or a guest who typed it.
 */
type Placer = "verified" | "unverified" | "guest";

/** The account holding `email` (any case), made with it the first time. */
async function accountFor(db: Db, email: string, verified: boolean): Promise<string> {
  const [found] = await db.select({ id: user.id }).from(user).where(sql`lower(${user.email}) = lower(${email})`);
  return found?.id ?? (await makeCustomer(db, { email, verified })).id;
}

/** An unpaid checkout made by the real checkout, placed `hoursAgo` hours ago. */
async function checkout(
  db: Db,
  lines: [ProductRow, number][],
  opts: { email?: string; ticked?: boolean; hoursAgo?: number; firstName?: string; by?: Placer } = {},
) {
  const email = opts.email ?? newEmail();
  const by = opts.by ?? "verified";
  const userId = by === "guest" ? null : await accountFor(db, email, by === "verified");
  const result = await createCheckout(
    db,
    { lines: cartLines(...lines), form: shippingForm({ email, firstName: opts.firstName ?? "Casey" }), idempotencyKey: null, emailAboutOrder: opts.ticked ?? true },
    { userId, providers: onlyProvider(getPaymentProvider(db, "test")), baseUrl: "http://localhost:3000" },
  );
  if (!result.ok) throw new Error(`checkout refused: ${result.refusal.kind}`);
  await placedHoursAgo(db, result.orderId, opts.hoursAgo ?? 5);
  return { id: result.orderId, orderNumber: result.orderNumber, sessionId: result.sessionId, email };
}

const placedHoursAgo = (db: Db, orderId: string, hours: number) =>
  db.update(orders).set({ createdAt: sql`now() - make_interval(secs => ${Math.round(hours * 3600)})` }).where(eq(orders.id, orderId));

/** Turns the reminder on as if it had been on for a month (so aged test checkouts count). */
async function reminderOn(db: Db, hours = 4) {
  await saveReminderSetting(db, { enabled: true, hours });
  await db
    .update(siteSettings)
    .set({ settingValue: sql`jsonb_set(${siteSettings.settingValue}, '{enabledSince}', to_jsonb(to_json(now() - interval '30 days') #>> '{}'))` })
    .where(eq(siteSettings.settingKey, REMINDER_SETTING_KEY));
}

const reminders = (db: Db, to?: string) =>
  db
    .select()
    .from(mailOutbox)
    .where(to ? and(eq(mailOutbox.kind, "abandoned-checkout"), eq(mailOutbox.to, to)) : eq(mailOutbox.kind, "abandoned-checkout"));

async function reminderSentAt(db: Db, orderId: string) {
  const [row] = await db.select({ at: orders.reminderSentAt }).from(orders).where(eq(orders.id, orderId));
  return row!.at;
}

async function subscribe(db: Db, email: string, confirmed = true) {
  await db.insert(newsletterSubscriptions).values({ email, confirmedAt: confirmed ? sql`now()` : null });
}

async function pay(db: Db, sessionId: string) {
  await db.update(testPaymentSessions).set({ status: "paid", paymentReference: `test_pi_${randomBytes(3).toString("hex")}` }).where(eq(testPaymentSessions.id, sessionId));
  const outcome = await confirmPayment(db, sessionId);
  if (outcome.state !== "paid") throw new Error(`not paid: ${outcome.state}`);
}

const linkIn = (text: string, path: string) => {
  const m = new RegExp(`http://localhost:3000${path.replace(/[/?]/g, "\\$&")}\\S*`).exec(text);
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return m[0];
};

describe("'Email me about my order' at checkout", () => {
  it("is stored on the order when ticked, unticked when absent, and anything but true or false is refused with a message", async () => {
    const sheet = await makeProduct(t.db, { name: "Checkbox Sheet", priceCents: 2000 });
    const body = (extra: Record<string, unknown>) => ({ cartItems: cartLines([sheet, 1]), formData: shippingForm(), ...extra });
    const ticked = await checkoutAction({ request: checkoutRequest(body({ emailAboutOrder: true })) } as never);
    expect(ticked.status).toBe(200);
    const unticked = await checkoutAction({ request: checkoutRequest(body({})) } as never);
    expect(unticked.status).toBe(200);
    const rows = await t.db.select({ ticked: orders.emailAboutOrder }).from(orders);
    expect(rows.map((r) => r.ticked).sort()).toEqual([false, true]);

    for (const bad of ["yes", "on", 1, null, {}]) {
      const refused = await checkoutAction({ request: checkoutRequest(body({ emailAboutOrder: bad })) } as never);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "'Email me about my order' must be ticked or not (true or false)." });
    }
    expect(await t.db.select({ id: orders.id }).from(orders)).toHaveLength(2);
  });
});

describe("the reminder's run", () => {
  it("sends nothing while the setting is off (the default)", async () => {
    const quilt = await makeProduct(t.db, { name: "Off Quilt", priceCents: 9000 });
    const order = await checkout(t.db, [[quilt, 1]], { ticked: true, hoursAgo: 6 });
    expect((await getReminderSetting(t.db)).enabled).toBe(false);
    expect(await sendCheckoutReminders(t.db)).toEqual({ reminded: 0, covered: 0 });
    expect(await reminders(t.db, order.email)).toHaveLength(0);
    expect(await reminderSentAt(t.db, order.id)).toBeNull();
  });

  it("mails a shopper who ticked the box once, the chosen hours after the checkout: the lines, the cart link and the unsubscribe link", async () => {
    await reminderOn(t.db, 4);
    const duvet = await makeProduct(t.db, { name: "Stonewashed Duvet", priceCents: 14800, imageUrl: "https://images.example.test/duvet.jpg" });
    const pillow = await makeProduct(t.db, { name: "Percale Pillowcase", priceCents: 3500 });
    const early = await checkout(t.db, [[duvet, 1]], { ticked: true, hoursAgo: 3.9 });
    const order = await checkout(t.db, [[duvet, 1], [pillow, 2]], { ticked: true, hoursAgo: 4.1, firstName: "Alex" });

    await sendCheckoutReminders(t.db);
    expect(await reminders(t.db, early.email)).toHaveLength(0);
    const [mail, ...more] = await reminders(t.db, order.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe("Your Linen & Loft cart is waiting");
    expect(mail!.text).toContain("Hello Alex, you left a few things at checkout.");
    expect(mail!.text).toContain("1 × Stonewashed Duvet");
    expect(mail!.text).toContain("2 × Percale Pillowcase");
    expect(mail!.text).toContain(`Return to your cart: http://localhost:3000${cartRestorePath(order)}`);
    expect(mail!.text).toContain(`Unsubscribe (no sign-in needed): http://localhost:3000${unsubscribePath(order.email)}`);
    expect(mail!.text).toContain("because you ticked 'Email me about my order'");
    expect(mail!.html).toContain("https://images.example.test/duvet.jpg");
    expect(mail!.html).toContain(cartRestorePath(order).replace(/&/g, "&amp;"));
    expect(await reminderSentAt(t.db, order.id)).not.toBeNull();

    // Later runs send nothing more for it; the early one comes due once its hours have passed.
    await sendCheckoutReminders(t.db);
    expect(await reminders(t.db, order.email)).toHaveLength(1);
    await placedHoursAgo(t.db, early.id, 4.2);
    await sendCheckoutReminders(t.db);
    expect(await reminders(t.db, early.email)).toHaveLength(1);
  });

  it("goes only to an address that proved itself: a guest's typed address gets none, even ticked; a signed-in customer's confirmed account address does", async () => {
    await reminderOn(t.db, 4);
    const rug = await makeProduct(t.db, { name: "Proof Rug", priceCents: 7000 });
    const guest = await checkout(t.db, [[rug, 1]], { ticked: true, by: "guest" });
    const unconfirmed = await checkout(t.db, [[rug, 1]], { ticked: true, by: "unverified" });
    // Signed in, but the checkout names someone else's address: that address proved nothing.
    const customer = await makeCustomer(t.db);
    const typedForOther = newEmail("other");
    const otherResult = await createCheckout(
      t.db,
      { lines: cartLines([rug, 1]), form: shippingForm({ email: typedForOther }), idempotencyKey: null, emailAboutOrder: true },
      { userId: customer.id, providers: onlyProvider(getPaymentProvider(t.db, "test")), baseUrl: "http://localhost:3000" },
    );
    if (!otherResult.ok) throw new Error("checkout refused");
    await placedHoursAgo(t.db, otherResult.orderId, 5);
    const verified = await checkout(t.db, [[rug, 1]], { ticked: true, by: "verified" });
    // A guest who confirmed a newsletter subscription proved the address through that mail.
    const subscriber = await checkout(t.db, [[rug, 1]], { ticked: true, by: "guest" });
    await subscribe(t.db, subscriber.email, true);

    await sendCheckoutReminders(t.db);
    expect(await reminders(t.db, guest.email)).toHaveLength(0);
    expect(await reminders(t.db, unconfirmed.email)).toHaveLength(0);
    expect(await reminders(t.db, typedForOther)).toHaveLength(0);
    expect(await reminders(t.db, verified.email)).toHaveLength(1);
    expect(await reminders(t.db, subscriber.email)).toHaveLength(1);
    expect(await reminderSentAt(t.db, guest.id)).toBeNull();
  });

  it("without the box: only a confirmed newsletter subscriber gets it", async () => {
    await reminderOn(t.db, 4);
    const throw_ = await makeProduct(t.db, { name: "Waffle Throw", priceCents: 6000 });
    const nobody = await checkout(t.db, [[throw_, 1]], { ticked: false });
    const waiting = await checkout(t.db, [[throw_, 1]], { ticked: false });
    await subscribe(t.db, waiting.email, false);
    const subscriber = await checkout(t.db, [[throw_, 1]], { ticked: false });
    // The list compares addresses without case.
    await subscribe(t.db, subscriber.email.toUpperCase(), true);

    await sendCheckoutReminders(t.db);
    expect(await reminders(t.db, nobody.email)).toHaveLength(0);
    expect(await reminders(t.db, waiting.email)).toHaveLength(0);
    const [mail] = await reminders(t.db, subscriber.email);
    expect(mail!.text).toContain("because you subscribe to our newsletter");
    expect(await reminderSentAt(t.db, nobody.id)).toBeNull();
  });

  it("skips an address that opted out, one that has paid an order since, checkouts too old and those placed before the reminder was turned on", async () => {
    await reminderOn(t.db, 4);
    const sheet = await makeProduct(t.db, { name: "Skip Sheet", priceCents: 4000, stockQuantity: 50 });

    const optedOut = await checkout(t.db, [[sheet, 1]]);
    await t.db.insert(mailOptOuts).values({ emailKey: optedOut.email.toLowerCase() });

    const paidSince = await checkout(t.db, [[sheet, 1]], { hoursAgo: 6 });
    const later = await checkout(t.db, [[sheet, 1]], { email: paidSince.email, hoursAgo: 5 });
    await pay(t.db, later.sessionId);

    // A purchase before the checkout does not count as "paid since".
    const paidBefore = await checkout(t.db, [[sheet, 1]], { hoursAgo: 10 });
    await pay(t.db, paidBefore.sessionId);
    await t.db.update(orders).set({ paidAt: sql`now() - interval '9 hours'` }).where(eq(orders.id, paidBefore.id));
    const afterPaying = await checkout(t.db, [[sheet, 1]], { email: paidBefore.email, hoursAgo: 6 });

    const tooOld = await checkout(t.db, [[sheet, 1]], { hoursAgo: 7 * 24 + 1 });

    await sendCheckoutReminders(t.db);
    expect(await reminders(t.db, optedOut.email)).toHaveLength(0);
    expect(await reminders(t.db, paidSince.email)).toHaveLength(0);
    expect(await reminders(t.db, tooOld.email)).toHaveLength(0);
    expect(await reminders(t.db, paidBefore.email)).toHaveLength(1);
    expect(await reminderSentAt(t.db, afterPaying.id)).not.toBeNull();

    // Turned off and on again now: checkouts placed while it was off get nothing.
    await saveReminderSetting(t.db, { enabled: false, hours: 4 });
    const whileOff = await checkout(t.db, [[sheet, 1]], { hoursAgo: 5 });
    await saveReminderSetting(t.db, { enabled: true, hours: 4 });
    await sendCheckoutReminders(t.db);
    expect(await reminders(t.db, whileOff.email)).toHaveLength(0);
  });

  it("reminds a declined or lapsed checkout too, and an address once for several checkouts: about the newest; another within a week is covered without a mail", async () => {
    await reminderOn(t.db, 2);
    await sendCheckoutReminders(t.db); // what earlier tests left due
    const a = await makeProduct(t.db, { name: "First Try Blanket", priceCents: 5000 });
    const b = await makeProduct(t.db, { name: "Second Try Blanket", priceCents: 5500 });
    const email = newEmail("retry");
    const first = await checkout(t.db, [[a, 1]], { email, hoursAgo: 3 });
    await t.db.update(orders).set({ paymentStatus: "failed", status: "cancelled" }).where(eq(orders.id, first.id));
    const second = await checkout(t.db, [[b, 1]], { email: email.toUpperCase(), hoursAgo: 2.5 });
    await t.db.update(orders).set({ paymentStatus: "expired", status: "cancelled" }).where(eq(orders.id, second.id));

    expect(await sendCheckoutReminders(t.db)).toMatchObject({ reminded: 1 });
    const mails = await reminders(t.db, email.toUpperCase());
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("Second Try Blanket");
    expect(mails[0]!.text).not.toContain("First Try Blanket");
    const sentAt = await reminderSentAt(t.db, second.id);
    expect(await reminderSentAt(t.db, first.id)).toEqual(sentAt);

    // A third checkout of the same address, due an hour later: no second mail within the week,
    // and it carries the first reminder's time (the quiet week is not prolonged).
    const third = await checkout(t.db, [[a, 1]], { email, hoursAgo: 0.5 });
    await placedHoursAgo(t.db, third.id, 2.1);
    expect(await sendCheckoutReminders(t.db)).toMatchObject({ reminded: 0, covered: 1 });
    expect(await reminders(t.db, email)).toHaveLength(0);
    expect(await reminders(t.db, email.toUpperCase())).toHaveLength(1);
    expect(await reminderSentAt(t.db, third.id)).toEqual(sentAt);
  });

  it("two servers running at once send each reminder once", async () => {
    await reminderOn(t.db, 4);
    await sendCheckoutReminders(t.db); // what earlier tests left due
    const p = await makeProduct(t.db, { name: "Race Sheet", priceCents: 3000, stockQuantity: 100 });
    const made = [];
    for (let i = 0; i < 6; i++) made.push(await checkout(t.db, [[p, 1]], { hoursAgo: 5 }));
    const servers: Database[] = [createDatabase(t.url, 3), createDatabase(t.url, 3)];
    try {
      const runs = await Promise.all([...servers, ...servers].map((db) => sendCheckoutReminders(db)));
      expect(runs.reduce((n, r) => n + r.reminded, 0)).toBe(6);
    } finally {
      await Promise.all(servers.map((db) => db.$client.end()));
    }
    for (const o of made) expect(await reminders(t.db, o.email)).toHaveLength(1);
  });
});

describe("the link back to the cart", () => {
  const restore = (path: string) => run(restoreLoader, get(path));

  it("answers the checkout's lines as the shop sells them now, and says what changed or cannot go back", async () => {
    const sheet = await makeProduct(t.db, { name: "Restore Sheet", priceCents: 4000, stockQuantity: 10 });
    const towel = await makeProduct(t.db, { name: "Restore Towel", priceCents: 1500 });
    const pillow = await makeProduct(t.db, { name: "Restore Pillow", priceCents: 3000, stockQuantity: 10 });
    const order = await checkout(t.db, [[sheet, 2], [towel, 1], [pillow, 5]]);

    const page = await restore(cartRestorePath(order));
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(page.data.result.added).toEqual([
      expect.objectContaining({ id: pillow.id, name: "Restore Pillow", quantity: 5, notes: [] }),
      expect.objectContaining({ id: sheet.id, name: "Restore Sheet", quantity: 2, priceCents: 4000, notes: [] }),
      expect.objectContaining({ id: towel.id, quantity: 1, notes: [] }),
    ]);

    // Since then: the towel is withdrawn, the sheet costs more, only 3 pillows are left.
    await t.db.update(products).set({ active: false }).where(eq(products.id, towel.id));
    await t.db.update(products).set({ priceCents: 4500 }).where(eq(products.id, sheet.id));
    await t.db.update(products).set({ stockQuantity: 3 }).where(eq(products.id, pillow.id));
    const later = await restore(cartRestorePath(order));
    expect(later.data.result.added).toEqual([
      expect.objectContaining({ id: pillow.id, quantity: 3, maxQuantity: 3, notes: ["Only 3 left in stock (your checkout had 5)."] }),
      expect.objectContaining({ id: sheet.id, quantity: 2, priceCents: 4500, notes: ["Now $45.00 (it was $40.00)."] }),
    ]);
    expect(later.data.result.skipped).toEqual([{ name: "Restore Towel", reason: '"Restore Towel" is no longer available.' }]);
  });

  it("refuses a tampered link, another order's token, a guessed number and a missing token alike, with its message and no error", async () => {
    const sheet = await makeProduct(t.db, { name: "Signed Sheet", priceCents: 4000 });
    const mine = await checkout(t.db, [[sheet, 1]]);
    const other = await checkout(t.db, [[sheet, 1]]);
    const good = new URL(cartRestorePath(mine), "http://localhost:3000");
    const token = good.searchParams.get("t")!;
    const flipped = token.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    const otherToken = new URL(cartRestorePath(other), "http://localhost:3000").searchParams.get("t")!;
    for (const path of [
      `/cart/restore?o=${mine.orderNumber}&t=${flipped}`,
      `/cart/restore?o=${mine.orderNumber}&t=${otherToken}`,
      `/cart/restore?o=${mine.orderNumber}&t=${token.slice(0, 42)}`,
      `/cart/restore?o=LL-20200101-ZZZZ&t=${token}`,
      `/cart/restore?o=${mine.orderNumber}`,
      `/cart/restore`,
      `/cart/restore?o=${"x".repeat(5000)}&t=${token}`,
    ]) {
      const page = await restore(path);
      expect(page.status, path).toBe(404);
      expect(page.data, path).toEqual({ ok: false });
    }
  });
});

describe("the unsubscribe link", () => {
  const openLink = (path: string) => run(unsubscribeLoader, get(path));
  const press = (path: string, fields: Record<string, string>) => run(unsubscribeAction, post(path, fields));

  it("a tampered link is refused with a message and changes nothing; the good one shows a button, and pressing it stops every further reminder", async () => {
    await reminderOn(t.db, 4);
    const sheet = await makeProduct(t.db, { name: "Unsubscribe Sheet", priceCents: 4000, stockQuantity: 20 });
    const email = newEmail("Opt.Out");
    const path = unsubscribePath(email);
    const token = new URL(path, "http://localhost:3000").searchParams.get("t")!;

    for (const [e, tok] of [
      [email, token.replace(/.$/, (c) => (c === "A" ? "B" : "A"))],
      [newEmail("someone-else"), token],
      [email, ""],
      ["", token],
    ] as const) {
      const shown = await openLink(`/unsubscribe?e=${encodeURIComponent(e)}&t=${tok}`);
      expect(shown.status).toBe(400);
      expect(shown.data).toMatchObject({ valid: false });
      const pressed = await press("/unsubscribe", { e, t: tok });
      expect(pressed.status).toBe(400);
      expect(pressed.data).toMatchObject({ ok: false, message: expect.stringContaining("This unsubscribe link is not valid.") });
    }
    expect(await t.db.select().from(mailOptOuts).where(eq(mailOptOuts.emailKey, email.toLowerCase()))).toHaveLength(0);

    // Opening the link (as a mail scanner does) unsubscribes nobody.
    const shown = await openLink(path);
    expect(shown.status).toBe(200);
    expect(shown.data).toMatchObject({ valid: true, email, optedOut: false });
    expect(await t.db.select().from(mailOptOuts)).not.toContainEqual(expect.objectContaining({ emailKey: email.toLowerCase() }));

    const pressed = await press("/unsubscribe", { e: email, t: token });
    expect(pressed.status).toBe(200);
    expect(pressed.data).toMatchObject({ ok: true, message: expect.stringContaining("You're unsubscribed.") });
    // Twice is fine; the page then says so without a button.
    expect((await press("/unsubscribe", { e: email, t: token })).status).toBe(200);
    expect((await openLink(path)).data).toMatchObject({ valid: true, optedOut: true });
    expect(await t.db.select().from(mailOptOuts).where(eq(mailOptOuts.emailKey, email.toLowerCase()))).toHaveLength(1);

    // The address in any case gets no reminder any more, ticked box or not.
    const order = await checkout(t.db, [[sheet, 1]], { email: email.toUpperCase(), ticked: true });
    await sendCheckoutReminders(t.db);
    expect(await reminders(t.db, email.toUpperCase())).toHaveLength(0);
    expect(await reminderSentAt(t.db, order.id)).toBeNull();
  });

  it("a mail program's one-click unsubscribe (RFC 8058) posts to the link itself", async () => {
    const email = newEmail("one-click");
    const path = unsubscribePath(email);
    const pressed = await press(path, { "List-Unsubscribe": "One-Click" });
    expect(pressed.status).toBe(200);
    expect(await t.db.select().from(mailOptOuts).where(eq(mailOptOuts.emailKey, email.toLowerCase()))).toHaveLength(1);
  });
});

describe("the setting in Site Settings → Emails", () => {
  const save = async (as: { id: string } | null, fields: Record<string, string>) => {
    const request = await requestAs(t.db, as, "/admin/site-settings/reminder", { method: "POST", body: new URLSearchParams(fields) });
    const out = await settle(() => reminderSettingAction(args(request)));
    return { ...out, body: out.status === 200 || out.status === 400 ? JSON.parse(out.body as string) : out.body };
  };

  it("is for admins only, refuses hours outside 1–72 with the field's message, and saves on/off and the hours", async () => {
    const admin = await makeAdmin(t.db);
    const customer = await makeCustomer(t.db);
    expect((await save(null, { "reminder.enabled": "on", "reminder.hours": "4" })).status).toBe(302);
    expect((await save(customer, { "reminder.enabled": "on", "reminder.hours": "4" })).status).toBe(403);

    const message = "Enter a whole number of hours from 1 to 72.";
    for (const hours of ["0", "73", "4.5", "-1", "", "four", "1e1", "9999"]) {
      const refused = await save(admin, { "reminder.enabled": "on", "reminder.hours": hours });
      expect(refused.status, hours).toBe(400);
      expect(refused.body, hours).toEqual({ ok: false, message, fieldErrors: { "reminder.hours": message } });
    }
    const odd = await save(admin, { "reminder.enabled": "maybe", "reminder.hours": "4" });
    expect(odd.status).toBe(400);
    expect(odd.body.fieldErrors).toHaveProperty(["reminder.enabled"]);

    const on = await save(admin, { "reminder.enabled": "on", "reminder.hours": "12" });
    expect(on).toMatchObject({ status: 200, body: { ok: true, message: "Reminder on: it goes out 12 hours after an unpaid checkout." } });
    expect(await getReminderSetting(t.db)).toMatchObject({ enabled: true, hours: 12, enabledSince: expect.any(String) });
    const since = (await getReminderSetting(t.db)).enabledSince;
    // Saving again while on keeps the moment it was turned on.
    await save(admin, { "reminder.enabled": "on", "reminder.hours": "6" });
    expect(await getReminderSetting(t.db)).toMatchObject({ enabled: true, hours: 6, enabledSince: since });

    const off = await save(admin, { "reminder.hours": "6" });
    expect(off.body).toMatchObject({ ok: true, message: "Reminder off: no reminders are sent." });
    expect(await getReminderSetting(t.db)).toMatchObject({ enabled: false, hours: 6, enabledSince: null });

    const page = await settle(async () => siteSettingsLoader(args(await requestAs(t.db, admin, "/admin/site-settings"))));
    expect(await page.body.reminder).toEqual({ enabled: false, hours: 6 });
  });
});
