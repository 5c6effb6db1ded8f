import { sql } from "drizzle-orm";
import { csvCell } from "~/lib/csv";
import type { Db } from "../../platform/index.server";
import { STOCK_COUNTED_AT } from "./generic-format.server";

/**
 * The catalogue as a CSV the import reads back (its generic columns, docs/rules/catalogue-data.md):
 * the owner exports, edits prices or stock in a spreadsheet and re-imports. Beside each product's
 * stock goes the time that stock was read (`stock_counted_at`), so a re-import can tell the stock
 * the owner set from the sales made since (sales-since-export.server.ts). Products without a SKU
 * are left out: a re-import matches products by SKU and would make them again.
 */
export const EXPORT_COLUMNS = [
  "sku",
  "title",
  "description",
  "category",
  "price",
  "original_price",
  "cost_per_item",
  "weight_grams",
  "stock_quantity",
  "unlimited_stock",
  "active",
  "featured",
  "tags",
  "colors",
  STOCK_COUNTED_AT,
] as const;

type ExportRow = {
  id: string;
  sku: string;
  name: string;
  description: string;
  category: string;
  price_cents: number;
  original_price_cents: number | null;
  cost_cents: number | null;
  weight_grams: number | null;
  stock_quantity: number;
  unlimited_stock: boolean;
  active: boolean;
  featured: boolean;
  tags: string[];
  colors: string[];
  counted_at: string;
};

const dollars = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));

function line(r: ExportRow): string {
  return [
    csvCell(r.sku),
    csvCell(r.name),
    csvCell(r.description),
    csvCell(r.category),
    dollars(r.price_cents),
    dollars(r.original_price_cents),
    dollars(r.cost_cents),
    r.weight_grams ?? "",
    r.stock_quantity,
    r.unlimited_stock,
    r.active,
    r.featured,
    csvCell(r.tags.join(", ")),
    csvCell(r.colors.join(", ")),
    r.counted_at,
  ].join(",");
}

/**
 * The export, streamed: products by id in batches (keyset, never an offset). Each batch's stock
 * is read by one statement, and its rows carry that statement's own time.
 */
export async function* productsCsvChunks(db: Db, batchSize = 5000): AsyncGenerator<string> {
  yield `${EXPORT_COLUMNS.join(",")}\n`;
  let after: string | null = null;
  for (;;) {
    const result: { rows: ExportRow[] } = await db.execute<ExportRow>(sql`
      select id, sku, name, description, category, price_cents, original_price_cents, cost_cents, weight_grams,
             stock_quantity, unlimited_stock, active, featured, tags, colors,
             to_char(statement_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as counted_at
      from products
      where sku <> '' ${after ? sql`and id > ${after}::uuid` : sql``}
      order by id
      limit ${batchSize}`);
    if (result.rows.length) yield result.rows.map(line).join("\n") + "\n";
    if (result.rows.length < batchSize) return;
    after = result.rows[result.rows.length - 1]!.id;
  }
}

/** products-2026-11-28.csv */
export const productsExportFilename = (now = new Date()) => `products-${now.toISOString().slice(0, 10)}.csv`;
