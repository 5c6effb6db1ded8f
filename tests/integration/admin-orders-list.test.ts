import { describe, expect, it } from "vitest";
import { loader as dashboardLoader } from "~/routes/admin/dashboard";
import { loader as exportLoader } from "~/routes/admin/orders/export";
import { loader as listLoader } from "~/routes/admin/orders/index";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { orderItems, orders } from "~/server/platform/db/schema";
import { filteredOrderBatches } from "~/server/commerce/orders/admin-orders.server";
import { makeOrder } from "../factories/account-orders";
import { makeAdmin, makeCustomer } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get } from "./admin-catalog-helpers";
import { moveNow, openOrderPage, orderRow, paidOrder } from "./admin-orders-helpers";

const t = useTestDatabase();

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe("/admin/orders", () => {
  it("lists orders newest first, 20 a page, with number, date, customer, items, total, payment and status", async () => {
    const admin = await makeAdmin(t.db);
    const made = [];
    // Other tests in this file add orders too: this one reads its own through a search.
    const tag = `Pager${randomBytes(3).toString("hex")}`;
    for (let i = 0; i < 23; i++) {
      made.push(await makeOrder(t.db, { createdAt: minutesAgo(100 - i), firstName: `Buyer${i}`, lastName: tag, totalAmountCents: 1000 + i }));
    }
    await t.db.insert(orderItems).values([
      { orderId: made[22]!.id, name: "Sheet", unitPriceCents: 500, quantity: 2, lineTotalCents: 1000 },
      { orderId: made[22]!.id, name: "Pillow", unitPriceCents: 11, quantity: 1, lineTotalCents: 11 },
    ]);
    const first = await get(t.db, listLoader, admin, `/admin/orders?q=${tag}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 23, pages: 2 });
    expect(first.body.orders).toHaveLength(20);
    expect(first.body.orders[0]).toEqual({
      id: made[22]!.id,
      orderNumber: made[22]!.orderNumber,
      createdAt: made[22]!.createdAt.toISOString(),
      customerName: `Buyer22 ${tag}`,
      email: "shopper@example.test",
      itemsCount: 3,
      totalAmountCents: 1022,
      paymentStatus: "unpaid",
      status: "pending",
    });
    const second = await get(t.db, listLoader, admin, `/admin/orders?q=${tag}&page=2`);
    expect(second.body.orders.map((o: { orderNumber: string }) => o.orderNumber)).toEqual(
      [made[2], made[1], made[0]].map((o) => o!.orderNumber),
    );
    // A page past the end goes to the last page; garbage pages are page 1.
    expect(await get(t.db, listLoader, admin, `/admin/orders?q=${tag}&page=9`)).toMatchObject({
      status: 302,
      location: `/admin/orders?q=${tag}&page=2`,
    });
    expect((await get(t.db, listLoader, admin, `/admin/orders?q=${tag}&page=-3`)).body.orders[0].id).toBe(made[22]!.id);
    expect((await get(t.db, listLoader, admin, "/admin/orders?page=abc")).body.query.page).toBe(1);
  });

  it("filters by status and searches order number, email and name (case-insensitive, % and _ literal)", async () => {
    const admin = await makeAdmin(t.db);
    const shipped = await makeOrder(t.db, { status: "shipped", paymentStatus: "paid", email: "Rosa.Parks@Filters.test", firstName: "Rosa" });
    const pending = await makeOrder(t.db, { firstName: "Marie", lastName: "Curie", email: "marie@filters.test" });
    const odd = await makeOrder(t.db, { firstName: "100%", lastName: "Cotton_Fan", email: "odd@filters.test" });
    const numbers = (r: { body: { orders: { orderNumber: string }[] } }) => r.body.orders.map((o) => o.orderNumber).sort();
    const list = (qs: string) => get(t.db, listLoader, admin, `/admin/orders${qs}`);

    expect(numbers(await list("?status=shipped&q=filters.test"))).toEqual([shipped.orderNumber]);
    expect(numbers(await list("?status=pending&q=FILTERS.TEST"))).toEqual([pending.orderNumber, odd.orderNumber].sort());
    expect((await list("?status=bogus")).body.query.status).toBe("all");
    expect(numbers(await list(`?q=${shipped.orderNumber.slice(-6).toLowerCase()}`))).toEqual([shipped.orderNumber]);
    expect(numbers(await list("?q=rosa.parks@FILTERS"))).toEqual([shipped.orderNumber]);
    expect(numbers(await list("?q=marie%20curie"))).toEqual([pending.orderNumber]);
    expect(numbers(await list("?q=%25"))).toEqual([odd.orderNumber]);
    expect(numbers(await list("?q=n_f"))).toEqual([odd.orderNumber]);
    expect(numbers(await list("?q=marie&status=shipped"))).toEqual([]);
    expect((await list("?q=nobody-has-this")).body.total).toBe(0);
  });

  it("filters by the account an order was placed from (the order page's customer link)", async () => {
    const admin = await makeAdmin(t.db);
    const shopper = await makeCustomer(t.db, { firstName: "Sam", lastName: "Shopper" });
    const mine = await makeOrder(t.db, { userId: shopper.id });
    await makeOrder(t.db);
    const res = await get(t.db, listLoader, admin, `/admin/orders?customer=${shopper.id}`);
    expect(res.body.orders.map((o: { id: string }) => o.id)).toEqual([mine.id]);
    expect(res.body.customerLabel).toBe(`Sam Shopper <${shopper.email}>`);
  });

  it("stat cards count every order, revenue only from paid orders that were not cancelled", async () => {
    const admin = await makeAdmin(t.db);
    const before = (await get(t.db, listLoader, admin, "/admin/orders")).body.stats;
    await makeOrder(t.db, { status: "processing", paymentStatus: "paid", totalAmountCents: 10_000, paidAt: new Date() });
    await makeOrder(t.db, { status: "shipped", paymentStatus: "paid", totalAmountCents: 2_550, paidAt: new Date() });
    await makeOrder(t.db, { status: "cancelled", paymentStatus: "paid", totalAmountCents: 70_000, paidAt: new Date() });
    await makeOrder(t.db, { status: "cancelled", paymentStatus: "refunded", totalAmountCents: 80_000, paidAt: new Date() });
    await makeOrder(t.db, { status: "pending", paymentStatus: "unpaid", totalAmountCents: 90_000 });
    const after = (await get(t.db, listLoader, admin, "/admin/orders")).body.stats;
    const delta = Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
    expect(delta).toEqual({ totalOrders: 5, paidOrders: 2, revenueCents: 12_550, pending: 1, processing: 1, shipped: 1 });
  });
});

describe("the dashboard's order figures", () => {
  // Refunds count on their own day (docs/rules/analytics.md): a cancelled paid order stays among
  // the orders paid, and its refund takes its money back out of the revenue.
  it("Total Orders and Revenue come from paid orders; cancelling one takes its money back out and leaves it counted as paid", async () => {
    const admin = await makeAdmin(t.db);
    const before = await (await get(t.db, dashboardLoader, admin, "/admin")).body.stats;
    const { orderId } = await paidOrder(t.db, { quantity: 2, priceCents: 3000 });
    const paid = await (await get(t.db, dashboardLoader, admin, "/admin")).body.stats;
    expect(paid.totalOrders - before.totalOrders).toBe(1);
    expect(paid.revenueCents - before.revenueCents).toBe(6000);
    await moveNow(t.db, admin, orderId, "cancelled");
    expect((await orderRow(t.db, orderId)).paymentStatus).toBe("paid");
    const after = await (await get(t.db, dashboardLoader, admin, "/admin")).body.stats;
    expect(after).toMatchObject({ totalOrders: before.totalOrders + 1, revenueCents: before.revenueCents });
  });
});

describe("the order page", () => {
  it("shows line snapshots, totals, address, customer account, payment reference and the timeline", async () => {
    const admin = await makeAdmin(t.db);
    const shopper = await makeCustomer(t.db);
    const { orderId, product } = await paidOrder(t.db, { userId: shopper.id, quantity: 3, priceCents: 1250 });
    const row = await orderRow(t.db, orderId);
    const { order } = (await openOrderPage(t.db, admin, orderId)).body;
    expect(order).toMatchObject({
      orderNumber: row.orderNumber,
      status: "processing",
      paymentStatus: "paid",
      subtotalCents: 3750,
      shippingCents: 0,
      taxCents: 0,
      totalAmountCents: 3750,
      customer: { name: "Casey Buyer", email: row.email, account: { id: shopper.id, email: shopper.email } },
      shipping: { address: "1 Linen Lane", city: "Springfield", state: "IL", zipCode: "62701", country: "US" },
      payment: { provider: "test", reference: row.paymentReference },
      moves: ["shipped", "cancelled"],
    });
    expect(order.lines).toEqual([
      { id: expect.any(String), productId: product.id, name: product.name, unitPriceCents: 1250, quantity: 3, lineTotalCents: 3750 },
    ]);
    expect(order.events.map((e: { kind: string; toStatus: string | null; actorLabel: string; actorEmail: string | null }) => [e.kind, e.toStatus, e.actorLabel, e.actorEmail])).toEqual([
      ["status", "pending", "customer", shopper.email],
      ["payment", "processing", "test", null],
    ]);
    // The order number works as an address too (read out by a shopper on the phone).
    expect((await openOrderPage(t.db, admin, row.orderNumber)).body.order.id).toBe(orderId);
  });
});

describe("CSV export", () => {
  it("exports every filtered order (all pages), cells quoted, formulas neutralised", async () => {
    const admin = await makeAdmin(t.db);
    const evil = await makeOrder(t.db, {
      status: "shipped",
      firstName: '=HYPERLINK("http://evil.test","x")',
      lastName: "+1-2",
      phone: "@sum",
      address: '-5 "Quoted" Street, Apt 2',
      city: "Line\nBreak",
      state: "CSV-TEST",
      createdAt: minutesAgo(1),
    });
    // Other tests here add orders: this export is narrowed to this test's through the "csvtest" email.
    for (let i = 0; i < 24; i++) {
      await makeOrder(t.db, { status: "shipped", email: `n${i}@csvtest.test`, createdAt: minutesAgo(10 + i) });
    }
    await makeOrder(t.db, { status: "pending", email: "pending@csvtest.test" });
    await t.db.update(orders).set({ email: "first@csvtest.test" }).where(eq(orders.id, evil.id));

    const res = await get(t.db, exportLoader, admin, "/admin/orders/export?status=shipped&q=csvtest");
    expect(res.status).toBe(200);
    const csv: string = res.body;
    const records = csv.trimEnd().split(/\r\n(?=")/);
    expect(records[0]!.startsWith("order_number,created_at,status,payment_status,first_name,last_name,email")).toBe(true);
    expect(records).toHaveLength(1 + 25);
    const first = records[1]!;
    expect(first.startsWith(`"${evil.orderNumber}",`)).toBe(true);
    expect(first).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(first).toContain(`"'+1-2"`);
    expect(first).toContain(`"'@sum"`);
    expect(first).toContain(`"'-5 ""Quoted"" Street, Apt 2"`);
    expect(first).toContain(`"Line\nBreak"`);
    expect(first).toContain(`"25.00"`);
    expect(csv).not.toMatch(/(^|,)"[=+\-@]/m);

    const searched = await get(t.db, exportLoader, admin, `/admin/orders/export?q=${encodeURIComponent(evil.orderNumber)}`);
    expect(searched.body.trimEnd().split(/\r\n(?=")/)).toHaveLength(2);
  });

  it("walks large exports batch by batch without skipping or repeating orders, even with equal timestamps", async () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await makeOrder(t.db, { email: `batch${i}@batches.test`, createdAt: i < 7 ? at : minutesAgo(i) }));
    const seen: string[] = [];
    let batches = 0;
    for await (const rows of filteredOrderBatches(t.db, { status: "all", q: "batches.test", customer: null }, 3)) {
      batches++;
      seen.push(...rows.map((r) => r.id));
    }
    expect(batches).toBe(4);
    expect(seen).toHaveLength(10);
    expect(new Set(seen)).toEqual(new Set(made.map((o) => o.id)));
  });

  it("is admins only", async () => {
    const customer = await makeCustomer(t.db);
    expect((await get(t.db, exportLoader, customer, "/admin/orders/export")).status).toBe(403);
    expect((await get(t.db, exportLoader, null, "/admin/orders/export")).status).toBe(302);
    expect((await get(t.db, listLoader, customer, "/admin/orders")).status).toBe(403);
  });
});
