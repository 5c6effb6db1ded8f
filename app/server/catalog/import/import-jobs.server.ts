import fs from "node:fs";
import path from "node:path";
import { formatBytes } from "~/lib/format";
import { createJob, type Db, deleteJob, DomainError, getEnv, getJob, heartbeat, type JobRow, logger, reapStaleJobs, toJobView, transitionJob, unfinishedJob, updateJob } from "../../platform/index.server";
import { ImportFileError, INVALID_FILE_TYPE } from "./csv-reader.server";
import type { ImportDryRun, ImportJobDetail, ImportResult } from "~/lib/import-view";
import type { JobView } from "~/lib/jobs-view";
import { importProducts, type ImportSummary } from "./run-import.server";
import type { SalesSince, StockChoice } from "./sales-since-export.server";
import { saveUpload, UploadRefused } from "./save-upload.server";

export type ImportRefusal = "bad_input" | "not_found" | "conflict" | "too_large" | "unsupported_type";

/** A refusal the admin should read; its kind tells the route edge how to answer. */
export class ImportRequestError extends DomainError<ImportRefusal> {
  constructor(message: string, kind: ImportRefusal) {
    super(message, kind);
  }
}

export const IMPORT_RUNNING = "An import is already running. Wait for it to finish, then try again.";
const DRY_RUN_MESSAGES = 20;

const CSV_TYPES = new Set(["text/csv", "application/csv", "text/x-csv", "application/x-csv", "text/comma-separated-values"]);
// What browsers and operating systems also call a .csv file (Excel on Windows says vnd.ms-excel).
const CSV_BY_NAME_TYPES = new Set(["", "text/plain", "application/vnd.ms-excel", "application/octet-stream"]);

/** Only CSV files (docs/rules/catalogue-data.md); the content is checked again while it streams in. */
export function isCsvFile(fileName: string, contentType: string): boolean {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (CSV_TYPES.has(type)) return true;
  return /\.csv$/i.test(fileName) && CSV_BY_NAME_TYPES.has(type);
}

const importsDir = () => path.resolve(getEnv().DATA_DIR, "imports");
const fileOf = (job: JobRow) => String((job.detail as { file?: string }).file ?? "");

function removeFile(file: string) {
  if (file) fs.rmSync(file, { force: true });
}

/** Uploads left behind by a server that stopped mid-import; only the unfinished job's file stays. */
function sweepImportFiles(keepJobId: string | undefined) {
  let names: string[];
  try {
    names = fs.readdirSync(importsDir());
  } catch {
    return;
  }
  for (const name of names) if (!keepJobId || !name.startsWith(keepJobId)) removeFile(path.join(importsDir(), name));
}

/** What the dry run tells the admin before anything is written. */
function dryRunDetail(s: ImportSummary): ImportDryRun {
  return {
    format: s.format,
    formatLabel: s.formatLabel,
    rows: s.rows,
    create: s.created,
    update: s.updated,
    skip: s.skipped,
    merged: s.merged,
    errorCount: s.errorCount,
    errors: s.errors.slice(0, DRY_RUN_MESSAGES),
    noteCount: s.noteCount,
    notes: s.notes.slice(0, DRY_RUN_MESSAGES),
    newCategories: s.newCategories,
    ...(s.soldSinceExport ? { soldSinceExport: s.soldSinceExport } : {}),
  };
}

/**
 * Receives a CSV upload as a stream into DATA_DIR/imports, dry-runs it and leaves a pending job
 * awaiting the admin's confirmation. A new upload replaces an unconfirmed one; a running import
 * refuses it (one import at a time).
 */
export async function receiveImportUpload(
  db: Db,
  upload: { body: AsyncIterable<Uint8Array> | null; fileName: string; contentType: string; contentLength: number | null; userId: string },
  salesSince?: SalesSince,
): Promise<JobView> {
  const fileName = upload.fileName.slice(0, 200) || "products.csv";
  if (!isCsvFile(fileName, upload.contentType)) throw new ImportRequestError(INVALID_FILE_TYPE, "unsupported_type");
  const maxBytes = getEnv().IMPORT_MAX_BYTES;
  const tooLarge = `The file is larger than ${formatBytes(maxBytes)}`;
  if (upload.contentLength !== null && upload.contentLength > maxBytes) throw new ImportRequestError(tooLarge, "too_large");
  if (!upload.body) throw new ImportRequestError("The file is empty", "bad_input");

  await reapStaleJobs(db, "import");
  const open = await unfinishedJob(db, "import");
  sweepImportFiles(open?.id);
  if (open?.status === "running") throw new ImportRequestError(IMPORT_RUNNING, "conflict");
  if (open) {
    removeFile(fileOf(open));
    await deleteJob(db, open.id);
  }
  let job: JobRow;
  try {
    job = await createJob(db, "import", { detail: { stage: "checking", fileName } satisfies ImportJobDetail, createdBy: upload.userId }, IMPORT_RUNNING);
  } catch (err) {
    throw new ImportRequestError((err as Error).message, "conflict");
  }

  const file = path.join(importsDir(), `${job.id}.csv`);
  try {
    const bytes = await saveUpload(upload.body, file, maxBytes).catch((err: unknown) => {
      if (err instanceof UploadRefused) throw err;
      throw new ImportRequestError("The upload did not arrive completely; try again", "bad_input");
    });
    const summary = await importProducts(db, file, { dryRun: true, salesSince });
    // `file` is the server's own: toJobView leaves it out of what the browser sees.
    const detail = { stage: "confirm", fileName, fileBytes: bytes, file, dryRun: dryRunDetail(summary) } satisfies ImportJobDetail & { file: string };
    await updateJob(db, job.id, { detail, total: summary.rows });
    return toJobView({ ...job, detail, total: summary.rows });
  } catch (err) {
    removeFile(file);
    await deleteJob(db, job.id);
    if (err instanceof UploadRefused) throw new ImportRequestError(err.reason === "too-large" ? tooLarge : INVALID_FILE_TYPE, err.kind);
    if (err instanceof ImportRequestError) throw err;
    if (err instanceof ImportFileError) throw new ImportRequestError(err.message, err.kind);
    throw err;
  }
}

/**
 * The admin confirmed the dry run: the import starts on the server and the call returns at once.
 * `stock`: for a re-imported export, the file's stock less the sales since it was exported
 * ("subtract", the default) or the file's as it is.
 */
export async function confirmImport(db: Db, jobId: string, opts: { stock?: StockChoice; salesSince?: SalesSince } = {}): Promise<JobView> {
  const job = await getJob(db, jobId);
  if (!job || job.kind !== "import") throw new ImportRequestError("Import not found", "not_found");
  const detail = { ...(job.detail as Record<string, unknown>), stage: "running", stock: opts.stock ?? "subtract" };
  const started = (job.detail as { stage?: string }).stage === "confirm" && (await transitionJob(db, job.id, "pending", { status: "running", detail }));
  if (!started) throw new ImportRequestError("This import has already started or was replaced by a newer upload", "conflict");
  const running = { ...job, status: "running" as const, detail };
  void runImportJob(db, running, opts.salesSince);
  return toJobView(running);
}

/** Throws away an upload that was not confirmed. */
export async function discardImport(db: Db, jobId: string) {
  const job = await getJob(db, jobId);
  if (!job || job.kind !== "import" || job.status !== "pending") throw new ImportRequestError("There is no unconfirmed import to discard", "conflict");
  removeFile(fileOf(job));
  await deleteJob(db, job.id);
}

/** Runs a confirmed import to the end, recording progress after every batch. */
export async function runImportJob(db: Db, job: JobRow, salesSince?: SalesSince) {
  const stop = heartbeat(db, job.id);
  const file = fileOf(job);
  try {
    const summary = await importProducts(db, file, {
      salesSince,
      stock: (job.detail as ImportJobDetail).stock ?? "subtract",
      onProgress: ({ processed }) => updateJob(db, job.id, { processed: Math.min(processed, job.total) }),
    });
    const imported = summary.created + summary.updated;
    await updateJob(db, job.id, {
      status: "done",
      processed: job.total,
      succeeded: imported,
      failed: summary.errorCount,
      errors: summary.errors,
      result: { ...summary, imported } satisfies ImportResult,
      finishedAt: new Date(),
    });
    logger.info({ job: job.id, imported, errors: summary.errorCount }, "import finished");
  } catch (err) {
    const message = err instanceof ImportFileError ? err.message : "The import stopped because of a server error; the rows written so far are kept";
    logger.error({ err, job: job.id }, "import failed");
    await updateJob(db, job.id, { status: "failed", result: { message }, finishedAt: new Date() }).catch(() => {});
  } finally {
    stop();
    removeFile(file);
  }
}
