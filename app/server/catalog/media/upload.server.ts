import type { Metadata, Sharp } from "sharp";
import { formatBytes } from "~/lib/format";
import { DomainError, getEnv, getStorage, loadSharp, logger } from "../../platform/index.server";
import { BitmapError, decodeBmp, decodeIco } from "./bitmap.server";
import { sniffImage, type ImageFormat } from "./sniff.server";

/**
 * A refused upload. The message is the reason, written for the person who uploaded the file; the
 * kind is too_large for a file over the byte limit, bad_input for anything else (a pixel count
 * over the limit included).
 */
export class UploadError extends DomainError<"bad_input" | "too_large"> {
  override name = "UploadError";

  constructor(message: string, kind: "bad_input" | "too_large" = "bad_input") {
    super(message, kind);
  }
}

export const DEFAULT_MAX_PIXELS = 40_000_000;
export const ACCEPTED_FORMATS_TEXT = "PNG, JPEG, GIF, WebP or AVIF";

type OutputFormat = "png" | "jpeg" | "gif" | "webp" | "avif";

const CONTENT_TYPES: Record<OutputFormat, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
};
const EXTENSIONS: Record<OutputFormat, string> = { png: "png", jpeg: "jpg", gif: "gif", webp: "webp", avif: "avif" };

export type UploadOptions = {
  /** "logo" → logo-<timestamp>.<ext>; "blog-images/" → blog-images/<ms timestamp>.<ext> (docs/rules/catalogue-data.md). */
  keyPrefix: string;
  maxBytes?: number;
  maxPixels?: number;
  /** Shrinks a larger image to fit inside this box (never enlarges), e.g. a 6000 px photo for a hero. */
  fit?: { width: number; height: number };
};

async function toBuffer(input: File | Blob | Buffer, maxBytes: number): Promise<Buffer> {
  const size = Buffer.isBuffer(input) ? input.length : input.size;
  if (size === 0) throw new UploadError("The file is empty.");
  if (size > maxBytes) throw new UploadError(`The file is larger than ${formatBytes(maxBytes)}.`, "too_large");
  return Buffer.isBuffer(input) ? input : Buffer.from(await input.arrayBuffer());
}

/**
 * Checks an uploaded image by its content, re-encodes it with sharp (which also drops EXIF, GPS
 * and other metadata) and stores it. Throws UploadError with the reason when the file is refused;
 * nothing is stored then.
 */
export async function saveImageUpload(
  input: File | Blob | Buffer,
  opts: UploadOptions,
): Promise<{ key: string; url: string }> {
  const { body, format } = await processImage(input, opts);
  const key = uploadKey(opts.keyPrefix, EXTENSIONS[format]);
  return getStorage().put(key, body, CONTENT_TYPES[format]);
}

/** The checking and re-encoding half of saveImageUpload, for callers that store elsewhere. */
export async function processImage(
  input: File | Blob | Buffer,
  opts: Omit<UploadOptions, "keyPrefix"> = {},
): Promise<{ body: Buffer; format: OutputFormat; contentType: string; width: number; height: number }> {
  const maxBytes = opts.maxBytes ?? getEnv().UPLOAD_MAX_BYTES;
  const maxPixels = opts.maxPixels ?? DEFAULT_MAX_PIXELS;
  const buf = await toBuffer(input, maxBytes);

  const sniffed = sniffImage(buf);
  if (!sniffed.ok) {
    if (sniffed.kind === "svg")
      throw new UploadError(`SVG images are not allowed. Upload a ${ACCEPTED_FORMATS_TEXT} image.`);
    if (sniffed.kind === "heic")
      throw new UploadError(`HEIC images are not supported. Upload a ${ACCEPTED_FORMATS_TEXT} image.`);
    throw new UploadError(`The file is not a supported image. Upload a ${ACCEPTED_FORMATS_TEXT} image.`);
  }

  const tooLarge = (w: number, h: number) =>
    new UploadError(
      `The image is too large: ${w}×${h} pixels. The limit is ${Math.round(maxPixels / 1_000_000)} megapixels.`,
    );

  const sharp = await loadSharp();
  let image: Sharp;
  let outFormat: OutputFormat;
  const legacy = sniffed.format === "bmp" || sniffed.format === "ico";
  if (sniffed.format === "bmp" || sniffed.format === "ico") {
    image = decodeLegacy(sharp, buf, sniffed.format, maxPixels, tooLarge);
    outFormat = "png";
  } else {
    image = sharp(buf, { limitInputPixels: maxPixels, failOn: "error", animated: isAnimatable(sniffed.format) });
    outFormat = sniffed.format;
  }

  let meta: Metadata;
  try {
    // Headers only, no decoding: safe without the pixel limit, and it lets the reason name the size.
    meta = await (
      legacy ? image : sharp(buf, { limitInputPixels: false, animated: isAnimatable(sniffed.format) })
    ).metadata();
  } catch (err) {
    throw decodeFailure(err, sniffed.format);
  }
  const frameHeight = meta.pageHeight ?? meta.height ?? 0;
  const width = meta.width ?? 0;
  if (width * (meta.height ?? 0) > maxPixels) throw tooLarge(width, frameHeight);

  try {
    let pipeline = meta.pages && meta.pages > 1 ? image : image.autoOrient();
    if (opts.fit) pipeline = pipeline.resize({ ...opts.fit, fit: "inside", withoutEnlargement: true });
    const { data: body, info } = await encode(pipeline, outFormat).toBuffer({ resolveWithObject: true });
    const outHeight = info.pageHeight ?? info.height;
    return { body, format: outFormat, contentType: CONTENT_TYPES[outFormat], width: info.width, height: outHeight };
  } catch (err) {
    throw decodeFailure(err, sniffed.format);
  }
}

const isAnimatable = (f: ImageFormat) => f === "gif" || f === "webp";

function decodeLegacy(
  sharp: Awaited<ReturnType<typeof loadSharp>>,
  buf: Buffer,
  format: "bmp" | "ico",
  maxPixels: number,
  tooLarge: (w: number, h: number) => UploadError,
): Sharp {
  try {
    const raw = format === "bmp" ? decodeBmp(buf, maxPixels) : decodeIco(buf, maxPixels);
    if ("png" in raw) return sharp(raw.png, { limitInputPixels: maxPixels, failOn: "error" });
    return sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } });
  } catch (err) {
    if (err instanceof BitmapError) {
      if (err.kind === "too-large") {
        const [w, h] = err.message.split("×").map(Number);
        throw tooLarge(w ?? 0, h ?? 0);
      }
      if (err.kind === "damaged") throw new UploadError("The image file is damaged or incomplete.");
      throw new UploadError(
        `This kind of ${format.toUpperCase()} file is not supported. Upload a ${ACCEPTED_FORMATS_TEXT} image.`,
      );
    }
    throw err;
  }
}

function encode(image: Sharp, format: OutputFormat): Sharp {
  switch (format) {
    case "png":
      return image.png();
    case "jpeg":
      return image.jpeg({ quality: 85, mozjpeg: true });
    case "gif":
      return image.gif();
    case "webp":
      return image.webp({ quality: 85 });
    case "avif":
      return image.avif({ quality: 60 });
  }
}

function decodeFailure(err: unknown, format: ImageFormat): UploadError {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) return new UploadError("The image is too large: more than the pixel limit allows.");
  logger.info({ err: message, format }, "image upload refused: could not decode");
  return new UploadError("The image file is damaged or incomplete.");
}

let lastTimestamp = 0;

/** Millisecond timestamps, strictly increasing in this process so two uploads never share a name. */
function nextTimestamp(): number {
  lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
  return lastTimestamp;
}

export function uploadKey(prefix: string, ext: string): string {
  const ts = nextTimestamp();
  return prefix.endsWith("/") ? `${prefix}${ts}.${ext}` : `${prefix}-${ts}.${ext}`;
}
