/**
 * What the browser sees of a product CSV import: the dry run the admin confirms and what the
 * finished import did, carried in the import job's `detail` and `result` (app/lib/jobs-view.ts).
 * Plain types, safe to import anywhere; app/server/catalog/import/import-jobs.server.ts builds these values
 * and is checked against them.
 */

/** What a dry run or an import says about the rows: every error and note counted, the first kept. */
export type ImportMessages = {
  errorCount: number;
  /** The first "Row N: message" lines; `errorCount` counts them all. */
  errors: string[];
  noteCount: number;
  notes: string[];
  newCategories: string[];
};

/** A product whose stock sales changed since the re-imported file was exported. */
export type SoldSinceExportLine = { sku: string; name: string; fileStock: number; sold: number; stockAfter: number };

/**
 * Sales since a re-imported export's stock was read: `units` sold (net of returns) over `products`
 * products, and the first lines. Absent when the file says nothing of when its stock was read.
 */
export type SoldSinceExport = { units: number; products: number; lines: SoldSinceExportLine[] };

/** What the dry run found: nothing has been written yet (JobView.detail.dryRun). */
export type ImportDryRun = ImportMessages & {
  /** The detected file format ("generic", "woocommerce", "shopify-legacy", "shopify-2024"). */
  format: string;
  formatLabel: string;
  /** Data rows in the file (blank lines not counted). */
  rows: number;
  create: number;
  update: number;
  skip: number;
  /** WooCommerce variation rows merged into their parent product. */
  merged: number;
  soldSinceExport?: SoldSinceExport;
};

/** An import job's `detail`: where it stands, the uploaded file's name and, once checked, the dry run. */
export type ImportJobDetail = {
  stage?: "checking" | "confirm" | "running";
  fileName?: string;
  fileBytes?: number;
  dryRun?: ImportDryRun;
  /** The owner's choice for stock sold since the file was exported: subtract it (the default) or use the file's. */
  stock?: "subtract" | "file";
};

/** What a finished import did (JobView.result). */
export type ImportResult = ImportMessages & {
  formatLabel: string;
  /** Created plus updated. */
  imported: number;
  created: number;
  updated: number;
  skipped: number;
  merged: number;
};
