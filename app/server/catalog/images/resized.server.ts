import fs from "node:fs/promises";
import path from "node:path";
import { RESIZED_WIDTHS } from "~/lib/images";
import { DiskStorage, getStorage, loadSharp, logger } from "../../platform/index.server";

const RASTER = /\.(webp|png|jpe?g|gif|avif)$/i;

/**
 * A width variant of an image in disk storage, as WebP, made once and kept beside the uploads
 * (under `.resized/`, a name no storage key can take). Null when the width is not one we serve,
 * the key is unsafe or not a raster image, the file is missing, or storage is not on disk (S3
 * objects are served by the bucket itself).
 */
export async function resizedImage(width: number, key: string): Promise<Buffer | null> {
  if (!(RESIZED_WIDTHS as readonly number[]).includes(width) || !RASTER.test(key)) return null;
  const storage = getStorage();
  if (!(storage instanceof DiskStorage)) return null;
  let source: string;
  try {
    source = storage.resolve(key);
  } catch {
    return null;
  }
  const cached = path.join(storage.root, ".resized", String(width), `${key}.webp`);
  try {
    const [src, out] = await Promise.all([fs.stat(source), fs.stat(cached)]);
    // A re-uploaded file under the same key makes its variants stale.
    if (out.mtimeMs >= src.mtimeMs) return await fs.readFile(cached);
  } catch {
    // No variant yet (or no source: answered below).
  }
  let body: Buffer;
  try {
    const sharp = await loadSharp();
    body = await sharp(source, { animated: false })
      .rotate()
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: 78 })
      .toBuffer();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && !/missing|unsupported/i.test(String((err as Error).message))) {
      logger.warn({ err: (err as Error).message, key, width }, "could not resize image");
    }
    return null;
  }
  // Written aside and renamed, so a concurrent reader never sees half a file; a failed write
  // only costs the next request another resize.
  const tmp = `${cached}.${process.pid}.${Date.now()}.tmp`;
  try {
    await fs.mkdir(path.dirname(cached), { recursive: true });
    await fs.writeFile(tmp, body);
    await fs.rename(tmp, cached);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    logger.warn({ err: (err as Error).message, key, width }, "could not cache resized image");
  }
  return body;
}
