import { csvCell } from "~/lib/csv";
import type { DateRange } from "~/lib/date-range";
import { csvMoney, PAGE_ROWS, type ReportCell, type ReportColumn, type ReportId, type ReportTable } from "~/lib/reports-view";
import { netSalesByDay, salesByCategory, salesByDay, salesByProduct } from "../analytics/sales.server";
import type { Db } from "../../platform/index.server";
import { confirmedSubscribers, exportSubscriptionsCsv, listSubscriptions } from "../../content/index.server";
import { discountCodeSales } from "./discount-codes.server";
import { taxCollectedPerDay } from "./discount-reports.server";
import { firstStockRows, STOCK_COLUMNS, stockRowBatches, stockTotals } from "./stock-on-hand.server";

/**
 * The admin's Reports (/admin/reports): each report's columns, its first rows for the page, and
 * the whole of it as CSV, streamed. Sales figures come from the roll-ups (analytics/sales.server.ts,
 * docs/rules/analytics.md: gross by the UTC day the order was paid, each refund on the UTC day it
 * succeeded), never from the orders.
 */

type Page = { rows: ReportCell[][]; more: boolean; totals: ReportCell[] | null; note: string | null };

type Report = {
  columns: ReportColumn[];
  /** The first `n` rows in the CSV's order, whether there are more, the totals row and a note. */
  page(db: Db, range: DateRange, n: number): Promise<Page>;
  /** Every row in batches, then the totals row (the CSV). */
  csvRows(db: Db, range: DateRange): AsyncIterable<ReportCell[][]>;
};

const col = (key: string, label: string, kind: ReportColumn["kind"]): ReportColumn => ({ key, label, kind });

/** A report whose rows one query returns at once (a few thousand at most: days, categories, codes). */
function listed(
  columns: ReportColumn[],
  load: (db: Db, range: DateRange) => Promise<ReportCell[][]>,
  totalsOf: (rows: ReportCell[][]) => ReportCell[],
  note: string,
): Report {
  return {
    columns,
    async page(db, range, n) {
      const rows = await load(db, range);
      return { rows: rows.slice(0, n), more: rows.length > n, totals: totalsOf(rows), note };
    },
    async *csvRows(db, range) {
      const rows = await load(db, range);
      yield rows;
      yield [totalsOf(rows)];
    },
  };
}

/** "Total" in the first column, and the sum of each numeric column from `from` on. */
function sumRows(rows: ReportCell[][], width: number, from: number): ReportCell[] {
  const totals: ReportCell[] = Array.from({ length: width }, (_, i) => (i === 0 ? "Total" : i < from ? "" : 0));
  for (const row of rows) for (let i = from; i < width; i++) totals[i] = (totals[i] as number) + Number(row[i] ?? 0);
  return totals;
}

const COUNTS_NOTE = "Every paid order, by the UTC day it was paid, even if it was refunded or cancelled later.";
const REFUNDS_NOTE = "Refunds count on the UTC day each succeeded (a paid order's cancellation on the day it was cancelled); net is gross less refunds.";

const salesByDayReport = listed(
  [
    col("day", "Day", "day"),
    col("orders", "Orders", "count"),
    col("units", "Units", "count"),
    col("revenue", "Revenue", "money"),
    col("discounts", "Discounts", "money"),
    col("shipping", "Shipping", "money"),
    col("tax", "Tax", "money"),
    col("refunded", "Refunded", "money"),
    col("net", "Net sales", "money"),
  ],
  async (db, range) => {
    const [days, net] = await Promise.all([salesByDay(db, range), netSalesByDay(db, range)]);
    // Both are every day of the range in order.
    return days.map((d, i) => [d.day, d.orders, d.units, d.revenueCents, d.discountCents, d.shippingCents, d.taxCents, net[i]!.refundedCents, net[i]!.netCents]);
  },
  (rows) => sumRows(rows, 9, 1),
  `${COUNTS_NOTE} Revenue is what shoppers paid: lines less discounts, plus shipping and any tax added. ${REFUNDS_NOTE}`,
);

const salesAndRefundsReport = listed(
  [
    col("day", "Day", "day"),
    col("orders", "Orders", "count"),
    col("gross", "Gross sales", "money"),
    col("refunds", "Refunds", "count"),
    col("refunded", "Refunded", "money"),
    col("net", "Net sales", "money"),
  ],
  async (db, range) => (await netSalesByDay(db, range)).map((d) => [d.day, d.orders, d.grossCents, d.refunds, d.refundedCents, d.netCents]),
  (rows) => sumRows(rows, 6, 1),
  `${COUNTS_NOTE} ${REFUNDS_NOTE}`,
);

const discountsAndTaxReport = listed(
  [
    col("day", "Day", "day"),
    col("orders", "Orders", "count"),
    col("discountedOrders", "Orders with a code", "count"),
    col("discounts", "Discounts", "money"),
    col("tax", "Tax collected", "money"),
  ],
  async (db, range) => {
    // Tax collected leaves out the tax that went back with a refunded or cancelled order.
    const [days, collected] = await Promise.all([salesByDay(db, range), taxCollectedPerDay(db, range)]);
    const tax = new Map(collected.map((d) => [d.day, d.taxCents]));
    return days.map((d) => [d.day, d.orders, d.discountedOrders, d.discountCents, tax.get(d.day) ?? 0]);
  },
  (rows) => sumRows(rows, 5, 1),
  COUNTS_NOTE,
);

const discountCodesReport = listed(
  [col("code", "Code", "text"), col("orders", "Orders", "count"), col("discount", "Discount given", "money"), col("revenue", "Revenue", "money")],
  async (db, range) => (await discountCodeSales(db, range)).map((c) => [c.code, c.orders, c.discountCents, c.revenueCents]),
  (rows) => sumRows(rows, 4, 1),
  `${COUNTS_NOTE} A free-shipping code takes nothing off the lines: its discount is the shipping not charged.`,
);

const salesByCategoryReport = listed(
  [col("category", "Category", "text"), col("units", "Units", "count"), col("revenue", "Revenue", "money")],
  async (db, range) => (await salesByCategory(db, range)).map((c) => [c.category, c.units, c.revenueCents]),
  (rows) => sumRows(rows, 3, 1),
  `${COUNTS_NOTE} A line's revenue is its total less its share of the order's discount; the category is the product's when it sold.`,
);

const productCells = (p: { name: string; category: string; units: number; revenueCents: number }): ReportCell[] => [p.name, p.category, p.units, p.revenueCents];

/**
 * Products can be many: the page asks for one row more than it shows. The totals come from the
 * (few) categories, which hold the same order lines.
 */
const salesByProductReport: Report = {
  columns: [col("product", "Product", "text"), col("category", "Category", "text"), col("units", "Units", "count"), col("revenue", "Revenue", "money")],
  async page(db, range, n) {
    const [products, totals] = await Promise.all([salesByProduct(db, range, { limit: n + 1 }), productTotals(db, range)]);
    return {
      rows: products.slice(0, n).map(productCells),
      more: products.length > n,
      totals,
      note: `${COUNTS_NOTE} A line's revenue is its total less its share of the order's discount; shipping and tax are not in it.`,
    };
  },
  async *csvRows(db, range) {
    yield (await salesByProduct(db, range)).map(productCells);
    yield [await productTotals(db, range)];
  },
};

async function productTotals(db: Db, range: DateRange) {
  const categories = await salesByCategory(db, range);
  return sumRows(
    categories.map((c) => ["", "", c.units, c.revenueCents]),
    4,
    2,
  );
}

const stockReport: Report = {
  columns: STOCK_COLUMNS,
  async page(db, _range, n) {
    const [rows, { totals, note }] = await Promise.all([firstStockRows(db, n + 1), stockTotals(db)]);
    return { rows: rows.slice(0, n), more: rows.length > n, totals, note };
  },
  async *csvRows(db) {
    yield* stockRowBatches(db);
    yield [(await stockTotals(db)).totals];
  },
};

/** The page shows the first subscribers; the CSV is the newsletter page's own export (reportCsvChunks). */
const newsletterReport: Report = {
  columns: [col("email", "Email", "text"), col("subscribedAt", "Subscribed at (UTC)", "text")],
  async page(db, _range, n) {
    const [rows, { total }] = await Promise.all([confirmedSubscribers(db, n + 1), listSubscriptions(db, 1)]);
    return {
      rows: rows.slice(0, n).map((r) => [r.email, r.createdAt.toISOString()]),
      more: rows.length > n,
      totals: null,
      note: `${total.toLocaleString("en-US")} confirmed ${total === 1 ? "subscriber" : "subscribers"}. Addresses still waiting for their confirmation link are not on the list.`,
    };
  },
  async *csvRows() {},
};

const REPORTS: Record<ReportId, Report> = {
  "sales-by-day": salesByDayReport,
  "sales-and-refunds": salesAndRefundsReport,
  "sales-by-product": salesByProductReport,
  "sales-by-category": salesByCategoryReport,
  "discounts-and-tax": discountsAndTaxReport,
  "discount-codes": discountCodesReport,
  "stock-on-hand": stockReport,
  newsletter: newsletterReport,
};

/** What the Reports page shows of a report: its columns, first rows, totals and note. */
export async function reportTable(db: Db, id: ReportId, range: DateRange): Promise<ReportTable> {
  const report = REPORTS[id];
  return { columns: report.columns, ...(await report.page(db, range, PAGE_ROWS)) };
}

function csvLine(columns: ReportColumn[], row: ReportCell[]): string {
  return row
    .map((cell, i) => {
      if (cell === null) return "";
      if (typeof cell === "number") return columns[i]!.kind === "money" ? csvMoney(cell) : String(cell);
      return csvCell(cell);
    })
    .join(",");
}

/**
 * The whole report as CSV text, chunk by chunk: the header, every row, and the totals row last
 * where the report has one. Text cells are quoted and a leading = + - @ is neutralised (csvCell),
 * so a product named "=HYPERLINK(…)" never runs in a spreadsheet; money is decimal dollars.
 */
export async function* reportCsvChunks(db: Db, id: ReportId, range: DateRange): AsyncGenerator<string> {
  if (id === "newsletter") {
    yield await exportSubscriptionsCsv(db);
    return;
  }
  const report = REPORTS[id];
  yield `${report.columns.map((c) => csvCell(c.label)).join(",")}\r\n`;
  for await (const rows of report.csvRows(db, range)) {
    if (rows.length) yield rows.map((r) => `${csvLine(report.columns, r)}\r\n`).join("");
  }
}

/** "sales-by-day-2026-01-01-to-2026-01-31.csv"; reports of the shop as it is now carry today's date. */
export function reportFilename(id: ReportId, range: DateRange, usesRange: boolean, now = new Date()): string {
  if (id === "newsletter") return `newsletter-subscribers-${now.toISOString().slice(0, 10)}.csv`;
  return usesRange ? `${id}-${range.start}-to-${range.end}.csv` : `${id}-${now.toISOString().slice(0, 10)}.csv`;
}
