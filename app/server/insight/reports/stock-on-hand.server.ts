import { sql } from "drizzle-orm";
import type { ReportCell, ReportColumn } from "~/lib/reports-view";
import { type Db, products } from "../../platform/index.server";

/**
 * Stock on hand: every product as it is now, its stock and what that stock is worth at cost and
 * at price. Unlimited stock is listed as such, with no value; a product without a cost has no
 * value at cost (and is counted in the note, so a total is never silently short).
 */

export const STOCK_COLUMNS: ReportColumn[] = [
  { key: "sku", label: "SKU", kind: "text" },
  { key: "name", label: "Product", kind: "text" },
  { key: "category", label: "Category", kind: "text" },
  { key: "status", label: "Status", kind: "text" },
  { key: "stock", label: "Stock", kind: "count" },
  { key: "cost", label: "Cost", kind: "money" },
  { key: "price", label: "Price", kind: "money" },
  { key: "valueAtCost", label: "Value at cost", kind: "money" },
  { key: "valueAtPrice", label: "Value at price", kind: "money" },
];

type StockRow = {
  id: string;
  sku: string;
  name: string;
  category: string;
  active: boolean;
  unlimited: boolean;
  stock: number;
  cost: number | null;
  price: number;
};

const UNLIMITED = "Unlimited";

function cells(r: StockRow): ReportCell[] {
  const status = r.active ? "Active" : "Inactive";
  if (r.unlimited) return [r.sku, r.name, r.category, status, UNLIMITED, r.cost, r.price, null, null];
  return [r.sku, r.name, r.category, status, r.stock, r.cost, r.price, r.cost === null ? null : r.stock * r.cost, r.stock * r.price];
}

const columns = sql`${products.id} as id, ${products.sku} as sku, ${products.name} as name, ${products.category} as category,
  ${products.active} as active, ${products.unlimitedStock} as unlimited, ${products.stockQuantity} as stock,
  ${products.costCents} as cost, ${products.priceCents} as price`;

/** A batch of products after (name, id), by name: keyset paging, so a long export never offsets. */
async function batchAfter(db: Db, after: { name: string; id: string } | null, size: number): Promise<StockRow[]> {
  const cursor = after ? sql`where (${products.name}, ${products.id}) > (${after.name}, ${after.id}::uuid)` : sql``;
  const result = await db.execute<StockRow>(
    sql`select ${columns} from ${products} ${cursor} order by ${products.name}, ${products.id} limit ${size}`,
  );
  return result.rows;
}

export async function firstStockRows(db: Db, n: number): Promise<ReportCell[][]> {
  return (await batchAfter(db, null, n)).map(cells);
}

/**
 * Every product by name, in batches. Each batch is a top-N sort of the products after the last
 * one (no index orders all products by name), so big batches: 10 queries for 100,000 products.
 */
export async function* stockRowBatches(db: Db, size = 10_000): AsyncGenerator<ReportCell[][]> {
  let after: { name: string; id: string } | null = null;
  for (;;) {
    const rows = await batchAfter(db, after, size);
    if (rows.length) yield rows.map(cells);
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = { name: last.name, id: last.id };
  }
}

type StockTotals = { products: number; units: string | number; at_cost: string | number; at_price: string | number; unlimited: number; no_cost: number };

/** The totals row (units and values of counted stock) and what they leave out. */
export async function stockTotals(db: Db): Promise<{ totals: ReportCell[]; note: string }> {
  const result = await db.execute<StockTotals>(sql`
    select count(*)::int as products,
      coalesce(sum(${products.stockQuantity}) filter (where not ${products.unlimitedStock}), 0)::bigint as units,
      coalesce(sum(${products.stockQuantity}::bigint * ${products.costCents}) filter (where not ${products.unlimitedStock}), 0)::bigint as at_cost,
      coalesce(sum(${products.stockQuantity}::bigint * ${products.priceCents}) filter (where not ${products.unlimitedStock}), 0)::bigint as at_price,
      (count(*) filter (where ${products.unlimitedStock}))::int as unlimited,
      (count(*) filter (where not ${products.unlimitedStock} and ${products.costCents} is null and ${products.stockQuantity} > 0))::int as no_cost
    from ${products}`);
  const t = result.rows[0]!;
  const notes = [`${t.products.toLocaleString("en-US")} products.`];
  const verb = (n: number) => (n === 1 ? "has" : "have");
  if (t.unlimited) notes.push(`${t.unlimited.toLocaleString("en-US")} with unlimited stock ${verb(t.unlimited)} no value.`);
  if (t.no_cost) {
    notes.push(`${t.no_cost.toLocaleString("en-US")} in stock ${verb(t.no_cost)} no cost per item, so that stock is not in the value at cost.`);
  }
  return {
    totals: ["", "Total", "", "", Number(t.units), null, null, Number(t.at_cost), Number(t.at_price)],
    note: notes.join(" "),
  };
}
