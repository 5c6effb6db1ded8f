/**
 * The admin's Reports (/admin/reports): which reports there are, and what the page shows of one.
 * Plain types, safe to import anywhere; app/server/insight/reports builds the values. Money is integer
 * cents here; the page prints it with formatMoney, the CSV as decimal dollars.
 */

export const REPORT_IDS = [
  "sales-by-day",
  "sales-and-refunds",
  "sales-by-product",
  "sales-by-category",
  "discounts-and-tax",
  "discount-codes",
  "stock-on-hand",
  "newsletter",
] as const;
export type ReportId = (typeof REPORT_IDS)[number];

export const DEFAULT_REPORT: ReportId = "sales-by-day";

export type ReportInfo = {
  id: ReportId;
  title: string;
  description: string;
  /** False for reports of the shop as it is now (stock, subscribers): the date range does not apply. */
  usesRange: boolean;
};

export const REPORTS: ReportInfo[] = [
  {
    id: "sales-by-day",
    title: "Sales by day",
    description: "Every day of the range: orders, units, revenue, discounts, shipping and tax of the orders that count.",
    usesRange: true,
  },
  {
    id: "sales-and-refunds",
    title: "Gross, refunds and net",
    description: "Per day: gross sales of the orders that count, the refunds that succeeded that day (however long after the sale) and net sales (gross less refunds).",
    usesRange: true,
  },
  { id: "sales-by-product", title: "Sales by product", description: "Units and revenue per product, best-selling first.", usesRange: true },
  { id: "sales-by-category", title: "Sales by category", description: "Units and revenue per category, best-selling first.", usesRange: true },
  {
    id: "discounts-and-tax",
    title: "Discounts and tax",
    description: "Per day: orders, orders that used a discount code, the discounts given and the tax collected.",
    usesRange: true,
  },
  {
    id: "discount-codes",
    title: "Discount codes",
    description: "Each discount code used in the range: orders, the discount given and those orders' revenue.",
    usesRange: true,
  },
  {
    id: "stock-on-hand",
    title: "Stock on hand",
    description: "Every product's stock now, with its value at cost and at price. Unlimited stock has no value.",
    usesRange: false,
  },
  { id: "newsletter", title: "Newsletter list", description: "Every confirmed newsletter subscriber.", usesRange: false },
];

export const isReportId = (v: string | null | undefined): v is ReportId => (REPORT_IDS as readonly string[]).includes(v ?? "");

export const reportInfo = (id: ReportId): ReportInfo => REPORTS.find((r) => r.id === id)!;

/** How a column's values are written: text as is, counts as whole numbers, money from cents. */
export type ColumnKind = "text" | "day" | "count" | "money";
export type ReportColumn = { key: string; label: string; kind: ColumnKind };
/** A cell: text, a number (cents for money), or null for "none" (shown blank). */
export type ReportCell = string | number | null;

/** The rows a page shows of a report. */
export const PAGE_ROWS = 50;

export type ReportTable = {
  columns: ReportColumn[];
  /** The first rows, as the CSV has them (at most PAGE_ROWS). */
  rows: ReportCell[][];
  /** True when the CSV has more rows than the page shows. */
  more: boolean;
  /** A totals row, where the report has one (text cells for labels). */
  totals: ReportCell[] | null;
  /** Said under the table (what is left out, how a value is computed). */
  note: string | null;
};

/** Cents as decimal dollars for a spreadsheet: 1234 → "12.34" (no sign or thousands separator). */
export function csvMoney(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
