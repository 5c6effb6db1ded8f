import { beforeAll, describe, expect, it } from "vitest";
import { addDays, formatDay } from "~/lib/date-range";
import { loader as dashboardLoader } from "~/routes/admin/dashboard";
import { loader as ordersLoader } from "~/routes/admin/orders/index";
import { loader as outboxLoader } from "~/routes/admin/outbox/index";
import { loader as productsLoader } from "~/routes/admin/products/index";
import { getAttentionItems } from "~/server/insight/dashboard/attention.server";
import { getDashboardStats, getRecentActivity } from "~/server/insight/dashboard/dashboard.server";
import { contactMessages, jobs, mailOutbox, paymentTasks, searchTermsDaily } from "~/server/platform/db/schema";
import { makeOrder } from "../factories/account-orders";
import { makeProduct } from "../factories/products";
import { makeAdmin, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get } from "./admin-catalog-helpers";

const t = useTestDatabase();
let admin: TestUser;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);
const today = formatDay(Date.now() - (Date.now() % DAY));

beforeAll(async () => {
  admin = await makeAdmin(t.db);
});

describe("the dashboard of a shop with nothing to do", () => {
  it("says 'All clear', shows zero figures with no change, and no activity", async () => {
    expect(await getAttentionItems(t.db)).toEqual([]);
    const stats = await getDashboardStats(t.db);
    expect(stats).toMatchObject({
      totalProducts: 0,
      activeProducts: 0,
      totalOrders: 0,
      revenueCents: 0,
      productsAdded: { current: 0, previous: 0 },
      orders: { current: 0, previous: 0 },
      revenue: { current: 0, previous: 0 },
    });
    expect(stats.period).toEqual({ start: addDays(today, -29), end: today, previousStart: addDays(today, -59), previousEnd: addDays(today, -30) });
    expect(await getRecentActivity(t.db)).toEqual([]);
  });
});

describe("the dashboard of a shop with a known history", () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // Products: three added 5 days ago, two 40 days ago, one 100 days ago.
    const p = async (key: string, createdAt: Date, extra: Parameters<typeof makeProduct>[1] = {}) => {
      ids[key] = (await makeProduct(t.db, { name: `Dash ${key}`, sku: `DASH-${key}`, createdAt, ...extra })).id;
    };
    await p("P1", ago(5 * DAY), { stockQuantity: 3, lowStockAlertedAt: ago(2 * HOUR) }); // low: 3 <= the default 5
    await p("P2", ago(5 * DAY + HOUR), { stockQuantity: 10, lowStockThreshold: 12 }); // low: its own threshold
    await p("P3", ago(5 * DAY + 2 * HOUR), { stockQuantity: 2, active: false }); // inactive: not for sale
    await p("P4", ago(40 * DAY), { unlimitedStock: true, stockQuantity: 0 });
    await p("P5", ago(40 * DAY + HOUR), { stockQuantity: 6 });
    await p("P6", ago(100 * DAY), { stockQuantity: 50 });

    // Orders: three counted in the last 30 days ($170), two in the 30 before ($100), one older ($500).
    const o = async (key: string, overrides: Parameters<typeof makeOrder>[1]) => {
      ids[key] = (await makeOrder(t.db, { orderNumber: `ORD-DASH-${key}`, ...overrides })).id;
    };
    await o("A", { paymentStatus: "paid", status: "processing", totalAmountCents: 10_000, paidAt: ago(3 * DAY), createdAt: ago(3 * DAY) });
    await o("B", { paymentStatus: "paid", status: "shipped", totalAmountCents: 5_000, paidAt: ago(3 * DAY - HOUR), createdAt: ago(3 * DAY) });
    await o("C", { paymentStatus: "paid", status: "pending", totalAmountCents: 2_000, paidAt: ago(DAY), createdAt: ago(DAY) });
    await o("D", { paymentStatus: "paid", status: "completed", totalAmountCents: 4_000, paidAt: ago(35 * DAY), createdAt: ago(35 * DAY) });
    await o("E", { paymentStatus: "paid", status: "processing", totalAmountCents: 6_000, paidAt: ago(45 * DAY), createdAt: ago(45 * DAY) });
    await o("F", { paymentStatus: "paid", status: "completed", totalAmountCents: 50_000, paidAt: ago(70 * DAY), createdAt: ago(70 * DAY) });
    // Paid, then refunded or cancelled: orders paid in the last 30 days, whose refunds (the cancels,
    // today) take their revenue back out of net sales; unpaid: never an order paid.
    await o("R", { paymentStatus: "refunded", status: "cancelled", totalAmountCents: 99_900, paidAt: ago(10 * DAY), createdAt: ago(10 * DAY) });
    await o("X", { paymentStatus: "paid", status: "cancelled", totalAmountCents: 88_800, paidAt: ago(10 * DAY + HOUR), createdAt: ago(10 * DAY) });
    await o("U", { paymentStatus: "unpaid", status: "pending", totalAmountCents: 77_700 });
    // A paid order whose refund the provider refused twice (still owed), one not tried yet, one done.
    await o("G", { paymentStatus: "paid", status: "cancelled", totalAmountCents: 3_000, paidAt: ago(20 * DAY), createdAt: ago(20 * DAY) });
    await t.db.insert(paymentTasks).values([
      { orderId: ids.G!, kind: "refund", idempotencyKey: `refund-${ids.G}`, attempts: 2, lastError: "card_declined" },
      { orderId: ids.X!, kind: "refund", idempotencyKey: `refund-${ids.X}`, attempts: 0 },
      { orderId: ids.R!, kind: "refund", idempotencyKey: `refund-${ids.R}`, attempts: 1, state: "done", doneAt: ago(9 * DAY) },
    ]);

    await t.db.insert(contactMessages).values([
      { name: "Ada", email: "ada@example.test", subject: "Where is my duvet?", message: "…", createdAt: ago(10 * 60_000) },
      { name: "Ben", email: "ben@example.test", subject: "Wholesale", message: "…", createdAt: ago(20 * 60_000) },
      { name: "Cy", email: "cy@example.test", subject: "Thanks", message: "…", handled: true, createdAt: ago(3 * HOUR) },
    ]);
    // Mails: one the relay refused (retrying), one given up after 5 tries; one sent and one queued do not count.
    const mail = { from: "shop@example.test", text: "…", transport: "smtp" as const };
    await t.db.insert(mailOutbox).values([
      { ...mail, to: "ada@example.test", subject: "Order ORD-DASH-A confirmed", status: "retrying", attempts: 2, error: "421 try later", nextAttemptAt: ago(-HOUR) },
      { ...mail, to: "ben@example.test", subject: "Reset your password", status: "given_up", attempts: 5, error: "550 mailbox unavailable" },
      { ...mail, to: "cy@example.test", subject: "Order ORD-DASH-B has shipped", status: "sent", attempts: 1, sentAt: ago(HOUR) },
      { ...mail, to: "di@example.test", subject: "Order ORD-DASH-C confirmed", status: "queued", nextAttemptAt: ago(-HOUR) },
    ]);
    await t.db.insert(jobs).values([
      { kind: "import", status: "done", succeeded: 120, failed: 3, createdAt: ago(HOUR), finishedAt: ago(30 * 60_000) },
      { kind: "image-migration", status: "done", createdAt: ago(HOUR), finishedAt: ago(40 * 60_000) },
    ]);
    await t.db.insert(searchTermsDaily).values([
      { day: today, term: "silk sheets", searches: 2, emptySearches: 2 },
      { day: addDays(today, -3), term: "velvet", searches: 3, emptySearches: 1 },
      { day: addDays(today, -3), term: "linen", searches: 9, emptySearches: 0 },
      { day: addDays(today, -6), term: "silk sheets", searches: 1, emptySearches: 1 },
      { day: addDays(today, -10), term: "wool", searches: 5, emptySearches: 5 },
    ]);
  });

  it("counts every product, the counted orders and their revenue ever, and compares the last 30 days with the 30 before", async () => {
    expect(await getDashboardStats(t.db)).toMatchObject({
      totalProducts: 6,
      activeProducts: 5,
      totalOrders: 9,
      revenueCents: 77_000,
      productsAdded: { current: 3, previous: 2 },
      activeProductsAdded: { current: 2, previous: 2 },
      orders: { current: 6, previous: 2 },
      revenue: { current: 17_000, previous: 10_000 },
    });
  });

  it("lists what needs attention with its count and where to act", async () => {
    expect(await getAttentionItems(t.db)).toEqual([
      {
        kind: "low_stock",
        count: 2,
        capped: false,
        label: "products at or below their low-stock threshold",
        action: "Restock",
        href: "/admin/products?stock=low",
      },
      { kind: "unshipped", count: 2, capped: false, label: "paid orders not shipped after 2 days", action: "Ship", href: "/admin/orders?needs=unshipped" },
      { kind: "messages", count: 2, capped: false, label: "contact messages not answered", action: "Answer", href: "/admin/inbox" },
      { kind: "refunds", count: 1, capped: false, label: "refund that failed", action: "Refund by hand", href: "/admin/orders?needs=refund-failed" },
      { kind: "mails", count: 2, capped: false, label: "mails that failed to send", action: "See mails", href: "/admin/outbox?state=failed" },
      {
        kind: "searches",
        count: 2,
        capped: false,
        label: "search terms found nothing this week",
        action: "See searches",
        href: "/admin/analytics#searches",
      },
    ]);
  });

  it("each attention link opens a list of exactly those items", async () => {
    const products = await get(t.db, productsLoader, admin, "/admin/products?stock=low");
    expect(products.body.query.lowStock).toBe(true);
    expect(products.body.products.rows.map((r: { name: string }) => r.name).sort()).toEqual(["Dash P1", "Dash P2"]);

    const unshipped = await get(t.db, ordersLoader, admin, "/admin/orders?needs=unshipped");
    expect(unshipped.body.query.needs).toBe("unshipped");
    expect(unshipped.body.orders.map((r: { orderNumber: string }) => r.orderNumber)).toEqual(["ORD-DASH-A", "ORD-DASH-E"]);
    expect(unshipped.body.total).toBe(2);

    const refunds = await get(t.db, ordersLoader, admin, "/admin/orders?needs=refund-failed");
    expect(refunds.body.orders.map((r: { orderNumber: string }) => r.orderNumber)).toEqual(["ORD-DASH-G"]);

    const mails = await get(t.db, outboxLoader, admin, "/admin/outbox?state=failed");
    expect(mails.body.filter).toBe("failed");
    expect(mails.body.messages.map((m: { to: string; status: string }) => [m.to, m.status]).sort()).toEqual([
      ["ada@example.test", "retrying"],
      ["ben@example.test", "given_up"],
    ]);

    // An unknown need is ignored, like any other bad filter.
    const all = await get(t.db, ordersLoader, admin, "/admin/orders?needs=everything");
    expect(all.body.query.needs).toBeNull();
    expect(all.body.total).toBe(10);
  });

  it("shows real events newest first: messages, imports, low stock, payments, new products", async () => {
    const items = await getRecentActivity(t.db, 11);
    expect(items.map((i) => i.title)).toEqual([
      "Message from Ada",
      "Message from Ben",
      "Product import finished",
      "Low on stock: Dash P1",
      "Message from Cy",
      "Order ORD-DASH-C paid",
      "Order ORD-DASH-B paid",
      "Order ORD-DASH-A paid",
      "Product added: Dash P1",
      "Product added: Dash P2",
      "Product added: Dash P3",
    ]);
    const times = items.map((i) => Date.parse(i.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(items[2]).toMatchObject({ detail: "120 imported, 3 rows with errors", href: "/admin/products?tab=import" });
    expect(items[3]).toMatchObject({ detail: "3 units left", href: "/admin/products?stock=low&q=DASH-P1" });
    expect(items[5]).toMatchObject({ detail: "$20.00", href: `/admin/orders/${ids.C}` });
    expect(items[0]!.href).toMatch(/^\/admin\/inbox\/[0-9a-f-]{36}$/);
  });

  it("streams all three from the page's loader", async () => {
    const res = await get(t.db, dashboardLoader, admin, "/admin");
    expect((await res.body.stats).orders).toEqual({ current: 6, previous: 2 });
    expect((await res.body.attention).map((i: { kind: string }) => i.kind)).toEqual(["low_stock", "unshipped", "messages", "refunds", "mails", "searches"]);
    expect((await res.body.activity)).toHaveLength(8);
  });
});
