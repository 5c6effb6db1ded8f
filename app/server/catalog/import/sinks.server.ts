import { sql } from "drizzle-orm";
import { type Db, logger } from "../../platform/index.server";
import { detach } from "./fields.server";
import type { VariantMerge } from "./formats.server";
import { applyMerges } from "./merge-variations.server";
import type { SoldSinceExportLine } from "~/lib/import-view";
import type { ProductDraft, ProductField } from "./product-draft.server";
import { lessSalesSinceExport, salesSinceExportLines, type SalesSince } from "./sales-since-export.server";
import { writeProducts } from "./write-products.server";

export type BatchResult = {
  created: number;
  updated: number;
  newCategories: string[];
  failed: { row: number; message: string }[];
  /** The dry run's products whose stock sales changed since the file was exported. */
  soldSinceExport?: SoldSinceExportLine[];
};

/** Where assembled products go: the database, or a dry run that only counts. */
export interface Sink {
  write(drafts: ProductDraft[]): Promise<BatchResult>;
  merge(byParent: Map<string, VariantMerge[]>): Promise<{ merged: number; missing: VariantMerge[] }>;
}

/** A database refusal, in words for the admin (the details go to the log). */
export function describeWriteError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message ?? e.message ?? String(err);
  if (code === "22001") return "Could not be saved: a value is too long";
  if (code === "22003") return "Could not be saved: a number is out of range";
  if (code === "23514") return "Could not be saved: a value is outside the allowed range";
  if (code === "22021" || code === "22P05") return "Could not be saved: the text contains characters PostgreSQL cannot store";
  return `Could not be saved: ${message.split("\n")[0]!.slice(0, 200)}`;
}

/**
 * A batch's commit need not wait for its WAL to reach the disk: a crash can lose only the last
 * moments of an import (never half a batch; PostgreSQL stays consistent), and a 100,000-row file
 * would otherwise wait for a hundred disk flushes. The search indexes' pending entries are merged
 * in memory as big as `work_mem`: 64 MB instead of the default 4 MB makes each batch ~10% faster.
 */
async function relaxCommit(tx: Db) {
  await tx.execute(sql`select set_config('synchronous_commit', 'off', true), set_config('work_mem', '64MB', true)`);
}

/**
 * Writes each batch in one transaction. If the batch fails, nothing of it stays, and it is
 * written again row by row, each row in its own savepoint: the good rows land and each bad row
 * is reported with the database's reason.
 */
export function writeSink(db: Db, provided: Set<ProductField>, ownImagePrefixes: string[], subtractSales?: SalesSince): Sink {
  // The file's stock less the sales since it was read, counted with the products locked.
  const stockNow = (tx: Db, drafts: ProductDraft[]) =>
    subtractSales && provided.has("stock_quantity") ? lessSalesSinceExport(tx, drafts, subtractSales) : drafts;
  // Categories known to exist once a transaction that saw them committed.
  const known = new Map<string, string>();
  const remember = (categories: ReadonlyMap<string, string>) => {
    if (categories !== known) for (const [k, v] of categories) known.set(k, v);
  };
  return {
    async write(drafts) {
      try {
        const r = await db.transaction(async (tx) => {
          await relaxCommit(tx);
          return writeProducts(tx, await stockNow(tx, drafts), provided, ownImagePrefixes, known);
        });
        remember(r.categories);
        return { created: r.created, updated: r.updated, newCategories: r.newCategories, failed: [] };
      } catch (err) {
        logger.info({ err: (err as Error).message, rows: drafts.length }, "import batch failed; retrying row by row");
      }
      const result: BatchResult = { created: 0, updated: 0, newCategories: [], failed: [] };
      const seen: ReadonlyMap<string, string>[] = [];
      await db.transaction(async (tx) => {
        await relaxCommit(tx);
        for (const d of await stockNow(tx, drafts)) {
          try {
            const r = await tx.transaction((sp) => writeProducts(sp, [d], provided, ownImagePrefixes, known));
            result.created += r.created;
            result.updated += r.updated;
            result.newCategories.push(...r.newCategories);
            seen.push(r.categories);
          } catch (err) {
            result.failed.push({ row: d.row, message: describeWriteError(err) });
          }
        }
      });
      seen.forEach(remember);
      return result;
    },
    merge: (byParent) => db.transaction((tx) => applyMerges(tx, byParent)),
  };
}

/** Counts what a real import would create, update and skip, writing nothing. */
export function dryRunSink(db: Db, salesSince?: SalesSince): Sink {
  const seenSkus = new Set<string>();
  const seenCategories = new Set<string>();
  const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
  return {
    async write(drafts) {
      const skus = [...new Set(drafts.map((d) => d.sku).filter((s) => s && !seenSkus.has(s)))];
      const existing = new Set(
        skus.length
          ? rows<{ sku: string }>(await db.execute(sql`select sku from products where sku = any(${sql.param(skus)}::text[])`)).map((r) => r.sku)
          : [],
      );
      const result: BatchResult = { created: 0, updated: 0, newCategories: [], failed: [] };
      if (salesSince) result.soldSinceExport = await salesSinceExportLines(db, drafts, salesSince);
      for (const d of drafts) {
        if (d.sku && (seenSkus.has(d.sku) || existing.has(d.sku))) result.updated++;
        else result.created++;
        if (d.sku) seenSkus.add(detach(d.sku));
      }
      const names = [...new Set(drafts.map((d) => d.category).filter((c) => !seenCategories.has(c.toLowerCase())))];
      if (names.length) {
        const known = new Set(
          rows<{ name: string }>(
            await db.execute(sql`select lower(name) as name from categories where lower(name) = any(${sql.param(names.map((n) => n.toLowerCase()))}::text[])`),
          ).map((r) => r.name),
        );
        for (const n of names) {
          if (seenCategories.has(n.toLowerCase())) continue;
          seenCategories.add(n.toLowerCase());
          if (!known.has(n.toLowerCase())) result.newCategories.push(n);
        }
      }
      return result;
    },
    async merge(byParent) {
      const skus = [...byParent.keys()].filter((s) => !seenSkus.has(s));
      const inShop = new Set(
        skus.length
          ? rows<{ sku: string }>(await db.execute(sql`select sku from products where sku = any(${sql.param(skus)}::text[])`)).map((r) => r.sku)
          : [],
      );
      let merged = 0;
      const missing: VariantMerge[] = [];
      for (const [sku, list] of byParent) {
        if (seenSkus.has(sku) || inShop.has(sku)) merged += list.length;
        else missing.push(...list);
      }
      return { merged, missing };
    },
  };
}
