import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { loader as exportLoader } from "~/routes/admin/reports-export";
import { loader as reportsLoader } from "~/routes/admin/reports";
import type { Db } from "~/server/platform/db/client.server";
import { newsletterSubscriptions, orderEvents, orderItems, orders } from "~/server/platform/db/schema";
import { firstStockRows, stockRowBatches } from "~/server/insight/reports/stock-on-hand.server";
import { makeProduct, type ProductRow } from "../factories/products";
import { makeAdmin, makeCustomer, requestAs, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, settle } from "./admin-catalog-helpers";
import { args } from "./route-args";

const t = useTestDatabase();
let admin: TestUser;
const MARCH = "range=custom&from=2026-03-01&to=2026-03-03";

type Line = [ProductRow, number, { discount?: number; tax?: number }?];

/** An order and its lines in one transaction, as the checkout writes them (the roll-ups count it at commit). */
async function order(
  db: Db,
  o: {
    number: string;
    paidAt?: string;
    createdAt?: string;
    paymentStatus?: "paid" | "unpaid" | "refunded";
    status?: "processing" | "cancelled" | "pending";
    /** When it was cancelled (its timeline's event); otherwise a cancelled order was cancelled when inserted. */
    cancelledAt?: string;
    code?: string;
    shipping?: number;
  },
  lines: Line[],
) {
  const subtotal = lines.reduce((n, [p, q]) => n + p.priceCents * q, 0);
  const discount = lines.reduce((n, [, , x]) => n + (x?.discount ?? 0), 0);
  const tax = lines.reduce((n, [, , x]) => n + (x?.tax ?? 0), 0);
  const shipping = o.shipping ?? 0;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(orders)
      .values({
        orderNumber: o.number,
        status: o.status ?? "processing",
        paymentStatus: o.paymentStatus ?? "paid",
        paidAt: o.paidAt ? new Date(o.paidAt) : null,
        createdAt: new Date(o.createdAt ?? o.paidAt ?? "2026-03-02T12:00:00Z"),
        subtotalCents: subtotal,
        discountCents: discount,
        discountCode: o.code ?? null,
        shippingCents: shipping,
        taxCents: tax,
        totalAmountCents: subtotal - discount + shipping + tax,
        email: `${o.number.toLowerCase()}@example.test`,
        firstName: "Rita",
        lastName: "Report",
        address: "1 Ledger Lane",
        city: "Springfield",
        state: "IL",
        zipCode: "62701",
      })
      .returning({ id: orders.id });
    await tx.insert(orderItems).values(
      lines.map(([p, quantity, x]) => ({
        orderId: row!.id,
        productId: p.id,
        name: p.name,
        unitPriceCents: p.priceCents,
        quantity,
        lineTotalCents: p.priceCents * quantity,
        discountCents: x?.discount ?? 0,
        taxCents: x?.tax ?? 0,
      })),
    );
    if (o.cancelledAt) {
      await tx.insert(orderEvents).values({ orderId: row!.id, kind: "status", fromStatus: "processing", toStatus: "cancelled", createdAt: new Date(o.cancelledAt) });
    }
  });
}

beforeAll(async () => {
  admin = await makeAdmin(t.db);
  const duvet = await makeProduct(t.db, { name: "Linen Duvet", sku: "D-1", category: "Bedding", priceCents: 10_000, costCents: 4_000, stockQuantity: 10 });
  const lamp = await makeProduct(t.db, { name: "Reading Lamp", sku: "L-1", category: "Lighting", priceCents: 3_000, stockQuantity: 4 });
  await makeProduct(t.db, { name: "Beeswax Candle", sku: "C-1", category: "Decor", priceCents: 1_500, costCents: 500, unlimitedStock: true, stockQuantity: 0 });
  await makeProduct(t.db, { name: "Old Throw", sku: "T-1", category: "Bedding", priceCents: 5_000, costCents: 1_000, stockQuantity: 2, active: false });
  await makeProduct(t.db, { name: '=HYPERLINK("http://evil.test")', sku: "X-1", category: "Decor", priceCents: 100, costCents: 50, stockQuantity: 1 });

  // Counted: March 1st (two orders, one with SPRING) and March 3rd (one with SPRING).
  await order(t.db, { number: "REP-1", paidAt: "2026-03-01T10:00:00Z", code: "SPRING", shipping: 500 }, [[duvet, 2, { discount: 2_000 }]]);
  await order(t.db, { number: "REP-2", paidAt: "2026-03-01T23:30:00Z", shipping: 500 }, [[lamp, 1, { tax: 240 }]]);
  await order(t.db, { number: "REP-3", paidAt: "2026-03-03T08:00:00Z", code: "SPRING" }, [
    [duvet, 1, { discount: 1_000 }],
    [lamp, 2, { discount: 600 }],
  ]);
  // Paid on March 2 and refunded, cancelled on March 3: its gross ($90.00) on March 2, its refund on March 3.
  await order(t.db, { number: "REP-4", paidAt: "2026-03-02T09:00:00Z", paymentStatus: "refunded", status: "cancelled", cancelledAt: "2026-03-03T12:00:00Z", code: "SPRING" }, [
    [duvet, 1, { discount: 1_000 }],
  ]);
  // Paid on March 2 and cancelled without a refund today: its gross ($30.00) on March 2, the cancel today.
  // Never counted: unpaid; and paid the day after the range.
  await order(t.db, { number: "REP-5", paidAt: "2026-03-02T09:00:00Z", status: "cancelled" }, [[lamp, 1]]);
  await order(t.db, { number: "REP-6", paymentStatus: "unpaid", status: "pending", createdAt: "2026-03-02T09:00:00Z" }, [[duvet, 1]]);
  await order(t.db, { number: "REP-7", paidAt: "2026-03-04T00:00:00Z", code: "SPRING" }, [[lamp, 1, { discount: 300 }]]);

  await t.db.insert(newsletterSubscriptions).values([
    { email: "first@example.test", createdAt: new Date("2026-01-01T00:00:00Z"), confirmedAt: new Date("2026-01-01T00:05:00Z") },
    { email: "@cmd@example.test", createdAt: new Date("2026-01-02T00:00:00Z"), confirmedAt: new Date("2026-01-02T00:05:00Z") },
    { email: "waiting@example.test", createdAt: new Date("2026-01-03T00:00:00Z"), confirmedAt: null },
  ]);
});

async function download(query: string, as: { id: string } | null = admin) {
  const request = await requestAs(t.db, as, `/admin/reports/export?${query}`);
  const res = await settle(() => exportLoader(args(request)));
  return res;
}

async function csv(query: string) {
  const request = await requestAs(t.db, admin, `/admin/reports/export?${query}`);
  const res = (await exportLoader(args(request))) as Response;
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  const text = await res.text();
  return { rows: Papa.parse<string[]>(text.trimEnd()).data, text, filename: /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] };
}

async function page(query: string) {
  const res = await get(t.db, reportsLoader, admin, `/admin/reports?${query}`);
  return res;
}

describe("reports: CSV downloads against hand-computed figures", () => {
  it("sales by day: every day of the range, gross on the day paid, refunds and net on the day refunded, unpaid and later orders left out, totals last", async () => {
    const { rows, filename } = await csv(`report=sales-by-day&${MARCH}`);
    expect(filename).toBe("sales-by-day-2026-03-01-to-2026-03-03.csv");
    expect(rows).toEqual([
      ["Day", "Orders", "Units", "Revenue", "Discounts", "Shipping", "Tax", "Refunded", "Net sales"],
      ["2026-03-01", "2", "3", "222.40", "20.00", "10.00", "2.40", "0.00", "222.40"],
      ["2026-03-02", "2", "2", "120.00", "10.00", "0.00", "0.00", "0.00", "120.00"],
      ["2026-03-03", "1", "3", "144.00", "16.00", "0.00", "0.00", "90.00", "54.00"],
      ["Total", "5", "8", "486.40", "46.00", "10.00", "2.40", "90.00", "396.40"],
    ]);
  });

  it("gross, refunds and net: REP-4's refund on the day it was cancelled, REP-5's cancel on today's", async () => {
    expect((await csv(`report=sales-and-refunds&${MARCH}`)).rows).toEqual([
      ["Day", "Orders", "Gross sales", "Refunds", "Refunded", "Net sales"],
      ["2026-03-01", "2", "222.40", "0", "0.00", "222.40"],
      ["2026-03-02", "2", "120.00", "0", "0.00", "120.00"],
      ["2026-03-03", "1", "144.00", "1", "90.00", "54.00"],
      ["Total", "5", "486.40", "1", "90.00", "396.40"],
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const { rows } = await csv(`report=sales-and-refunds&range=custom&from=${today}&to=${today}`);
    expect(rows[1]).toEqual([today, "0", "0.00", "1", "30.00", "-30.00"]);
  });

  it("sales by product and by category: units, and revenue less each line's share of the discount", async () => {
    expect((await csv(`report=sales-by-product&${MARCH}`)).rows).toEqual([
      ["Product", "Category", "Units", "Revenue"],
      ["Linen Duvet", "Bedding", "4", "360.00"],
      ["Reading Lamp", "Lighting", "4", "114.00"],
      ["Total", "", "8", "474.00"],
    ]);
    expect((await csv(`report=sales-by-category&${MARCH}`)).rows).toEqual([
      ["Category", "Units", "Revenue"],
      ["Bedding", "4", "360.00"],
      ["Lighting", "4", "114.00"],
      ["Total", "8", "474.00"],
    ]);
  });

  it("discounts and tax per day, and per discount code", async () => {
    expect((await csv(`report=discounts-and-tax&${MARCH}`)).rows).toEqual([
      ["Day", "Orders", "Orders with a code", "Discounts", "Tax collected"],
      ["2026-03-01", "2", "1", "20.00", "2.40"],
      ["2026-03-02", "2", "1", "10.00", "0.00"],
      ["2026-03-03", "1", "1", "16.00", "0.00"],
      ["Total", "5", "3", "46.00", "2.40"],
    ]);
    expect((await csv(`report=discount-codes&${MARCH}`)).rows).toEqual([
      ["Code", "Orders", "Discount given", "Revenue"],
      ["SPRING", "2", "36.00", "329.00"],
      ["Total", "2", "36.00", "329.00"],
    ]);
  });

  it("stock on hand: value at cost and at price, unlimited stock without value, formulas neutralised, totals", async () => {
    const { rows, text, filename } = await csv(`report=stock-on-hand&${MARCH}`);
    expect(filename).toMatch(/^stock-on-hand-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(rows[0]).toEqual(["SKU", "Product", "Category", "Status", "Stock", "Cost", "Price", "Value at cost", "Value at price"]);
    const bySku = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(bySku.get("C-1")).toEqual(["C-1", "Beeswax Candle", "Decor", "Active", "Unlimited", "5.00", "15.00", "", ""]);
    expect(bySku.get("D-1")).toEqual(["D-1", "Linen Duvet", "Bedding", "Active", "10", "40.00", "100.00", "400.00", "1000.00"]);
    expect(bySku.get("T-1")).toEqual(["T-1", "Old Throw", "Bedding", "Inactive", "2", "10.00", "50.00", "20.00", "100.00"]);
    expect(bySku.get("L-1")).toEqual(["L-1", "Reading Lamp", "Lighting", "Active", "4", "", "30.00", "", "120.00"]);
    expect(bySku.get("X-1")).toEqual(["X-1", `'=HYPERLINK("http://evil.test")`, "Decor", "Active", "1", "0.50", "1.00", "0.50", "1.00"]);
    expect(rows.at(-1)).toEqual(["", "Total", "", "", "17", "", "", "420.50", "1221.00"]);
    expect(rows).toHaveLength(7);
    // Listed by name.
    expect(rows.slice(1, 6).map((r) => r[1]).filter((n) => !n!.startsWith("'"))).toEqual(["Beeswax Candle", "Linen Duvet", "Old Throw", "Reading Lamp"]);
    expect(text).not.toMatch(/(^|,)"?=HYPERLINK/m);
  });

  it("stock on hand is read in batches that walk every product once, by name", async () => {
    const batches: unknown[][] = [];
    for await (const batch of stockRowBatches(t.db, 2)) batches.push(batch);
    expect(batches.map((b) => b.length)).toEqual([2, 2, 1]);
    expect(batches.flat()).toEqual(await firstStockRows(t.db, 100));
  });

  it("newsletter list: confirmed subscribers only, the newsletter export's own file", async () => {
    const { rows, filename } = await csv("report=newsletter");
    expect(filename).toMatch(/^newsletter-subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(rows).toEqual([
      ["email", "subscribed_at"],
      ["first@example.test", "2026-01-01T00:00:00.000Z"],
      ["'@cmd@example.test", "2026-01-02T00:00:00.000Z"],
    ]);
  });
});

describe("reports: the page", () => {
  it("shows the chosen report's first rows and totals, as the CSV has them", async () => {
    const res = await page(`report=sales-by-day&${MARCH}`);
    expect(res.status).toBe(200);
    expect(res.body.report).toBe("sales-by-day");
    expect(res.body.rangeError).toBeNull();
    expect(res.body.range).toMatchObject({ start: "2026-03-01", end: "2026-03-03", preset: "custom" });
    expect(res.body.table.rows).toEqual([
      ["2026-03-01", 2, 3, 22_240, 2_000, 1_000, 240, 0, 22_240],
      ["2026-03-02", 2, 2, 12_000, 1_000, 0, 0, 0, 12_000],
      ["2026-03-03", 1, 3, 14_400, 1_600, 0, 0, 9_000, 5_400],
    ]);
    expect(res.body.table.totals).toEqual(["Total", 5, 8, 48_640, 4_600, 1_000, 240, 9_000, 39_640]);
    expect(res.body.table.more).toBe(false);

    const stock = await page(`report=stock-on-hand&${MARCH}`);
    expect(stock.body.table.totals).toEqual(["", "Total", "", "", 17, null, null, 42_050, 122_100]);
    expect(stock.body.table.note).toBe("5 products. 1 with unlimited stock has no value. 1 in stock has no cost per item, so that stock is not in the value at cost.");
  });

  it("shows at most 50 rows and says the CSV has the rest", async () => {
    const res = await page("report=sales-by-day&range=custom&from=2026-01-01&to=2026-03-31");
    expect(res.body.table.rows).toHaveLength(50);
    expect(res.body.table.rows[0][0]).toBe("2026-01-01");
    expect(res.body.table.more).toBe(true);
    // The totals cover all 90 days, not only the 50 shown.
    expect(res.body.table.totals).toEqual(["Total", 6, 9, 48_640 + 3_000 - 300, 4_600 + 300, 1_000, 240, 9_000, 48_640 + 3_000 - 300 - 9_000]);
    const { rows } = await csv("report=sales-by-day&range=custom&from=2026-01-01&to=2026-03-31");
    expect(rows).toHaveLength(1 + 90 + 1);
  });

  it("answers an unknown report with the not-found page, on the page and for the CSV", async () => {
    expect((await page("report=profit-and-loss")).status).toBe(404);
    expect((await download("report=profit-and-loss")).status).toBe(404);
    expect((await download("report=")).status).toBe(404);
  });

  it("answers a bad range with a message and the default range; the CSV refuses it", async () => {
    for (const bad of ["range=custom&from=2026-03-10&to=2026-03-01", "range=custom&from=2000-01-01&to=2026-01-01", "range=custom&from=2026-02-30&to=2026-03-01", "range=fortnight"]) {
      const res = await page(`report=sales-by-product&${bad}`);
      expect(res.status).toBe(200);
      expect(res.body.rangeError).toMatch(/Showing the last 30 days\.$/);
      expect(res.body.range.preset).toBe("30d");
      const file = await download(`report=sales-by-product&${bad}`);
      expect(file.status).toBe(400);
      expect(file.body).not.toMatch(/Showing the last 30 days/);
    }
    // Reports of the shop as it is now ignore the range.
    expect((await download("report=stock-on-hand&range=fortnight")).status).toBe(200);
  });

  it("is for admins only: the page and every download", async () => {
    const customer = await makeCustomer(t.db);
    for (const as of [null, customer]) {
      const p = await get(t.db, reportsLoader, as, "/admin/reports");
      const d = await download("report=newsletter", as);
      expect(p.status).toBe(as ? 403 : 302);
      expect(d.status).toBe(as ? 403 : 302);
    }
  });
});
