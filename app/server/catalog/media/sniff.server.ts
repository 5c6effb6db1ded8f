/**
 * Recognises an image by its first bytes. The file name and the declared type come from the
 * uploader and prove nothing, so they are never consulted.
 */
export type ImageFormat = "png" | "jpeg" | "gif" | "webp" | "avif" | "bmp" | "ico";

export type Sniffed = { ok: true; format: ImageFormat } | { ok: false; kind: "svg" | "heic" | "unknown" };

const ascii = (buf: Buffer, start: number, end: number) => buf.subarray(start, end).toString("latin1");

export function sniffImage(buf: Buffer): Sniffed {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { ok: true, format: "png" };
  }
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return { ok: true, format: "jpeg" };
  if (buf.length >= 6 && (ascii(buf, 0, 6) === "GIF87a" || ascii(buf, 0, 6) === "GIF89a"))
    return { ok: true, format: "gif" };
  if (buf.length >= 12 && ascii(buf, 0, 4) === "RIFF" && ascii(buf, 8, 12) === "WEBP")
    return { ok: true, format: "webp" };
  if (buf.length >= 12 && ascii(buf, 4, 8) === "ftyp") {
    // ISO-BMFF: the major brand and the compatible brands say whether this is AVIF or HEIC.
    const boxSize = Math.min(buf.readUInt32BE(0), buf.length, 256);
    const brands: string[] = [ascii(buf, 8, 12)];
    for (let i = 16; i + 4 <= boxSize; i += 4) brands.push(ascii(buf, i, i + 4));
    if (brands.some((b) => b === "avif" || b === "avis")) return { ok: true, format: "avif" };
    if (brands.some((b) => ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"].includes(b))) {
      return { ok: false, kind: "heic" };
    }
    return { ok: false, kind: "unknown" };
  }
  if (buf.length >= 26 && ascii(buf, 0, 2) === "BM") return { ok: true, format: "bmp" };
  if (buf.length >= 22 && buf.readUInt16LE(0) === 0 && buf.readUInt16LE(2) === 1 && buf.readUInt16LE(4) > 0) {
    return { ok: true, format: "ico" };
  }
  if (looksLikeSvg(buf)) return { ok: false, kind: "svg" };
  return { ok: false, kind: "unknown" };
}

function looksLikeSvg(buf: Buffer): boolean {
  // Text formats: skip a BOM and whitespace, then look for an <svg element in the first few KB.
  const head = buf
    .subarray(0, 4096)
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart()
    .toLowerCase();
  if (!head.startsWith("<")) return false;
  return /<svg[\s>]/.test(head);
}
