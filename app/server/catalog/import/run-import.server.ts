import fs from "node:fs";
import type { Readable } from "node:stream";
import type { ImportMessages, SoldSinceExport } from "~/lib/import-view";
import { type Db, getEnv, MEDIA_PREFIX } from "../../platform/index.server";
import { detach } from "./fields.server";
import { memoryGuard } from "./memory.server";
import { ImportFileError, isBlankRecord, readCsvRecords, type CsvRecord } from "./csv-reader.server";
import { detectFormat, FORMAT_LABELS, Header, type Assembler, type ImportFormat, type Outcome, type VariantMerge } from "./formats.server";
import { genericAssembler, TITLE_COLUMNS } from "./generic-format.server";
import { groupMerges } from "./merge-variations.server";
import type { ProductDraft } from "./product-draft.server";
import type { SalesSince, StockChoice } from "./sales-since-export.server";
import { dryRunSink, writeSink, type Sink } from "./sinks.server";
import { shopifyAssembler } from "./shopify-format.server";
import { wooCommerceAssembler } from "./woocommerce-format.server";

export type ImportSource = string | Readable | AsyncIterable<Uint8Array | string> | (Uint8Array | string)[];

export type ImportProgress = { processed: number; bytes: number };

export type ImportOptions = {
  /** Count what would happen and write nothing. */
  dryRun?: boolean;
  batchSize?: number;
  /** After every batch: data rows handled so far and bytes read. */
  onProgress?: (p: ImportProgress) => void | Promise<void>;
  /** How many error and note lines to keep (all are counted). */
  maxMessages?: number;
  /**
   * The sales since a time (the commerce area's count). A dry run reports the products a file's
   * stock no longer matches because of them; an import subtracts them from the file's stock
   * unless `stock` is "file". Without it, stock is the file's, as for other shops' files.
   */
  salesSince?: SalesSince;
  stock?: StockChoice;
};

export type ImportSummary = ImportMessages & {
  dryRun: boolean;
  format: ImportFormat;
  formatLabel: string;
  /** Data rows in the file (blank lines not counted). */
  rows: number;
  created: number;
  updated: number;
  /** Rows not imported: refused (errors) or deliberately skipped (notes say why). */
  skipped: number;
  /** WooCommerce variation rows merged into their parent product. */
  merged: number;
  soldSinceExport?: SoldSinceExport;
};

/** Batches written at once by a real import (each in its own transaction and connection). */
const WRITERS = 2;

function assemblerFor(format: ImportFormat, header: Header): Assembler {
  if (format === "woocommerce") return wooCommerceAssembler(header);
  if (format === "shopify-legacy" || format === "shopify-2024") return shopifyAssembler(header);
  return genericAssembler(header);
}

/** Images already in the shop's storage are kept when a re-import names the external original. */
function ownImagePrefixes(): string[] {
  const env = getEnv();
  return [MEDIA_PREFIX, ...(env.S3_PUBLIC_URL ? [env.S3_PUBLIC_URL.replace(/\/?$/, "/")] : [])];
}

/**
 * Imports products from a CSV file or stream (the specified columns, a WooCommerce export or a
 * Shopify export, detected from the header). Reads as a stream, writes batches in transactions
 * (a failing batch is retried row by row, so every good row lands and no batch is half-written),
 * and reports every refused row as "Row N: message". Throws ImportFileError when the file as a
 * whole is unusable: nothing is written then.
 */
export async function importProducts(db: Db, source: ImportSource, opts: ImportOptions = {}): Promise<ImportSummary> {
  const batchSize = opts.batchSize ?? 1000;
  const maxMessages = opts.maxMessages ?? 1000;
  const input = typeof source === "string" ? fs.createReadStream(source, { highWaterMark: 256 * 1024 }) : source;
  let bytes = 0;
  const records = readCsvRecords(input, { onBytes: (b) => (bytes = b) });
  // The batches being written, each with its SKUs. An import that stops early ends only after them.
  const writing = new Map<Promise<void>, Set<string>>();
  try {
    // The header is the first line with something on it (Excel sometimes leaves blank lines above).
    let first = await records.next();
    while (!first.done && !first.value.problem && isBlankRecord(first.value.fields)) first = await records.next();
    if (first.done) throw new ImportFileError("The file is empty");
    if (first.value.problem) throw new ImportFileError(`The header row cannot be read: ${first.value.problem}`);
    const header = new Header(first.value.fields);
    const format = detectFormat(header);
    const assembler = assemblerFor(format, header);
    const sink: Sink = opts.dryRun
      ? dryRunSink(db, opts.salesSince)
      : writeSink(db, new Set(assembler.provided), ownImagePrefixes(), opts.stock === "file" ? undefined : opts.salesSince);

    const summary: ImportSummary = {
      dryRun: Boolean(opts.dryRun),
      format,
      formatLabel: FORMAT_LABELS[format],
      rows: 0,
      created: 0,
      updated: 0,
      skipped: 0,
      merged: 0,
      errorCount: 0,
      errors: [],
      noteCount: 0,
      notes: [],
      newCategories: [],
    };
    const error = (row: number, message: string) => {
      summary.skipped++;
      summary.errorCount++;
      if (summary.errors.length < maxMessages) summary.errors.push(`Row ${row}: ${message}`);
    };
    const note = (row: number, message: string) => {
      summary.noteCount++;
      if (summary.notes.length < maxMessages) summary.notes.push(`Row ${row}: ${message}`);
    };

    let batch: ProductDraft[] = [];
    let batchSkus = new Set<string>();
    const skuRows = new Map<string, number>();
    const merges: VariantMerge[] = [];
    let processed = 0;
    const keepMemoryDown = memoryGuard();

    // Two batches are written at once while the next one is parsed: PostgreSQL spends most of
    // an import updating the search indexes, one core per writer (docs/decisions/0006). A dry
    // run counts in order, one batch at a time.
    const maxWriters = opts.dryRun ? 1 : WRITERS;
    // Batches in file order: progress counts a batch only once every batch before it is written.
    const queue: { doneRows: number; written: boolean }[] = [];
    let writeError: unknown;

    const reportProgress = async () => {
      let doneRows: number | undefined;
      while (queue[0]?.written) doneRows = queue.shift()!.doneRows;
      if (doneRows !== undefined) await opts.onProgress?.({ processed: doneRows, bytes });
    };

    const flush = async () => {
      if (writeError) throw writeError;
      const drafts = batch;
      const skus = batchSkus;
      batch = [];
      batchSkus = new Set();
      if (drafts.length === 0) return;
      // A SKU an earlier batch is still writing must land first: the later row updates it.
      for (const [write, earlier] of [...writing]) {
        for (const sku of skus) {
          if (earlier.has(sku)) {
            await write;
            break;
          }
        }
      }
      while (writing.size >= maxWriters) await Promise.race(writing.keys());
      if (writeError) throw writeError;
      const slot = { doneRows: processed, written: false };
      queue.push(slot);
      const write = (async () => {
        try {
          const r = await sink.write(drafts);
          keepMemoryDown();
          summary.created += r.created;
          summary.updated += r.updated;
          for (const c of r.newCategories) if (summary.newCategories.length < 100) summary.newCategories.push(c);
          for (const line of r.soldSinceExport ?? []) {
            const sold = (summary.soldSinceExport ??= { units: 0, products: 0, lines: [] });
            sold.units += line.sold;
            sold.products++;
            if (sold.lines.length < 20) sold.lines.push(line);
          }
          for (const f of r.failed) error(f.row, f.message);
          slot.written = true;
          await reportProgress();
        } catch (err) {
          writeError ??= err;
        }
      })();
      writing.set(write, skus);
      void write.then(() => writing.delete(write));
    };
    const drain = async () => {
      await Promise.all(writing.keys());
      if (writeError) throw writeError;
    };

    const handle = async (outcomes: Outcome[]) => {
      for (const o of outcomes) {
        if (o.kind === "error") error(o.row, o.message);
        else if (o.kind === "skip") {
          summary.skipped++;
          note(o.row, o.message);
        } else if (o.kind === "note") note(o.row, o.message);
        else if (o.kind === "merge") merges.push(o.merge);
        else {
          const sku = o.draft.sku;
          if (sku) {
            const earlier = skuRows.get(sku);
            if (earlier !== undefined) note(o.draft.row, `SKU '${sku}' is also on row ${earlier}; this row updates that product`);
            else skuRows.set(detach(sku), o.draft.row);
            // The same SKU twice in one statement is refused by PostgreSQL: the earlier row goes first.
            if (batchSkus.has(sku)) await flush();
            batchSkus.add(sku);
          }
          batch.push(o.draft);
          if (batch.length >= batchSize) await flush();
        }
      }
    };

    if (format === "generic" && !header.has("title") && header.find(...TITLE_COLUMNS).length === 0) {
      note(1, `No title column found: the header needs one of ${TITLE_COLUMNS.join(", ")}`);
    }
    for await (const record of records) {
      if (isBlankRecord(record.fields) && !record.problem) continue;
      processed++;
      summary.rows++;
      const problem = record.problem ?? columnProblem(record, header);
      if (problem) error(record.row, problem);
      else await handle(assembler.push(record));
    }
    await handle(assembler.end());
    await flush();
    await drain();
    if (summary.rows === 0) throw new ImportFileError("The file has a header row but no product rows");

    if (merges.length) {
      const m = await sink.merge(groupMerges(merges));
      summary.merged = m.merged;
      for (const v of m.missing) error(v.row, `The parent product '${v.parentSku}' of this variation was not found`);
    }
    await opts.onProgress?.({ processed, bytes });
    return summary;
  } finally {
    // A failed batch or a bad file must not leave the other writer committing after the job
    // has been reported failed (its counts would no longer match the database).
    await Promise.allSettled([...writing.keys()]);
    await records.return(undefined);
    if (typeof source === "string") (input as fs.ReadStream).destroy();
  }
}

/** A row with more cells than the header names, all of them used, is not what the header describes. */
function columnProblem(record: CsvRecord, header: Header): string | undefined {
  const extra = record.fields.length - header.names.length;
  if (extra <= 0) return undefined;
  for (let i = header.names.length; i < record.fields.length; i++) {
    if (record.fields[i]!.trim() !== "") {
      return `Has ${record.fields.length.toLocaleString("en-US")} columns but the header has ${header.names.length.toLocaleString("en-US")}`;
    }
  }
  return undefined;
}
