import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CUSTOMER_SORTS, type CustomerRow, type CustomerSort } from "~/lib/customers-view";
import { loader as listLoader } from "~/routes/admin/customers";
import { action as customerAction, loader as customerLoader } from "~/routes/admin/customers/customer";
import { loader as exportLoader } from "~/routes/admin/customers/export";
import { authMailsSettled } from "~/server/people/auth/auth.server";
import type { Db } from "~/server/platform/db/client.server";
import { contactMessages, customers, mailOutbox, newsletterSubscriptions, orders, paymentTasks, testPaymentSessions, user } from "~/server/platform/db/schema";
import { recordPendingRefund, settleRefund } from "~/server/commerce/settlement/ledger.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { makeOrder } from "../factories/account-orders";
import { openCheckout } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post, settle } from "./admin-catalog-helpers";
import { moveNow } from "./admin-orders-helpers";
import { args } from "./route-args";

const t = useTestDatabase();

const tag = (label: string) => `${label}${randomBytes(3).toString("hex")}`;

async function customerOf(db: Db, email: string) {
  const [row] = await db.select().from(customers).where(eq(customers.emailKey, email.toLowerCase()));
  return row ?? null;
}

/** An order placed through the real checkout with this email, paid through the test provider unless `paid: false`. */
async function checkoutOrder(db: Db, email: string, opts: { priceCents?: number; quantity?: number; paid?: boolean; userId?: string | null; firstName?: string; lastName?: string } = {}) {
  const product = await makeProduct(db, { stockQuantity: 50, priceCents: opts.priceCents ?? 2500 });
  const checkout = await openCheckout(db, [[product, opts.quantity ?? 1]], {
    userId: opts.userId ?? null,
    form: { email, firstName: opts.firstName ?? "Casey", lastName: opts.lastName ?? "Buyer" },
  });
  if (opts.paid !== false) await pay(db, checkout.sessionId);
  return checkout.orderId;
}

async function pay(db: Db, sessionId: string) {
  await db.update(testPaymentSessions).set({ status: "paid", paymentReference: `test_pi_${sessionId.slice(0, 8)}` }).where(eq(testPaymentSessions.id, sessionId));
  const outcome = await confirmPayment(db, sessionId);
  if (outcome.state !== "paid") throw new Error(`payment not confirmed: ${outcome.state}`);
}

const list = async (admin: { id: string }, qs: string) => get(t.db, listLoader, admin, `/admin/customers${qs}`);

/** Every page of the list for this query string, in order. */
async function allPages(admin: { id: string }, qs: string): Promise<CustomerRow[]> {
  const first = await list(admin, qs);
  const rows: CustomerRow[] = [...first.body.rows];
  for (let p = 2; p <= first.body.pages; p++) rows.push(...(await list(admin, `${qs}&page=${p}`)).body.rows);
  return rows;
}

/** A CSV body as rows of cells (every cell quoted, as csvCell writes them). */
function parseCsv(text: string): string[][] {
  return text
    .split("\r\n")
    .filter(Boolean)
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"|([^,]+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!)));
}

async function exportCsv(admin: { id: string }, qs: string) {
  const request = await requestAs(t.db, admin, `/admin/customers/export${qs}`);
  const res = (await exportLoader(args(request))) as Response;
  return { res, rows: parseCsv(await res.text()) };
}

describe("the customers roll-up", () => {
  it("counts only paid orders that are not cancelled or refunded, as orders are placed, paid, refunded and cancelled", async () => {
    const admin = await makeAdmin(t.db);
    const email = `${tag("rollup")}@example.test`;
    const unpaid = await checkoutOrder(t.db, email, { priceCents: 1000, paid: false, firstName: "Robin", lastName: "Early" });
    let c = await customerOf(t.db, email);
    // A guest who placed an order is a customer, with nothing counted yet.
    expect(c).toMatchObject({ email, name: "Robin Early", hasAccount: false, userId: null, ordersCount: 0, spentCents: 0, firstOrderAt: null, lastOrderAt: null });

    const first = await checkoutOrder(t.db, email, { priceCents: 2000, quantity: 2, firstName: "Robin", lastName: "Paid" });
    const second = await checkoutOrder(t.db, email, { priceCents: 3300 });
    const third = await checkoutOrder(t.db, email, { priceCents: 1250 });
    c = await customerOf(t.db, email);
    const paidAt = async (id: string) => (await t.db.select({ at: orders.paidAt }).from(orders).where(eq(orders.id, id)))[0]!.at!;
    expect(c).toMatchObject({ ordersCount: 3, spentCents: 4000 + 3300 + 1250, name: "Casey Buyer" });
    expect(c!.firstOrderAt).toEqual(await paidAt(first));
    expect(c!.lastOrderAt).toEqual(await paidAt(third));

    // Refunded: no longer counted (the payment status changes, the order stays shipped).
    await t.db.update(orders).set({ paymentStatus: "refunded" }).where(eq(orders.id, third));
    c = await customerOf(t.db, email);
    expect(c).toMatchObject({ ordersCount: 2, spentCents: 7300 });
    expect(c!.lastOrderAt).toEqual(await paidAt(second));

    // Cancelled by the admin (paid, stock returned): no longer counted either.
    expect((await moveNow(t.db, admin, first, "cancelled")).status).toBe(200);
    c = await customerOf(t.db, email);
    expect(c).toMatchObject({ ordersCount: 1, spentCents: 3300 });
    expect(c!.firstOrderAt).toEqual(await paidAt(second));

    // The unpaid order, cancelled, changes nothing; the list shows the same figures.
    expect((await moveNow(t.db, admin, unpaid, "cancelled")).status).toBe(200);
    const row = (await list(admin, `?q=${encodeURIComponent(email)}`)).body.rows;
    expect(row).toEqual([
      { id: c!.id, name: "Casey Buyer", email, hasAccount: false, ordersCount: 1, spentCents: 3300, lastOrderAt: (await paidAt(second)).toISOString(), subscribed: false },
    ]);
  });

  it("an account and guest orders with its address in another case are one customer, named after the account", async () => {
    const account = await makeCustomer(t.db, { email: `${tag("same")}@example.test`, firstName: "Ada", lastName: "Account" });
    await checkoutOrder(t.db, account.email.toUpperCase(), { priceCents: 4200, firstName: "Guest", lastName: "Name" });
    await checkoutOrder(t.db, account.email.replace(/^./, (ch) => ch.toUpperCase()), { priceCents: 800, userId: account.id });
    const rows = await t.db.select().from(customers).where(sql`${customers.emailKey} = ${account.email}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: account.email, name: "Ada Account", userId: account.id, hasAccount: true, ordersCount: 2, spentCents: 5000 });

    // Renaming the account renames the customer; deleting it leaves the guest with its orders, named after the latest order.
    await t.db.update(user).set({ name: "Ada Renamed" }).where(eq(user.id, account.id));
    expect(await customerOf(t.db, account.email)).toMatchObject({ name: "Ada Renamed", hasAccount: true });
    await t.db.delete(user).where(eq(user.id, account.id));
    expect(await customerOf(t.db, account.email)).toMatchObject({ name: "Casey Buyer", hasAccount: false, userId: null, ordersCount: 2, spentCents: 5000 });

    // An account without orders is a customer; deleted, it is gone.
    const lonely = await makeCustomer(t.db, { firstName: "Lone", lastName: "Account" });
    expect(await customerOf(t.db, lonely.email)).toMatchObject({ name: "Lone Account", hasAccount: true, ordersCount: 0 });
    await t.db.delete(user).where(eq(user.id, lonely.id));
    expect(await customerOf(t.db, lonely.email)).toBeNull();
  });

  it("marks newsletter subscribers once their subscription is confirmed, and unmarks them when it goes", async () => {
    const shopper = await makeCustomer(t.db);
    await t.db.insert(newsletterSubscriptions).values({ email: shopper.email.toUpperCase(), confirmedAt: null });
    expect((await customerOf(t.db, shopper.email))!.subscribed).toBe(false);
    await t.db.update(newsletterSubscriptions).set({ confirmedAt: new Date() }).where(sql`lower(${newsletterSubscriptions.email}) = ${shopper.email}`);
    expect((await customerOf(t.db, shopper.email))!.subscribed).toBe(true);
    await t.db.delete(newsletterSubscriptions).where(sql`lower(${newsletterSubscriptions.email}) = ${shopper.email}`);
    expect((await customerOf(t.db, shopper.email))!.subscribed).toBe(false);

    // A subscriber who is not a customer has no row; their first order makes one, already subscribed.
    const reader = `${tag("reader")}@example.test`;
    await t.db.insert(newsletterSubscriptions).values({ email: reader });
    expect(await customerOf(t.db, reader)).toBeNull();
    await makeOrder(t.db, { email: reader });
    expect(await customerOf(t.db, reader)).toMatchObject({ subscribed: true, ordersCount: 0 });
  });

  it("stays exact when payments for one new address commit at the same time", async () => {
    const email = `${tag("race")}@example.test`;
    const product = await makeProduct(t.db, { stockQuantity: 100, priceCents: 1500 });
    const checkouts = await Promise.all(
      Array.from({ length: 8 }, () => openCheckout(t.db, [[product, 1]], { form: { email } })),
    );
    await Promise.all(checkouts.map((c) => pay(t.db, c.sessionId)));
    expect(await customerOf(t.db, email)).toMatchObject({ ordersCount: 8, spentCents: 8 * 1500 });
    expect(await t.db.select().from(customers).where(eq(customers.emailKey, email))).toHaveLength(1);
  });

});

describe("/admin/customers", () => {
  /** Customers sharing a search word, with every column varied (names sort the same in any collation). */
  async function makeCrowd(word: string) {
    const now = Date.now();
    const made: string[] = [];
    const names = ["Anna", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta"];
    for (const [i, first] of names.entries()) {
      const email = `${first.toLowerCase()}.${word}@example.test`;
      made.push(email);
      // Accounts: Anna, Chloe, Elena, Farid (who never ordered) and Greta; Bruno and Dmitri are guests.
      if (i % 2 === 0 || first === "Farid") await makeCustomer(t.db, { email, firstName: first, lastName: word });
      // Orders: none for Anna and Farid; paid orders of different totals and dates for the others.
      if (first !== "Anna" && first !== "Farid") {
        await makeOrder(t.db, {
          email,
          firstName: first,
          lastName: word,
          paymentStatus: "paid",
          status: "processing",
          totalAmountCents: 1000 * ((i * 3) % 7) + 500,
          paidAt: new Date(now - i * 86_400_000 * 3),
        });
      }
      if (first === "Chloe" || first === "Greta") {
        await makeOrder(t.db, { email, firstName: first, lastName: word, paymentStatus: "paid", status: "shipped", totalAmountCents: 700, paidAt: new Date(now - 3600_000) });
      }
      if (i % 3 === 0) await t.db.insert(newsletterSubscriptions).values({ email });
    }
    return made;
  }

  /** The list's order for a sort, written out from the rules the page states. */
  function expected(rows: CustomerRow[], sort: CustomerSort, dir: "asc" | "desc") {
    const key = (r: CustomerRow) => r.email.toLowerCase();
    const byKey = (a: CustomerRow, b: CustomerRow) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
    const by = (value: (r: CustomerRow) => number | string) => (a: CustomerRow, b: CustomerRow) => {
      const x = value(a);
      const y = value(b);
      const c = x < y ? -1 : x > y ? 1 : byKey(a, b);
      return dir === "asc" ? c : -c;
    };
    const flag = (value: (r: CustomerRow) => boolean) => {
      const [first, second] = dir === "desc" ? [true, false] : [false, true];
      return [...rows.filter((r) => value(r) === first).sort(byKey), ...rows.filter((r) => value(r) === second).sort(byKey)];
    };
    switch (sort) {
      case "name":
        return [...rows].sort(by((r) => r.name));
      case "email":
        return [...rows].sort(by(key));
      case "orders":
        return [...rows].sort(by((r) => r.ordersCount));
      case "spent":
        return [...rows].sort(by((r) => r.spentCents));
      case "last_order":
        return [...rows.filter((r) => r.lastOrderAt).sort(by((r) => r.lastOrderAt!)), ...rows.filter((r) => !r.lastOrderAt).sort(byKey)];
      case "account":
        return flag((r) => r.hasAccount);
      case "newsletter":
        return flag((r) => r.subscribed);
    }
  }

  it("sorts by every column in both directions and keeps the search; bad parameters fall back to the defaults", async () => {
    const admin = await makeAdmin(t.db);
    const word = tag("Sortable");
    await makeCrowd(word);
    const base = (await list(admin, `?q=${word}`)).body;
    expect(base.total).toBe(7);
    // The default: last order, newest first.
    expect(base.query).toMatchObject({ sort: "last_order", dir: "desc" });
    expect(base.rows).toEqual(expected(base.rows, "last_order", "desc"));
    expect(base.rows.map((r: CustomerRow) => r.ordersCount).sort()).toEqual([0, 0, 1, 1, 1, 2, 2]);
    for (const sort of CUSTOMER_SORTS) {
      for (const dir of ["asc", "desc"] as const) {
        const res = await list(admin, `?q=${word}&sort=${sort}&dir=${dir}`);
        expect(res.body.query).toMatchObject({ sort, dir, q: word });
        expect(res.body.rows.map((r: CustomerRow) => r.email), `${sort} ${dir}`).toEqual(expected(base.rows, sort, dir).map((r) => r.email));
      }
    }
    // Bad parameters fall back to the defaults (a sort's direction defaults to its header's first click).
    expect((await list(admin, `?q=${word}&sort=drop%20table&dir=sideways&page=abc`)).body.query).toEqual({ q: word, sort: "last_order", dir: "desc", page: 1 });
    expect((await list(admin, `?q=${word}&sort=name`)).body.query).toMatchObject({ sort: "name", dir: "asc" });
    expect((await list(admin, `?q=${word}&sort=spent&dir=%00`)).body.query).toMatchObject({ sort: "spent", dir: "desc" });
  });

  it("pages 25 at a time; a page past the end goes to the last one; the CSV holds every match in the list's order", async () => {
    const admin = await makeAdmin(t.db);
    const word = tag("Pager");
    for (let i = 0; i < 28; i++) {
      await makeOrder(t.db, { email: `p${String(i).padStart(2, "0")}.${word}@example.test`, firstName: `Buyer${i}`, lastName: word, paymentStatus: "paid", totalAmountCents: 100 * (i % 5) + 100, paidAt: new Date(Date.now() - i * 60_000) });
    }
    // A name that would run as a formula in a spreadsheet.
    await makeOrder(t.db, { email: `formula.${word}@example.test`, firstName: "=HYPERLINK(\"http://evil.test\")", lastName: word });
    const first = await list(admin, `?q=${word}&sort=spent&dir=desc`);
    expect(first.body).toMatchObject({ total: 29, pages: 2, capped: false });
    expect(first.body.rows).toHaveLength(25);
    const second = await list(admin, `?q=${word}&sort=spent&dir=desc&page=2`);
    expect(second.body.rows).toHaveLength(4);
    const ids = [...first.body.rows, ...second.body.rows].map((r: CustomerRow) => r.id);
    expect(new Set(ids).size).toBe(29);
    expect(await list(admin, `?q=${word}&sort=spent&dir=desc&page=7`)).toMatchObject({ status: 302, location: `/admin/customers?q=${word}&sort=spent&dir=desc&page=2` });

    const { res, rows } = await exportCsv(admin, `?q=${word}&sort=spent&dir=desc`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(rows[0]).toEqual(["name", "email", "type", "orders", "total_spent", "refunded", "net_spent", "last_order_at", "newsletter", "first_order_at", "customer_since"]);
    const listed = [...first.body.rows, ...second.body.rows] as CustomerRow[];
    // Nothing refunded here: what they paid is what they kept, the list's Total spent.
    expect(rows.slice(1).map((r) => r.slice(0, 9))).toEqual(
      listed.map((r) => [
        r.name.startsWith("=") ? `'${r.name}` : r.name,
        r.email,
        r.hasAccount ? "account" : "guest",
        String(r.ordersCount),
        (r.spentCents / 100).toFixed(2),
        "0.00",
        (r.spentCents / 100).toFixed(2),
        r.lastOrderAt ?? "",
        r.subscribed ? "subscribed" : "",
      ]),
    );
    expect(rows.some((r) => r[0] === `'=HYPERLINK("http://evil.test") ${word}`)).toBe(true);

    // The export of everyone equals the list read page by page.
    const everyone = await allPages(admin, "?sort=name&dir=asc");
    const all = await exportCsv(admin, "?sort=name&dir=asc");
    expect(all.rows.slice(1).map((r) => r[1])).toEqual(everyone.map((r) => r.email));
  });

  it("the CSV has each customer's refunded total and net spent: a partial refund, and a paid order cancelled", async () => {
    const admin = await makeAdmin(t.db);
    const email = `${tag("refunded")}@example.test`;
    // $50.00 paid, $10.00 of it refunded; $25.00 paid, then cancelled with its refund.
    const kept = await checkoutOrder(t.db, email, { priceCents: 2500, quantity: 2 });
    const [task] = await t.db
      .insert(paymentTasks)
      .values({ orderId: kept, kind: "refund", idempotencyKey: `test-refund-${randomBytes(6).toString("hex")}`, state: "done", amountCents: 1000, doneAt: new Date() })
      .returning();
    await t.db.transaction(async (tx) => {
      await recordPendingRefund(tx, { orderId: kept, paymentTaskId: task!.id, amountCents: 1000, reason: "One damaged" });
      await settleRefund(tx, task!.id, "succeeded");
    });
    const cancelled = await checkoutOrder(t.db, email, { priceCents: 2500 });
    expect((await moveNow(t.db, admin, cancelled, "cancelled", { refund: "yes" })).status).toBe(200);

    const { rows } = await exportCsv(admin, `?q=${encodeURIComponent(email)}`);
    const [header, row, ...rest] = rows;
    expect(rest).toEqual([]);
    const cell = (name: string) => row![header!.indexOf(name)];
    expect([cell("email"), cell("orders"), cell("total_spent"), cell("refunded"), cell("net_spent")]).toEqual([email, "1", "75.00", "35.00", "40.00"]);
    // Net spent is the list's Total spent.
    expect((await customerOf(t.db, email))!.spentCents).toBe(4000);
  });

  it("finds customers by part of a name or email, and by a name with a typo (exact matches first)", async () => {
    const admin = await makeAdmin(t.db);
    const word = tag("Thornbury").replace(/[0-9]/g, "x");
    await makeOrder(t.db, { email: `m.t.${word.toLowerCase()}@mail.test`, firstName: "Margaret", lastName: word });
    await makeOrder(t.db, { email: `margret.other@${word.toLowerCase()}.test`, firstName: "Margret", lastName: "Other" });
    const found = async (q: string) => (await list(admin, `?q=${encodeURIComponent(q)}`)).body.rows.map((r: CustomerRow) => r.name);
    // Exact matches first, then those a letter or two off ('Margret' is within a typo of 'Margaret').
    expect(await found(`margaret ${word}`)).toEqual([`Margaret ${word}`, "Margret Other"]);
    expect(await found(`MARGRET ${word}`)).toEqual(["Margret Other", `Margaret ${word}`]);
    // A typo in the rarer word: nobody matches exactly, both are close (then listed by the sort).
    const misspelt = word.slice(0, 4) + word.slice(5);
    expect(await found(`Margaret ${misspelt}`)).toEqual([`Margaret ${word}`, "Margret Other"]);
    expect(await found(misspelt)).toHaveLength(2);
    // Parts of an address match literally (no typos for words with dots or digits).
    expect(await found(`m.t.${word}`)).toEqual([`Margaret ${word}`]);
    expect(await found(`${word}@mail`)).toEqual([`Margaret ${word}`]);
    // A word a hundred customers share lists just them: close matches only help a search that finds few.
    const common = tag("Commonplace").replace(/[0-9]/g, "x");
    const base = { status: "pending" as const, paymentStatus: "unpaid" as const, subtotalCents: 100, totalAmountCents: 100, lastName: "Shared", address: "1 A St", city: "B", state: "C", zipCode: "1" };
    await t.db.insert(orders).values(
      Array.from({ length: 100 }, (_, i) => ({ ...base, orderNumber: `ORD-${common}-${i}`, email: `c${i}.${common.toLowerCase()}@example.test`, firstName: common })),
    );
    const near = common.slice(0, 3) + common.slice(4);
    await makeOrder(t.db, { email: `near.${near.toLowerCase()}@example.test`, firstName: near, lastName: "Shared" });
    const exactOnly = (await list(admin, `?q=${common}`)).body;
    expect(exactOnly).toMatchObject({ total: 100, closeMatches: false });
    const withClose = (await list(admin, `?q=${near}`)).body;
    expect(withClose).toMatchObject({ total: 101, closeMatches: true });
    expect(withClose.rows[0].name).toBe(`${near} Shared`);

    // % and _ are literal; nothing matches a stranger.
    expect(await found(`%${word}`)).toEqual([]);
    expect((await list(admin, "?q=zzzzqqqqxxxx")).body).toMatchObject({ total: 0, rows: [] });
  });

  it("refuses a customer page for an unknown or malformed id with 404, never a 500", async () => {
    const admin = await makeAdmin(t.db);
    for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000", "'; drop table customers;--", "x".repeat(5000)]) {
      const page = await get(t.db, customerLoader, admin, `/admin/customers/${encodeURIComponent(id)}`, { id });
      expect(page.status, id).toBe(404);
      const act = await post(t.db, customerAction, admin, `/admin/customers/${encodeURIComponent(id)}`, { intent: "password-reset" }, { id });
      expect(act.status, id).toBe(404);
    }
  });
});

describe("the customer page", () => {
  it("shows the profile, its orders with links, the addresses used, its messages and its newsletter status", async () => {
    const admin = await makeAdmin(t.db);
    const shopper = await makeCustomer(t.db, { firstName: "Pat", lastName: "Profile", phone: "+1 555 0100", verified: false });
    const paid = await checkoutOrder(t.db, shopper.email, { priceCents: 5000, userId: shopper.id });
    const other = await makeOrder(t.db, { email: shopper.email.toUpperCase(), address: "9 Other Road", city: "Shelbyville", createdAt: new Date(Date.now() - 86_400_000) });
    await makeOrder(t.db, { email: shopper.email, address: "9 Other Road", city: "Shelbyville", createdAt: new Date(Date.now() - 2 * 86_400_000) });
    const [message] = await t.db
      .insert(contactMessages)
      .values({ name: "Pat", email: shopper.email.toUpperCase(), subject: "Where is my duvet?", message: "Hello" })
      .returning();
    await t.db.insert(newsletterSubscriptions).values({ email: shopper.email, confirmedAt: null });
    const c = (await customerOf(t.db, shopper.email))!;

    const res = await get(t.db, customerLoader, admin, `/admin/customers/${c.id}`, { id: c.id });
    expect(res.status).toBe(200);
    const view = res.body.customer;
    expect(view).toMatchObject({
      id: c.id,
      name: "Pat Profile",
      email: shopper.email,
      ordersCount: 1,
      spentCents: 5000,
      newsletter: "pending",
      account: { id: shopper.id, name: "Pat Profile", email: shopper.email, verified: false, role: "customer", phone: "+1 555 0100" },
      moreOrders: false,
    });
    expect(view.orders.map((o: { id: string }) => o.id)).toEqual([paid, other.id, expect.any(String)]);
    expect(view.orders[0]).toMatchObject({ status: "processing", paymentStatus: "paid", totalAmountCents: 5000 });
    expect(view.addresses).toEqual([
      expect.objectContaining({ address: "1 Linen Lane", city: "Springfield", orders: 1 }),
      expect.objectContaining({ address: "9 Other Road", city: "Shelbyville", orders: 2 }),
    ]);
    expect(view.messages).toEqual([{ id: message!.id, subject: "Where is my duvet?", createdAt: message!.createdAt.toISOString(), handled: false }]);
  });

  it("sends a password reset and a new confirmation through the account's own mails; refuses what cannot be done", async () => {
    const admin = await makeAdmin(t.db);
    const unconfirmed = await makeCustomer(t.db, { verified: false });
    const c = (await customerOf(t.db, unconfirmed.email))!;
    const act = (intent: unknown, id = c.id) => post(t.db, customerAction, admin, `/admin/customers/${id}`, { intent }, { id });

    expect(await act("password-reset")).toMatchObject({ status: 200, body: { ok: true, message: `Password reset email sent to ${unconfirmed.email}.` } });
    expect(await act("resend-confirmation")).toMatchObject({ status: 200, body: { ok: true, message: `Confirmation email sent to ${unconfirmed.email}.` } });
    await authMailsSettled();
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, unconfirmed.email));
    expect(mails.map((m) => m.kind).sort()).toEqual(["email-verification", "password-reset"]);

    // Already confirmed: nothing to resend. A guest has no account. An unknown action is refused.
    const confirmed = await makeCustomer(t.db);
    const cc = (await customerOf(t.db, confirmed.email))!;
    expect(await act("resend-confirmation", cc.id)).toMatchObject({ status: 409, body: { ok: false, message: "This account's email address is already confirmed." } });
    const guest = await makeOrder(t.db, { email: `${tag("guest")}@example.test` });
    const gc = (await customerOf(t.db, guest.email))!;
    expect(await act("password-reset", gc.id)).toMatchObject({ status: 409, body: { ok: false, message: "This customer is a guest: there is no account to act on." } });
    expect(await act("delete-everything")).toMatchObject({ status: 400, body: { ok: false, message: "This action is not supported" } });
    // A plain form post works too (no JavaScript).
    const request = await requestAs(t.db, admin, `/admin/customers/${cc.id}`, { method: "POST", body: new URLSearchParams({ intent: "password-reset" }) });
    expect(await settle(() => customerAction(args(request, { id: cc.id })))).toMatchObject({ status: 200, body: { ok: true } });
  });
});

describe("after everything above", () => {
  it("customers_rebuild() finds exactly what the triggers kept", async () => {
    const before = await t.db.select().from(customers).orderBy(customers.emailKey);
    expect(before.length).toBeGreaterThan(3);
    await t.db.transaction((tx) => tx.execute(sql`select customers_rebuild()`));
    expect(await t.db.select().from(customers).orderBy(customers.emailKey)).toEqual(before);
  });
});
