// The Analytics figures on a known set of orders, visits and searches, each compared with a value
// worked out by hand below; each refund counted on its own day, the order's gross staying on the
// day it was paid; and the sales roll-ups staying exact as orders are refunded, cancelled,
// changed, and when they are rebuilt.
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { formatChange, readDateRange, type DateRange } from "~/lib/date-range";
import { analyticsView, customerCounts } from "~/server/insight/analytics/figures.server";
import {
  DELETED_PRODUCTS_ID,
  netSalesByDay,
  netSalesTotals,
  salesByCategory,
  salesByDay,
  salesByProduct,
  salesTotals,
} from "~/server/insight/analytics/sales.server";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { recordCharge, recordPendingRefund, settleRefund } from "~/server/commerce/settlement/ledger.server";
import type { Db } from "~/server/platform/db/client.server";
import { orderItems, orderMoneyMovements, orders, paymentTasks, products, searchTermsDaily, visitsDaily } from "~/server/platform/db/schema";
import { runShopJobs } from "../factories/jobs";
import { makeProduct, makeProducts, type ProductRow } from "../factories/products";
import { placeOrder } from "../factories/sold-orders";
import { makeAdmin, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { orderRow, paidOrder } from "./admin-orders-helpers";
import { args } from "./route-args";

const t = useTestDatabase();

const custom = (from: string, to: string): DateRange => {
  const { range, error } = readDateRange(new URLSearchParams({ range: "custom", from, to }));
  expect(error).toBeNull();
  return range;
};

/** Every roll-up row, in a stable order, to compare the triggers' result with a rebuild's. */
async function rollupRows(db: Db) {
  const q = async (text: string) => (await db.execute(sql.raw(text))).rows;
  return {
    daily: await q("select day::text, orders, revenue_cents::text, units, subtotal_cents::text, discount_cents::text, shipping_cents::text, tax_cents::text, discounted_orders from sales_daily order by 1"),
    products: await q("select day::text, product_id, name, category, units, revenue_cents::text from sales_daily_products order by 1, 2"),
    monthly: await q("select month::text, product_id, name, category, units, revenue_cents::text from sales_monthly_products order by 1, 2"),
    categories: await q("select day::text, category, units, revenue_cents::text from sales_daily_categories order by 1, 2"),
    first: await q("select day::text, customers from first_orders_daily order by 1"),
    repeat: await q("select day::text, previous_day::text, orders from repeat_orders_daily order by 1, 2"),
    searchMonthly: await q("select month::text, term, searches, empty_searches from search_terms_monthly order by 1, 2"),
    ledger: await q("select order_id, day::text, email_key, previous_day::text, revenue_cents::text, units, product_ids::text, categories::text, product_units::text, product_revenue_cents::text from sales_counted_orders order by 1"),
    refunds: await q("select day::text, refunds, refunded_cents::text from sales_refunds_daily order by 1"),
    refundLedger: await q("select order_id, day::text, refunds, refunded_cents::text from sales_counted_refunds order by 1, 2"),
  };
}

async function rebuild(db: Db) {
  await db.execute(sql`select sales_rollups_rebuild()`);
}

// March 1–10, 2026, compared with February 19–28, 2026.
const MARCH = () => custom("2026-03-01", "2026-03-10");

let alpha: ProductRow; // Bedding
let bravo: ProductRow; // Bath
let charlie: ProductRow; // Bedding

describe("the Analytics figures on a known shop", () => {
  beforeAll(async () => {
    const db = t.db;
    alpha = await makeProduct(db, { name: "Alpha Sheet", category: "Bedding" });
    bravo = await makeProduct(db, { name: "Bravo Towel", category: "Bath" });
    charlie = await makeProduct(db, { name: "Charlie Pillow", category: "Bedding" });

    // Before the range: Hal's first order (January), Ann's and Bob's first (the previous period).
    await placeOrder(db, { email: "hal@example.test", paidAt: "2026-01-15T12:00:00Z", lines: [[charlie, 1, 2000]] });
    await placeOrder(db, { email: "ann@example.test", paidAt: "2026-02-20T10:00:00Z", lines: [[alpha, 2, 1000]], shippingCents: 500 });
    await placeOrder(db, { email: "bob@example.test", paidAt: "2026-02-25T23:30:00Z", lines: [[bravo, 1, 3000]] });
    // In the range. Ann again (address in capitals: the same customer), at the first instant of March 1:
    // lines 1000 + 3000, a 10% code (100 + 300), shipping 500, tax 328 → 4,428.
    await placeOrder(db, {
      email: "ANN@example.test",
      paidAt: "2026-03-01T00:00:00Z",
      lines: [
        [alpha, 1, 1000, 100],
        [bravo, 2, 1500, 300],
      ],
      discountCode: "SAVE10",
      shippingCents: 500,
      taxCents: 328,
    });
    // Cara's first order, at the last second of March 1 (UTC), then her second on March 5.
    await placeOrder(db, { email: "cara@example.test", paidAt: "2026-03-01T23:59:59Z", status: "shipped", lines: [[charlie, 3, 2000]] });
    await placeOrder(db, { email: "cara@example.test", paidAt: "2026-03-05T12:00:00Z", lines: [[alpha, 1, 1000]] });
    // Never revenue: unpaid, failed, expired. (A paid order refunded or cancelled later keeps its
    // gross on the day it was paid: "each refund on its own day" below.)
    await placeOrder(db, { email: "fay@example.test", lines: [[charlie, 2, 2000]] });
    await placeOrder(db, { email: "gus@example.test", paymentStatus: "failed", status: "cancelled", lines: [[charlie, 2, 2000]] });
    await placeOrder(db, { email: "kim@example.test", paymentStatus: "expired", status: "cancelled", lines: [[alpha, 1, 1000]] });
    // Jo's line's product was deleted before the order: 'Deleted products'.
    await placeOrder(db, { email: "jo@example.test", paidAt: "2026-03-06T15:00:00Z", lines: [[null, 1, 1500]] });
    // Hal returns on March 7; Bob on March 10 (the last day of the range).
    await placeOrder(db, { email: "hal@example.test", paidAt: "2026-03-07T09:00:00Z", lines: [[charlie, 1, 2000]] });
    await placeOrder(db, { email: "bob@example.test", paidAt: "2026-03-10T18:00:00Z", lines: [[bravo, 1, 3000]] });
    // The day after the range.
    await placeOrder(db, { email: "ivy@example.test", paidAt: "2026-03-11T00:00:00Z", lines: [[alpha, 9, 1000]] });

    await db.insert(visitsDaily).values([
      { day: "2026-02-28", pageViews: 5000, visitors: 999, productViewers: 500, cartAdders: 100, checkoutStarters: 50 },
      { day: "2026-03-01", pageViews: 400, visitors: 100, productViewers: 60, cartAdders: 20, checkoutStarters: 10 },
      { day: "2026-03-02", pageViews: 200, visitors: 50, productViewers: 30, cartAdders: 10, checkoutStarters: 5 },
    ]);
    await db.insert(searchTermsDaily).values([
      { day: "2026-02-28", term: "ignored", searches: 50, emptySearches: 50 },
      { day: "2026-03-01", term: "duvet", searches: 5, emptySearches: 0 },
      { day: "2026-03-01", term: "silk pillow", searches: 3, emptySearches: 3 },
      { day: "2026-03-02", term: "duvet", searches: 2, emptySearches: 1 },
      { day: "2026-03-02", term: "towel", searches: 4, emptySearches: 0 },
    ]);
  });

  it("counts revenue, paid orders, average order value and units of the orders that count, against the previous period", async () => {
    const view = await analyticsView(t.db, MARCH());
    // March: Ann 4,428 + Cara 6,000 + Cara 1,000 + Jo 1,500 + Hal 2,000 + Bob 3,000 = 17,928 in 6 orders,
    // units 3 + 3 + 1 + 1 + 1 + 1 = 10. February 19–28: Ann 2,500 + Bob 3,000 in 2 orders, 3 units.
    expect(view.figures.revenueCents).toEqual({ current: 17_928, previous: 5_500, change: 226 });
    expect(view.figures.orders).toEqual({ current: 6, previous: 2, change: 200 });
    // 17,928 / 6 = 2,988; 5,500 / 2 = 2,750; +8.65…% → 8.7.
    expect(view.figures.averageOrderCents).toEqual({ current: 2_988, previous: 2_750, change: 8.7 });
    expect(view.figures.units).toEqual({ current: 10, previous: 3, change: 233.3 });
    expect(formatChange(view.figures.revenueCents.change)).toBe("+226%");
  });

  it("counts new customers (first counted order in the range) and returning ones (a first before it)", async () => {
    const view = await analyticsView(t.db, MARCH());
    // New in March: Cara, Jo. Returning: Ann (February), Hal (January), Bob (February) — Cara's
    // second order does not make her returning. February 19–28: Ann and Bob new, nobody returning.
    expect(view.figures.newCustomers).toEqual({ current: 2, previous: 2, change: 0 });
    expect(view.figures.returningCustomers).toEqual({ current: 3, previous: 0, change: null });
    // A range starting March 2: Cara's first order (March 1) is before it, so she returns on March 5.
    expect(await customerCounts(t.db, custom("2026-03-02", "2026-03-10"))).toEqual({ newCustomers: 1, returningCustomers: 3 });
    // The whole year so far: everyone is new, Hal and Ann and Bob and Cara only once.
    expect(await customerCounts(t.db, custom("2026-01-01", "2026-03-31"))).toEqual({ newCustomers: 6, returningCustomers: 0 });
  });

  it("matches the customers roll-up's first orders", async () => {
    const [row] = (
      await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from customers where first_order_at >= '2026-03-01' and first_order_at < '2026-03-11'`,
      )
    ).rows;
    expect(row!.n).toBe(2);
  });

  it("charts revenue and orders per day, days without sales as zeros", async () => {
    const { chart } = await analyticsView(t.db, MARCH());
    expect(chart.bucket).toBe("day");
    expect(chart.points.map((p) => [p.start, p.revenueCents, p.orders])).toEqual([
      ["2026-03-01", 10_428, 2],
      ["2026-03-02", 0, 0],
      ["2026-03-03", 0, 0],
      ["2026-03-04", 0, 0],
      ["2026-03-05", 1_000, 1],
      ["2026-03-06", 1_500, 1],
      ["2026-03-07", 2_000, 1],
      ["2026-03-08", 0, 0],
      ["2026-03-09", 0, 0],
      ["2026-03-10", 3_000, 1],
    ]);
    expect(chart.points[0]!.label).toBe("Mar 1");
  });

  it("ranks products and categories by revenue (lines less their discount share) and by units", async () => {
    const { topProducts, topCategories } = await analyticsView(t.db, MARCH());
    // Alpha: 1,000 − 100 + 1,000 = 1,900 (2 units); Bravo: 3,000 − 300 + 3,000 = 5,700 (3);
    // Charlie: 6,000 + 2,000 = 8,000 (4); the deleted product: 1,500 (1).
    const rows = (list: { name?: string; category: string; units: number; revenueCents: number }[]) =>
      list.map((r) => [r.name ?? r.category, r.units, r.revenueCents]);
    expect(rows(topProducts.byRevenue)).toEqual([
      ["Charlie Pillow", 4, 8_000],
      ["Bravo Towel", 3, 5_700],
      ["Alpha Sheet", 2, 1_900],
      ["Deleted products", 1, 1_500],
    ]);
    expect(topProducts.byRevenue[3]!.productId).toBe(DELETED_PRODUCTS_ID);
    expect(rows(topProducts.byUnits).map((r) => r[0])).toEqual(["Charlie Pillow", "Bravo Towel", "Alpha Sheet", "Deleted products"]);
    expect(rows(topCategories.byRevenue)).toEqual([
      ["Bedding", 6, 9_900],
      ["Bath", 3, 5_700],
      ["Deleted products", 1, 1_500],
    ]);
    expect(rows(topCategories.byUnits)).toEqual(rows(topCategories.byRevenue));
  });

  it("reads whole months and partial months alike", async () => {
    // February 15 – March 31: whole March from the monthly roll-up, Feb 15–28 day by day.
    const products = await salesByProduct(t.db, custom("2026-02-15", "2026-03-31"));
    // Alpha: Ann's 2,000 + 900 + Cara's 1,000 + Ivy's 9,000 (March 11); Bravo: 3,000 + 2,700 + 3,000.
    expect(products.map((p) => [p.name, p.units, p.revenueCents])).toEqual([
      ["Alpha Sheet", 13, 12_900],
      ["Bravo Towel", 4, 8_700],
      ["Charlie Pillow", 4, 8_000],
      ["Deleted products", 1, 1_500],
    ]);
    const byUnits = await salesByProduct(t.db, custom("2026-02-15", "2026-03-31"), { by: "units", limit: 2 });
    expect(byUnits.map((p) => p.name)).toEqual(["Alpha Sheet", "Bravo Towel"]);
    expect(await salesByCategory(t.db, custom("2026-01-01", "2026-01-31"))).toEqual([{ category: "Bedding", units: 1, revenueCents: 2_000 }]);
  });

  it("gives every day's sales parts for the reports", async () => {
    const days = await salesByDay(t.db, custom("2026-03-01", "2026-03-02"));
    expect(days).toEqual([
      {
        day: "2026-03-01",
        orders: 2,
        revenueCents: 10_428,
        units: 6,
        subtotalCents: 10_000,
        discountCents: 400,
        shippingCents: 500,
        taxCents: 328,
        discountedOrders: 1,
      },
      { day: "2026-03-02", orders: 0, revenueCents: 0, units: 0, subtotalCents: 0, discountCents: 0, shippingCents: 0, taxCents: 0, discountedOrders: 0 },
    ]);
    expect(await salesTotals(t.db, custom("2026-03-02", "2026-03-04"))).toMatchObject({ orders: 0, revenueCents: 0, averageOrderCents: null });
  });

  it("shows the funnel with the drop at each step", async () => {
    const { funnel } = await analyticsView(t.db, MARCH());
    // 150 visitors → 90 viewed a product (40% drop) → 30 added to cart (66.7%) → 15 started checkout (50%) → 6 paid (60%).
    expect(funnel.map((s) => [s.label, s.count, s.dropPercent])).toEqual([
      ["Visitors", 150, null],
      ["Viewed a product", 90, 40],
      ["Added to cart", 30, 66.7],
      ["Started checkout", 15, 50],
      ["Paid orders", 6, 60],
    ]);
  });

  it("lists the most searched terms and the terms that found nothing", async () => {
    const { searches } = await analyticsView(t.db, MARCH());
    expect(searches.top).toEqual([
      { term: "duvet", count: 7 },
      { term: "towel", count: 4 },
      { term: "silk pillow", count: 3 },
    ]);
    expect(searches.empty).toEqual([
      { term: "silk pillow", count: 3 },
      { term: "duvet", count: 1 },
    ]);
  });

  it("gives the same roll-up rows when rebuilt from the orders", async () => {
    const byTriggers = await rollupRows(t.db);
    expect(byTriggers.daily.length).toBeGreaterThan(0);
    await rebuild(t.db);
    expect(await rollupRows(t.db)).toEqual(byTriggers);
  });
});

describe("the roll-ups as orders change", () => {
  // These orders are paid in 2025, apart from the shop above.
  const JUNE = () => custom("2025-06-01", "2025-06-30");
  let towel: ProductRow;
  let quilt: ProductRow;

  beforeAll(async () => {
    towel = await makeProduct(t.db, { name: "Hand Towel", category: "Bath" });
    quilt = await makeProduct(t.db, { name: "Summer Quilt", category: "Bedding" });
  });

  const setStatus = (id: string, set: Partial<typeof orders.$inferInsert>) => t.db.update(orders).set(set).where(eq(orders.id, id));

  it("counts an order from the moment it is paid, and a line added to a counted order", async () => {
    const order = await placeOrder(t.db, { email: "ola@example.test", lines: [[quilt, 1, 8000]] });
    expect((await salesTotals(t.db, custom("2025-06-10", "2025-06-10"))).orders).toBe(0);
    await setStatus(order.id, { paymentStatus: "paid", status: "processing", paidAt: new Date("2025-06-10T08:00:00Z") });
    expect(await salesTotals(t.db, custom("2025-06-10", "2025-06-10"))).toMatchObject({ orders: 1, revenueCents: 8000, units: 1 });

    await t.db.insert(orderItems).values({ orderId: order.id, productId: towel.id, name: towel.name, unitPriceCents: 1000, quantity: 3, lineTotalCents: 3000 });
    await setStatus(order.id, { subtotalCents: 11_000, totalAmountCents: 11_000 });
    expect(await salesTotals(t.db, custom("2025-06-10", "2025-06-10"))).toMatchObject({ orders: 1, revenueCents: 11_000, units: 4 });
    expect((await salesByProduct(t.db, custom("2025-06-10", "2025-06-10"))).map((p) => [p.name, p.units])).toEqual([
      ["Summer Quilt", 1],
      ["Hand Towel", 3],
    ]);
  });

  it("makes a customer's next order their first when their first stops counting, and not when it is refunded", async () => {
    const first = await placeOrder(t.db, { email: "pat@example.test", paidAt: "2025-05-20T10:00:00Z", lines: [[towel, 1, 1000]] });
    await placeOrder(t.db, { email: "Pat@Example.test", paidAt: "2025-06-15T10:00:00Z", lines: [[towel, 1, 1000]] });
    const june15 = custom("2025-06-15", "2025-06-15");
    expect(await customerCounts(t.db, june15)).toEqual({ newCustomers: 0, returningCustomers: 1 });
    // Refunded: it was still paid, on May 20, so Pat still returns on June 15.
    await setStatus(first.id, { paymentStatus: "refunded" });
    expect(await customerCounts(t.db, june15)).toEqual({ newCustomers: 0, returningCustomers: 1 });
    // Its payment undone (marked failed by hand): the June order is Pat's first.
    await setStatus(first.id, { paymentStatus: "failed" });
    expect(await customerCounts(t.db, june15)).toEqual({ newCustomers: 1, returningCustomers: 0 });
    // Paid again (a payment taken by hand): Pat returns on June 15 again.
    await setStatus(first.id, { paymentStatus: "paid" });
    expect(await customerCounts(t.db, june15)).toEqual({ newCustomers: 0, returningCustomers: 1 });
  });

  it("moves an order whose payment day changes", async () => {
    const order = await placeOrder(t.db, { email: "quin@example.test", paidAt: "2025-06-21T10:00:00Z", lines: [[towel, 2, 1000]] });
    await setStatus(order.id, { paidAt: new Date("2025-06-22T10:00:00Z") });
    const days = await salesByDay(t.db, custom("2025-06-21", "2025-06-22"));
    expect(days.map((d) => [d.day, d.orders, d.units])).toEqual([
      ["2025-06-21", 0, 0],
      ["2025-06-22", 1, 2],
    ]);
  });

  it("stays exact when one customer's orders are paid and moved at the same time", async () => {
    // Twenty orders of one customer, paid at once from twenty connections, then every other one
    // moved to September at once: each commit must see the others to link first and repeat orders right.
    // The customers roll-up's trigger locks the customer's row at commit too, which would
    // serialise these commits by itself: it is off here, so the sales roll-ups' own lock is tested.
    await t.db.execute(sql`alter table orders disable trigger customers_orders_update`);
    onTestFinished(() => t.db.execute(sql`alter table orders enable trigger customers_orders_update`).then(() => undefined));
    const placed = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        placeOrder(t.db, { email: "zed@example.test", lines: [[i % 2 ? towel : quilt, 1, 1000 + i]] }),
      ),
    );
    await Promise.all(
      placed.map((o, i) =>
        setStatus(o.id, { paymentStatus: "paid", status: "processing", paidAt: new Date(Date.UTC(2025, 7, 1 + (i % 10), 10, i)) }),
      ),
    );
    const august = custom("2025-08-01", "2025-08-31");
    expect(await customerCounts(t.db, august)).toEqual({ newCustomers: 1, returningCustomers: 0 });
    expect(await customerCounts(t.db, custom("2025-08-02", "2025-08-31"))).toEqual({ newCustomers: 0, returningCustomers: 1 });
    await Promise.all(
      placed.map((o, i) => (i % 2 === 0 ? setStatus(o.id, { paidAt: new Date(Date.UTC(2025, 8, 1 + (i % 10), 10, i)) }) : null)),
    );
    // Left in August: the odd ones, the first of them on August 2.
    expect(await customerCounts(t.db, custom("2025-08-02", "2025-08-02"))).toEqual({ newCustomers: 1, returningCustomers: 0 });
    expect(await salesTotals(t.db, august)).toMatchObject({ orders: 10, units: 10 });
    const byTriggers = await rollupRows(t.db);
    await rebuild(t.db);
    expect(await rollupRows(t.db)).toEqual(byTriggers);
  });

  it("still gives the same rows when rebuilt after all these changes", async () => {
    const byTriggers = await rollupRows(t.db);
    await rebuild(t.db);
    expect(await rollupRows(t.db)).toEqual(byTriggers);
  });

  it("takes back exactly what was counted when the product moved category or was deleted since", async () => {
    const throwaway = await makeProduct(t.db, { name: "Linen Robe", category: "Bath" });
    const robe = await placeOrder(t.db, { email: "rae@example.test", paidAt: "2025-07-01T10:00:00Z", lines: [[throwaway, 1, 5000]] });
    const robe2 = await placeOrder(t.db, { email: "sam@example.test", paidAt: "2025-07-01T11:00:00Z", lines: [[throwaway, 1, 5000]] });
    await t.db.update(products).set({ category: "Clothing" }).where(eq(products.id, throwaway.id));
    const july1 = custom("2025-07-01", "2025-07-01");
    // Counted as Bath when sold; the category's later change does not rewrite the past.
    expect(await salesByCategory(t.db, july1)).toEqual([{ category: "Bath", units: 2, revenueCents: 10_000 }]);
    // Its payment undone (marked failed by hand; a refund would leave it counted): taken back as Bath.
    await setStatus(robe.id, { paymentStatus: "failed" });
    expect(await salesByCategory(t.db, july1)).toEqual([{ category: "Bath", units: 1, revenueCents: 5_000 }]);

    await t.db.delete(products).where(eq(products.id, throwaway.id));
    // Its history stays under its name; a move after the deletion takes it back from there.
    expect((await salesByProduct(t.db, july1)).map((p) => [p.name, p.units])).toEqual([["Linen Robe", 1]]);
    await setStatus(robe2.id, { paymentStatus: "failed" });
    expect(await salesByProduct(t.db, july1)).toEqual([]);
    expect(await salesByCategory(t.db, july1)).toEqual([]);
    expect(await salesTotals(t.db, july1)).toMatchObject({ orders: 0, revenueCents: 0 });
  });
});

/** A refund of `cents` recorded through the ledger's own functions, pending at the provider: its call's id. */
async function pendingRefund(db: Db, orderId: string, cents: number): Promise<string> {
  const [task] = await db
    .insert(paymentTasks)
    .values({ orderId, kind: "refund", idempotencyKey: `test-refund-${randomUUID()}`, state: "done", amountCents: cents, doneAt: new Date() })
    .returning();
  await db.transaction((tx) => recordPendingRefund(tx, { orderId, paymentTaskId: task!.id, amountCents: cents, reason: "Part refunded" }));
  return task!.id;
}

/** The provider's answer to that refund; a success dated `at` (ISO) when given. */
async function settle(db: Db, taskId: string, outcome: "succeeded" | "failed", at?: string) {
  await db.transaction((tx) => settleRefund(tx, taskId, outcome));
  if (at) await db.update(orderMoneyMovements).set({ settledAt: new Date(at) }).where(eq(orderMoneyMovements.paymentTaskId, taskId));
}

describe("each refund on its own day", () => {
  // Paid October 1, 2024: 2 × $10.00 + $5.00 shipping = $25.00; $7.00 of it refunded October 3.
  const DAY1 = "2024-10-01";
  const DAY3 = "2024-10-03";
  const NOTHING = { orders: 0, grossCents: 0, refunds: 0, refundedCents: 0, netCents: 0 };
  let order: typeof orders.$inferSelect;

  beforeAll(async () => {
    const towel = await makeProduct(t.db, { name: "Refund Towel", category: "Bath" });
    order = await placeOrder(t.db, { email: "rhea@example.test", paidAt: `${DAY1}T10:00:00Z`, lines: [[towel, 2, 1000]], shippingCents: 500 });
    await t.db.transaction((tx) => recordCharge(tx, order, order.totalAmountCents, null));
    await settle(t.db, await pendingRefund(t.db, order.id, 700), "succeeded", `${DAY3}T09:30:00Z`);
  });

  it("keeps the order's gross on the day it was paid and its partial refund on the day the refund succeeded", async () => {
    expect((await orderRow(t.db, order.id)).paymentStatus).toBe("partially_refunded");
    expect(await netSalesByDay(t.db, custom(DAY1, DAY3))).toEqual([
      { day: DAY1, orders: 1, grossCents: 2500, refunds: 0, refundedCents: 0, netCents: 2500 },
      { day: "2024-10-02", ...NOTHING },
      { day: DAY3, orders: 0, grossCents: 0, refunds: 1, refundedCents: 700, netCents: -700 },
    ]);
    // Day 1's sales are what they were when it was paid: the order, its units, its lines.
    expect(await salesTotals(t.db, custom(DAY1, DAY1))).toMatchObject({ orders: 1, revenueCents: 2500, units: 2 });
    expect(await salesByCategory(t.db, custom(DAY1, DAY1))).toEqual([{ category: "Bath", units: 2, revenueCents: 2000 }]);
  });

  it("shows a range of day 3 alone as gross 0, refunds $7.00 and net −$7.00, on the Analytics page too", async () => {
    expect(await netSalesTotals(t.db, custom(DAY3, DAY3))).toEqual({ orders: 0, grossCents: 0, refunds: 1, refundedCents: 700, netCents: -700 });
    const { figures, chart } = await analyticsView(t.db, custom(DAY3, DAY3));
    expect([figures.revenueCents.current, figures.refundedCents.current, figures.netSalesCents.current]).toEqual([0, 700, -700]);
    expect(chart.points.map((p) => [p.start, p.revenueCents, p.refundedCents, p.netCents])).toEqual([[DAY3, 0, 700, -700]]);
  });

  it("counts no refund the provider refused or has not answered yet", async () => {
    await settle(t.db, await pendingRefund(t.db, order.id, 300), "failed");
    await pendingRefund(t.db, order.id, 200);
    const october = custom(DAY1, "2024-10-31");
    expect(await netSalesTotals(t.db, october)).toEqual({ orders: 1, grossCents: 2500, refunds: 1, refundedCents: 700, netCents: 1800 });
    // Nor when the figures are worked out again from the orders and the ledger.
    await rebuild(t.db);
    expect(await netSalesTotals(t.db, october)).toEqual({ orders: 1, grossCents: 2500, refunds: 1, refundedCents: 700, netCents: 1800 });
  });

  it("counts a paid order cancelled later as a refund of what was left, on the day it was cancelled, once", async () => {
    const admin = await makeAdmin(t.db);
    const actor = { id: admin.id, name: "Ada", email: admin.email };
    // Paid (through the checkout and the test provider) on October 10, $10.00 refunded October 12,
    // cancelled today with the rest refunded.
    const { orderId } = await paidOrder(t.db, { quantity: 2, priceCents: 2500 });
    await t.db.update(orders).set({ paidAt: new Date("2024-10-10T10:00:00Z") }).where(eq(orders.id, orderId));
    const total = (await orderRow(t.db, orderId)).totalAmountCents;
    await settle(t.db, await pendingRefund(t.db, orderId, 1000), "succeeded", "2024-10-12T10:00:00Z");
    const cancel = await changeOrderStatus(t.db, { orderId, to: "cancelled", expectedVersion: (await orderRow(t.db, orderId)).version, actor, refund: true });
    expect(cancel.refund).toBe("refunded");
    await runShopJobs(t.db);
    expect((await orderRow(t.db, orderId)).paymentStatus).toBe("refunded");
    // And a paid order cancelled without giving the money back: its sale is undone all the same.
    const kept = await placeOrder(t.db, { email: "kit@example.test", paidAt: "2024-10-11T10:00:00Z", lines: [[null, 1, 4000]] });
    await changeOrderStatus(t.db, { orderId: kept.id, to: "cancelled", expectedVersion: kept.version, actor, refund: false });

    expect(await netSalesByDay(t.db, custom("2024-10-10", "2024-10-12"))).toEqual([
      { day: "2024-10-10", orders: 1, grossCents: total, refunds: 0, refundedCents: 0, netCents: total },
      { day: "2024-10-11", orders: 1, grossCents: 4000, refunds: 0, refundedCents: 0, netCents: 4000 },
      { day: "2024-10-12", orders: 0, grossCents: 0, refunds: 1, refundedCents: 1000, netCents: -1000 },
    ]);
    // Today: the rest of the first (its refund row, which succeeded after the cancel, is that same
    // refund, not a second one) and the whole of the second.
    const today = new Date().toISOString().slice(0, 10);
    expect(await netSalesTotals(t.db, custom(today, today))).toMatchObject({ refunds: 2, refundedCents: total - 1000 + 4000 });
  });

  it("gives the same roll-up rows when rebuilt from the orders and the ledger", async () => {
    const byTriggers = await rollupRows(t.db);
    expect(byTriggers.refunds.length).toBeGreaterThan(0);
    await rebuild(t.db);
    expect(await rollupRows(t.db)).toEqual(byTriggers);
  });
});

describe("the top products on a big catalogue", () => {
  it("finds a product that is never among a month's best 100 but sells the most over both", async () => {
    // January 2024: 100 products sell 10 each, the steady one 9; February: 100 others sell 10
    // each, the steady one 9 again. Over both months the steady one leads with 18.
    const steady = await makeProduct(t.db, { name: "Steady Seller", category: "Bath" });
    const january = await makeProducts(t.db, 100, (i) => ({ name: `January Hit ${String(i).padStart(3, "0")}`, category: "Decor" }));
    const february = await makeProducts(t.db, 100, (i) => ({ name: `February Hit ${String(i).padStart(3, "0")}`, category: "Decor" }));
    await placeOrder(t.db, { email: "bulk@example.test", paidAt: "2024-01-10T10:00:00Z", lines: [...january.map((p): [ProductRow, number, number] => [p, 10, 100]), [steady, 9, 100]] });
    await placeOrder(t.db, { email: "bulk@example.test", paidAt: "2024-02-10T10:00:00Z", lines: [...february.map((p): [ProductRow, number, number] => [p, 10, 100]), [steady, 9, 100]] });
    const winter = custom("2024-01-01", "2024-02-29");
    const top = await salesByProduct(t.db, winter, { limit: 3, by: "units" });
    expect(top.map((p) => [p.name, p.units])).toEqual([
      ["Steady Seller", 18],
      ["February Hit 000", 10],
      ["February Hit 001", 10],
    ]);
    // The same as summing every product, whichever way it is ranked and cut.
    for (const by of ["revenue", "units"] as const) {
      for (const range of [winter, custom("2024-01-05", "2024-02-20"), custom("2024-01-10", "2024-01-31")]) {
        expect(await salesByProduct(t.db, range, { limit: 10, by })).toEqual((await salesByProduct(t.db, range, { by })).slice(0, 10));
      }
    }
  });
});

describe("the monthly search terms", () => {
  const monthly = async () =>
    (await t.db.execute(sql`select month::text, term, searches, empty_searches from search_terms_monthly where month < '2024-12-01' order by 1, 2`)).rows;
  const fromDaily = async () =>
    (
      await t.db.execute(
        sql`select date_trunc('month', day)::date::text as month, term, sum(searches)::int as searches, sum(empty_searches)::int as empty_searches
            from search_terms_daily where day < '2024-12-01' group by 1, 2 order by 1, 2`,
      )
    ).rows;

  it("follow the daily counts as the visit counter adds, updates and deletes them", async () => {
    await t.db.insert(searchTermsDaily).values([
      { day: "2024-10-30", term: "quilt", searches: 2, emptySearches: 0 },
      { day: "2024-10-31", term: "quilt", searches: 3, emptySearches: 1 },
      { day: "2024-11-01", term: "quilt", searches: 1, emptySearches: 0 },
    ]);
    // The counter's batch: an upsert adding to existing rows and making new ones.
    await t.db.execute(sql`
      insert into search_terms_daily (day, term, searches, empty_searches)
      values ('2024-10-31', 'quilt', 4, 4), ('2024-10-31', 'velvet', 1, 1)
      on conflict (day, term) do update set searches = search_terms_daily.searches + excluded.searches,
        empty_searches = search_terms_daily.empty_searches + excluded.empty_searches`);
    expect(await monthly()).toEqual([
      { month: "2024-10-01", term: "quilt", searches: 9, empty_searches: 5 },
      { month: "2024-10-01", term: "velvet", searches: 1, empty_searches: 1 },
      { month: "2024-11-01", term: "quilt", searches: 1, empty_searches: 0 },
    ]);
    await t.db.execute(sql`delete from search_terms_daily where term = 'velvet' or day = '2024-10-30'`);
    expect(await monthly()).toEqual([
      { month: "2024-10-01", term: "quilt", searches: 7, empty_searches: 5 },
      { month: "2024-11-01", term: "quilt", searches: 1, empty_searches: 0 },
    ]);
    expect(await monthly()).toEqual(await fromDaily());
    // October 31 – November 1: one day of October (from the daily rows) and one of November.
    const { searchTerms } = await import("~/server/insight/analytics/figures.server");
    expect(await searchTerms(t.db, custom("2024-10-31", "2024-11-01"))).toEqual({
      top: [{ term: "quilt", count: 8 }],
      empty: [{ term: "quilt", count: 5 }],
    });
    // October 2 – 31 reads October less its first day.
    expect((await searchTerms(t.db, custom("2024-10-02", "2024-10-31"))).top).toEqual([{ term: "quilt", count: 7 }]);
    await rebuild(t.db);
    expect(await monthly()).toEqual(await fromDaily());
  });
});

describe("the Analytics page's loader", () => {
  it("answers a bad range with a message and the default range", async () => {
    const { loader } = await import("~/routes/admin/analytics");
    const admin = await makeAdmin(t.db);
    const data = await loader(args(await requestAs(t.db, admin, "/admin/analytics?range=custom&from=2026-03-10&to=2026-03-01")));
    expect(data.error).toBe("The end date is before the start date. Showing the last 30 days.");
    expect(data.view.range.preset).toBe("30d");
    expect(data.view.range.days).toBe(30);
  });
});
