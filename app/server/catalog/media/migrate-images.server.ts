import { and, asc, count, eq, gt, sql } from "drizzle-orm";
import { createJob, type Db, DomainError, getEnv, getStorage, heartbeat, logger, products, reapStaleJobs, toJobView, updateJob } from "../../platform/index.server";
import type { JobView } from "~/lib/jobs-view";
import type { MigrationOutcome, MigrationResult } from "~/lib/media-view";
import { FetchImageError, fetchImage, type FetchImageOptions } from "./migrate-images-fetch.server";
import { sniffImage } from "./sniff.server";
import { processImage, uploadKey, UploadError } from "./upload.server";

/**
 * Image migration (docs/rules/admin.md, Migrate Images tab): every product whose image is an external web address gets it
 * downloaded, checked, re-encoded by sharp and stored in the shop's own storage, and its
 * image_url rewritten. A product whose download fails keeps its old image; its row says why.
 */

export type MigrationOptions = {
  concurrency?: number;
  fetch?: Partial<FetchImageOptions>;
  onProgress?: (p: { processed: number; migrated: number; failed: number; last: MigrationResult }) => void;
};

export const MIGRATION_RUNNING = "An image migration is already running. Wait for it to finish.";
const MAX_KEPT_RESULTS = 2000;
const MAX_PIXELS = 40_000_000;

/** A migration that cannot start: another one is still running. */
export class MigrationRequestError extends DomainError<"conflict"> {
  constructor(message: string) {
    super(message, "conflict");
  }
}

const EXTENSIONS: Record<string, string> = { png: "png", jpeg: "jpg", gif: "gif", webp: "webp", avif: "avif" };
const EXTERNAL = sql`${products.imageUrl} ~* '^\\s*https?://'`;

function firstWebAddress(imageUrl: string): string | null {
  return /https?:\/\/[^\s,"'<>]+/i.exec(imageUrl)?.[0] ?? null;
}

function fetchOptions(overrides: Partial<FetchImageOptions> = {}): FetchImageOptions {
  return {
    timeoutMs: 15_000,
    maxBytes: 20 * 1024 * 1024,
    maxRedirects: 5,
    allowPrivate: getEnv().IMAGE_FETCH_ALLOW_PRIVATE,
    ...overrides,
  };
}

function sniffFailure(body: Buffer): string {
  const sniffed = sniffImage(body);
  if (sniffed.ok) return "";
  if (sniffed.kind === "svg") return "SVG images are not accepted; the shop stores raster images only";
  if (sniffed.kind === "heic") return "HEIC images are not supported";
  const head = body.subarray(0, 512).toString("utf8").trimStart().toLowerCase();
  if (head.startsWith("<!doctype html") || head.startsWith("<html") || head.includes("<body")) return "Not an image: the address returned a web page";
  return "Not an image: the downloaded file is not a PNG, JPEG, GIF, WebP or AVIF image";
}

/** Migrates one product's image; never throws for the image's own problems. */
async function migrateOne(db: Db, p: { id: string; name: string; imageUrl: string }, opts: FetchImageOptions): Promise<MigrationResult> {
  const result = (error: string | null): MigrationResult => ({ productId: p.id, productName: p.name, success: error === null, error });
  const url = firstWebAddress(p.imageUrl);
  if (!url) return result("The image address is not a web address");
  let stored: { key: string; url: string } | undefined;
  try {
    const { body } = await fetchImage(url, opts);
    const notImage = sniffFailure(body);
    if (notImage) return result(notImage);
    const image = await processImage(body, { maxBytes: opts.maxBytes, maxPixels: MAX_PIXELS });
    stored = await getStorage().put(uploadKey(`products/${p.id}`, EXTENSIONS[image.format] ?? "img"), image.body, image.contentType);
    // Only if nobody changed the image meanwhile; otherwise their change wins.
    const updated = await db
      .update(products)
      .set({ imageUrl: stored.url, updatedAt: new Date() })
      .where(and(eq(products.id, p.id), eq(products.imageUrl, p.imageUrl)))
      .returning({ id: products.id });
    if (updated.length === 0) {
      await getStorage().delete(stored.key).catch(() => {});
      return result("The product's image was changed during the migration; it was left as it is");
    }
    return result(null);
  } catch (err) {
    if (err instanceof FetchImageError || err instanceof UploadError) return result(err.message);
    logger.error({ err, product: p.id }, "image migration of one product failed");
    if (stored) await getStorage().delete(stored.key).catch(() => {});
    return result("The image could not be stored");
  }
}

/** Runs the migration over every product with an external image, at most `concurrency` at a time. */
export async function migrateProductImages(db: Db, opts: MigrationOptions = {}): Promise<MigrationOutcome> {
  const fetchOpts = fetchOptions(opts.fetch);
  const concurrency = Math.max(1, Math.min(opts.concurrency ?? 4, 8));
  const storage = getStorage();
  let cursor = "00000000-0000-0000-0000-000000000000";
  let page: { id: string; name: string; imageUrl: string }[] = [];
  let exhausted = false;
  const results: MigrationResult[] = [];
  let migrated = 0;
  let failed = 0;
  let processed = 0;

  // Products are read a page at a time in id order, so a large catalogue is never all in memory.
  async function next() {
    while (page.length === 0 && !exhausted) {
      const rows = await db
        .select({ id: products.id, name: products.name, imageUrl: products.imageUrl })
        .from(products)
        .where(and(EXTERNAL, gt(products.id, cursor)))
        .orderBy(asc(products.id))
        .limit(200);
      if (rows.length < 200) exhausted = true;
      if (rows.length) cursor = rows[rows.length - 1]!.id;
      page = rows.filter((r) => storage.keyFromUrl(r.imageUrl.trim()) === null);
    }
    return page.shift();
  }

  let pulling = Promise.resolve<unknown>(undefined);
  const take = () => {
    const p = pulling.then(next);
    pulling = p.catch(() => {});
    return p;
  };

  async function worker() {
    for (let p = await take(); p; p = await take()) {
      const r = await migrateOne(db, p, fetchOpts);
      processed++;
      if (r.success) migrated++;
      else failed++;
      if (!r.success || results.length < MAX_KEPT_RESULTS / 2) if (results.length < MAX_KEPT_RESULTS) results.push(r);
      opts.onProgress?.({ processed, migrated, failed, last: r });
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { migrated, failed, results };
}

/** How many products a migration would look at. */
export async function countExternalImages(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(products).where(EXTERNAL);
  return row?.n ?? 0;
}

/** Starts the migration as a server-side job (kind 'image-migration') and returns at once. */
export async function startImageMigration(
  db: Db,
  input: { overwrite: boolean; userId: string | null },
  opts: MigrationOptions = {},
): Promise<JobView> {
  await reapStaleJobs(db, "image-migration");
  const total = await countExternalImages(db);
  let job;
  try {
    job = await createJob(db, "image-migration", { status: "running", total, detail: { overwrite: input.overwrite }, createdBy: input.userId }, MIGRATION_RUNNING);
  } catch (err) {
    throw new MigrationRequestError((err as Error).message);
  }
  void runMigrationJob(db, job.id, total, opts);
  return toJobView(job);
}

async function runMigrationJob(db: Db, jobId: string, total: number, opts: MigrationOptions) {
  const stop = heartbeat(db, jobId);
  let lastWrite = 0;
  let writing: Promise<unknown> = Promise.resolve();
  try {
    const { migrated, failed, results } = await migrateProductImages(db, {
      ...opts,
      onProgress: (p) => {
        opts.onProgress?.(p);
        // At most four progress writes a second; the last word comes when the job ends.
        if (Date.now() - lastWrite < 250) return;
        lastWrite = Date.now();
        writing = writing.then(() => updateJob(db, jobId, { processed: Math.min(p.processed, total), succeeded: p.migrated, failed: p.failed })).catch(() => {});
      },
    });
    await writing;
    await updateJob(db, jobId, {
      status: "done",
      processed: total,
      succeeded: migrated,
      failed,
      errors: results.filter((r) => !r.success).map((r) => `${r.productName}: ${r.error}`),
      result: { migrated, failed, results } satisfies MigrationOutcome,
      finishedAt: new Date(),
    });
    logger.info({ job: jobId, migrated, failed }, "image migration finished");
  } catch (err) {
    logger.error({ err, job: jobId }, "image migration failed");
    await writing;
    await updateJob(db, jobId, { status: "failed", result: { message: "The migration stopped because of a server error" }, finishedAt: new Date() }).catch(() => {});
  } finally {
    stop();
  }
}
