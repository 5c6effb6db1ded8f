import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { importProducts, type ImportSummary } from "./run-import.server";
import { COPY_COLUMNS, writeSampleCsv } from "./sample-csv.server";

export type ImportBenchResult = {
  rows: number;
  importSeconds: number;
  importRowsPerSecond: number;
  copySeconds: number;
  copyRowsPerSecond: number;
  /** importRowsPerSecond / copyRowsPerSecond. */
  ratioToCopy: number;
  /** Peak resident memory of this process during the import, in MB. */
  peakRssMb: number;
  summary: ImportSummary;
};

/**
 * COPY run by the server itself from a file it can read. Needs a superuser (or the
 * pg_read_server_files role) and a file readable by the PostgreSQL server's user.
 */
export async function serverSideCopy(db: Db, copyPath: string) {
  await db.execute(sql.raw(`copy products (${COPY_COLUMNS}) from '${copyPath.replace(/'/g, "''")}' with (format csv)`));
}

/**
 * The import benchmark: the same generated rows loaded by PostgreSQL COPY and by the importer
 * (empty products table each time, on the database given), with this process's peak RSS during
 * the import. Use a database of its own: it empties products.
 */
export async function benchImport(
  db: Db,
  opts: { rows?: number; dir: string; copy?: (db: Db, copyPath: string) => Promise<void> },
): Promise<ImportBenchResult> {
  const rows = opts.rows ?? 100_000;
  fs.mkdirSync(opts.dir, { recursive: true });
  // The database server (another OS user) reads the COPY file.
  fs.chmodSync(opts.dir, 0o755);
  const importPath = path.join(opts.dir, `bench-import-${rows}.csv`);
  const copyPath = path.join(opts.dir, `bench-copy-${rows}.csv`);
  await writeSampleCsv(importPath, rows, { copyPath });
  fs.chmodSync(copyPath, 0o644);
  const empty = () => db.execute(sql`truncate products cascade`);

  await empty();
  let t = performance.now();
  await (opts.copy ?? serverSideCopy)(db, copyPath);
  const copySeconds = (performance.now() - t) / 1000;

  await empty();
  globalThis.gc?.();
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  t = performance.now();
  let summary: ImportSummary;
  try {
    summary = await importProducts(db, importPath);
  } finally {
    clearInterval(sampler);
  }
  const importSeconds = (performance.now() - t) / 1000;
  peak = Math.max(peak, process.memoryUsage.rss());
  fs.rmSync(importPath, { force: true });
  fs.rmSync(copyPath, { force: true });
  const importRowsPerSecond = rows / importSeconds;
  const copyRowsPerSecond = rows / copySeconds;
  return {
    rows,
    importSeconds,
    importRowsPerSecond,
    copySeconds,
    copyRowsPerSecond,
    ratioToCopy: importRowsPerSecond / copyRowsPerSecond,
    peakRssMb: peak / (1024 * 1024),
    summary,
  };
}
