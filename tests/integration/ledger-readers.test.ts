// Everything that shows money reads the order ledger (docs/money-path.md, "Who reads the ledger"):
// the order's cached payment status, the order list and its filter, analytics and reports (each
// refund on the day it succeeded), customer totals, the dashboard and the CSV exports.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { readDateRange, type DateRange } from "~/lib/date-range";
import { loader as ordersExportLoader } from "~/routes/admin/orders/export";
import { loader as ordersListLoader } from "~/routes/admin/orders/index";
import { loader as reportsExportLoader } from "~/routes/admin/reports-export";
import { netSalesByDay, netSalesTotals, salesTotals } from "~/server/insight/analytics/sales.server";
import { getDashboardStats } from "~/server/insight/dashboard/dashboard.server";
import { analyticsView } from "~/server/insight/analytics/figures.server";
import { getAdminOrderStats } from "~/server/commerce/orders/admin-orders.server";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { keepPaymentStatus, orderMoney, recordCharge, recordPendingRefund, settleRefund } from "~/server/commerce/settlement/ledger.server";
import type { Db } from "~/server/platform/db/client.server";
import { customers, orderMoneyMovements, orders, paymentTasks } from "~/server/platform/db/schema";
import { runShopJobs } from "../factories/jobs";
import { makeProduct } from "../factories/products";
import { placeOrder } from "../factories/sold-orders";
import { makeAdmin, requestAs, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get } from "./admin-catalog-helpers";
import { orderRow, paidOrder } from "./admin-orders-helpers";
import { args } from "./route-args";

const t = useTestDatabase();

/**
 * A refund of `cents` that succeeded at `at` (ISO), written through the ledger's own functions
 * with a done provider call, as a partial refund is: the row, then its success.
 */
export async function partlyRefund(db: Db, orderId: string, cents: number, at?: string) {
  const [task] = await db
    .insert(paymentTasks)
    .values({ orderId, kind: "refund", idempotencyKey: `test-refund-${randomUUID()}`, state: "done", amountCents: cents, doneAt: new Date() })
    .returning();
  await db.transaction(async (tx) => {
    await recordPendingRefund(tx, { orderId, paymentTaskId: task!.id, amountCents: cents, reason: "Part refunded" });
    await settleRefund(tx, task!.id, "succeeded");
  });
  if (at) await db.update(orderMoneyMovements).set({ createdAt: new Date(at), settledAt: new Date(at) }).where(eq(orderMoneyMovements.paymentTaskId, task!.id));
}

/** The ledger's charge for an order inserted as it stands (tests/factories/sold-orders.ts). */
export async function chargeFor(db: Db, order: typeof orders.$inferSelect) {
  await db.transaction((tx) => recordCharge(tx, order, order.totalAmountCents, null));
}

async function cacheOf(orderId: string) {
  const row = await orderRow(t.db, orderId);
  return { paymentStatus: row.paymentStatus, refundedCents: row.refundedCents };
}

describe("the order's payment status is the ledger's", () => {
  it("after a partial refund, a second one and a cancel that refunds the rest, payment_status and refunded_cents equal the ledger's", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId } = await paidOrder(t.db, { quantity: 2, priceCents: 2500 });
    const total = (await orderRow(t.db, orderId)).totalAmountCents;
    const expectLedger = async (paymentStatus: string, refundedCents: number) => {
      expect((await orderMoney(t.db, orderId)).paymentState).toBe(paymentStatus);
      expect(await cacheOf(orderId)).toEqual({ paymentStatus, refundedCents });
    };
    await expectLedger("paid", 0);

    await partlyRefund(t.db, orderId, 1000);
    await expectLedger("partially_refunded", 1000);
    await partlyRefund(t.db, orderId, 500);
    await expectLedger("partially_refunded", 1500);

    // Cancelling gives back what is left, and the order ends refunded.
    const order = await orderRow(t.db, orderId);
    const result = await changeOrderStatus(t.db, {
      orderId,
      to: "cancelled",
      expectedVersion: order.version,
      actor: { id: admin.id, name: "Ada", email: admin.email },
      refund: true,
    });
    expect(result.refund).toBe("refunded");
    await runShopJobs(t.db);
    expect((await orderMoney(t.db, orderId)).refundedCents).toBe(total);
    await expectLedger("refunded", total);

    // Recomputing changes nothing.
    await t.db.transaction((tx) => keepPaymentStatus(tx, orderId));
    await expectLedger("refunded", total);
  });
});

const custom = (from: string, to: string): DateRange => {
  const { range, error } = readDateRange(new URLSearchParams({ range: "custom", from, to }));
  expect(error).toBeNull();
  return range;
};

async function csvOf(loader: (a: ReturnType<typeof args>) => unknown, as: TestUser, url: string) {
  const request = await requestAs(t.db, as, url);
  const res = (await loader(args(request))) as Response;
  expect(res.status).toBe(200);
  return Papa.parse<string[]>((await res.text()).trimEnd()).data;
}

describe("an order paid on April 1 and partly refunded on April 3", () => {
  let admin: TestUser;
  let order: typeof orders.$inferSelect;
  const APRIL = () => custom("2024-04-01", "2024-04-03");

  beforeAll(async () => {
    admin = await makeAdmin(t.db);
    const quilt = await makeProduct(t.db, { name: "Ledger Quilt", category: "Bedding" });
    // 2 × $25.00 + $5.00 shipping = $55.00, paid April 1; $10.00 of it refunded April 3.
    order = await placeOrder(t.db, { email: "Lena@Ledger.test", paidAt: "2024-04-01T10:00:00Z", lines: [[quilt, 2, 2500]], shippingCents: 500 });
    await chargeFor(t.db, order);
    await partlyRefund(t.db, order.id, 1000, "2024-04-03T09:30:00Z");
  });

  it("analytics: April 1's gross has the sale, April 3 the refund, and net over the range is charges less refunds", async () => {
    expect((await orderRow(t.db, order.id)).paymentStatus).toBe("partially_refunded");
    expect(await netSalesByDay(t.db, APRIL())).toEqual([
      { day: "2024-04-01", orders: 1, grossCents: 5500, refunds: 0, refundedCents: 0, netCents: 5500 },
      { day: "2024-04-02", orders: 0, grossCents: 0, refunds: 0, refundedCents: 0, netCents: 0 },
      { day: "2024-04-03", orders: 0, grossCents: 0, refunds: 1, refundedCents: 1000, netCents: -1000 },
    ]);
    expect(await netSalesTotals(t.db, APRIL())).toEqual({ orders: 1, grossCents: 5500, refunds: 1, refundedCents: 1000, netCents: 4500 });
    // The gross figures stay on the day of the sale: a partially refunded order still counts.
    expect(await salesTotals(t.db, custom("2024-04-01", "2024-04-01"))).toMatchObject({ orders: 1, revenueCents: 5500 });
    // The Analytics page's Revenue (gross), Refunds and Net sales cards.
    const { figures } = await analyticsView(t.db, APRIL());
    expect([figures.revenueCents.current, figures.refundedCents.current, figures.netSalesCents.current]).toEqual([5500, 1000, 4500]);
    // A range that ends before the refund has none of it.
    expect((await netSalesTotals(t.db, custom("2024-04-01", "2024-04-02"))).refundedCents).toBe(0);
  });

  it("reports: 'Gross, refunds and net' has the refund on its own day, totals last", async () => {
    const rows = await csvOf(reportsExportLoader, admin, "/admin/reports/export?report=sales-and-refunds&range=custom&from=2024-04-01&to=2024-04-03");
    expect(rows).toEqual([
      ["Day", "Orders", "Gross sales", "Refunds", "Refunded", "Net sales"],
      ["2024-04-01", "1", "55.00", "0", "0.00", "55.00"],
      ["2024-04-02", "0", "0.00", "0", "0.00", "0.00"],
      ["2024-04-03", "0", "0.00", "1", "10.00", "-10.00"],
      ["Total", "1", "55.00", "1", "10.00", "45.00"],
    ]);
  });

  it("the orders CSV has its refunded and net amounts", async () => {
    const [header, row, ...rest] = await csvOf(ordersExportLoader, admin, `/admin/orders/export?q=${order.orderNumber}`);
    expect(rest).toEqual([]);
    const cell = (name: string) => row![header!.indexOf(name)];
    expect([cell("payment_status"), cell("total"), cell("refunded"), cell("net")]).toEqual(["partially_refunded", "55.00", "10.00", "45.00"]);
  });

  it("the customer's total spent is net of the refund", async () => {
    const [customer] = await t.db.select().from(customers).where(eq(customers.emailKey, "lena@ledger.test"));
    expect(customer).toMatchObject({ ordersCount: 1, spentCents: 4500 });
  });

  it("the dashboard's revenue and the order list's Revenue card are net of the refund", async () => {
    const stats = await getDashboardStats(t.db, new Date("2024-04-10T12:00:00Z"));
    expect(stats.revenue.current).toBe(4500);
    expect(stats.revenueCents).toBe(4500);
    expect(stats.orders.current).toBe(1);
    // The other order here was cancelled and refunded in full: no revenue.
    expect(await getAdminOrderStats(t.db)).toMatchObject({ paidOrders: 1, revenueCents: 4500 });
  });

  it("the order list's 'Partially refunded' filter finds it, and 'Paid' does not", async () => {
    const numbers = async (payment: string) =>
      (await get(t.db, ordersListLoader, admin, `/admin/orders?payment=${payment}`)).body.orders.map((o: { orderNumber: string }) => o.orderNumber);
    expect(await numbers("partially_refunded")).toEqual([order.orderNumber]);
    expect(await numbers("paid")).not.toContain(order.orderNumber);
    const row = (await get(t.db, ordersListLoader, admin, `/admin/orders?q=${order.orderNumber}`)).body.orders[0];
    expect(row).toMatchObject({ orderNumber: order.orderNumber, paymentStatus: "partially_refunded" });
  });
});
