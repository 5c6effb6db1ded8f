/**
 * Decoders for BMP and ICO, which the prebuilt sharp cannot read (it has no ImageMagick). The blog
 * editor accepts them, so they are turned into raw RGBA pixels here and re-encoded by sharp.
 * Only the common, uncompressed layouts are read; anything else is refused as unsupported.
 */
export type RawImage = { width: number; height: number; data: Buffer } | { png: Buffer };

export class BitmapError extends Error {
  constructor(
    message: string,
    readonly kind: "damaged" | "unsupported" | "too-large",
  ) {
    super(message);
  }
}

const damaged = () => new BitmapError("damaged bitmap", "damaged");

function need(buf: Buffer, end: number) {
  if (end > buf.length) throw damaged();
}

export function decodeBmp(buf: Buffer, maxPixels: number): RawImage {
  need(buf, 18);
  const pixelOffset = buf.readUInt32LE(10);
  return decodeDib(buf, 14, { pixelOffset, maxPixels, icon: false });
}

export function decodeIco(buf: Buffer, maxPixels: number): RawImage {
  need(buf, 6);
  const count = buf.readUInt16LE(4);
  need(buf, 6 + count * 16);
  let best: { offset: number; size: number; area: number; bpp: number } | undefined;
  for (let i = 0; i < count; i++) {
    const e = 6 + i * 16;
    const w = buf[e] || 256;
    const h = buf[e + 1] || 256;
    const bpp = buf.readUInt16LE(e + 6);
    const size = buf.readUInt32LE(e + 8);
    const offset = buf.readUInt32LE(e + 12);
    const area = w * h;
    if (!best || area > best.area || (area === best.area && bpp > best.bpp)) best = { offset, size, area, bpp };
  }
  if (!best) throw damaged();
  need(buf, best.offset + best.size);
  const entry = buf.subarray(best.offset, best.offset + best.size);
  if (entry.length >= 8 && entry.readUInt32BE(0) === 0x89504e47) return { png: Buffer.from(entry) };
  return decodeDib(entry, 0, { pixelOffset: undefined, maxPixels, icon: true });
}

function decodeDib(
  buf: Buffer,
  start: number,
  opts: { pixelOffset: number | undefined; maxPixels: number; icon: boolean },
): RawImage {
  need(buf, start + 4);
  const headerSize = buf.readUInt32LE(start);
  let width: number,
    rawHeight: number,
    bpp: number,
    compression = 0,
    colorsUsed = 0;
  if (headerSize === 12) {
    need(buf, start + 12);
    width = buf.readUInt16LE(start + 4);
    rawHeight = buf.readInt16LE(start + 6);
    bpp = buf.readUInt16LE(start + 10);
  } else if (headerSize >= 40) {
    need(buf, start + 40);
    width = buf.readInt32LE(start + 4);
    rawHeight = buf.readInt32LE(start + 8);
    bpp = buf.readUInt16LE(start + 14);
    compression = buf.readUInt32LE(start + 16);
    colorsUsed = buf.readUInt32LE(start + 32);
  } else {
    throw new BitmapError("unknown bitmap header", "unsupported");
  }
  const topDown = rawHeight < 0;
  // An icon's DIB stores the colour image and the 1-bit transparency mask stacked: twice the height.
  const height = opts.icon ? Math.abs(rawHeight) / 2 : Math.abs(rawHeight);
  if (width <= 0 || height <= 0 || !Number.isInteger(height)) throw damaged();
  if (width * height > opts.maxPixels) throw new BitmapError(`${width}×${height}`, "too-large");

  // BI_RGB (0) everywhere; BI_BITFIELDS (3) and BI_ALPHABITFIELDS (6) only at 16 and 32 bits.
  let masks: [number, number, number, number] | undefined;
  if (compression === 3 || compression === 6) {
    if (bpp !== 16 && bpp !== 32) throw new BitmapError("bitfields", "unsupported");
    const at = headerSize >= 52 ? start + 40 : start + headerSize;
    need(buf, at + 12);
    masks = [buf.readUInt32LE(at), buf.readUInt32LE(at + 4), buf.readUInt32LE(at + 8), 0];
    if (headerSize >= 56 || compression === 6) {
      need(buf, at + 16);
      masks[3] = buf.readUInt32LE(at + 12);
    }
  } else if (compression !== 0) {
    throw new BitmapError("compressed bitmap", "unsupported");
  }
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw new BitmapError(`bpp ${bpp}`, "unsupported");
  if (!masks && bpp === 16) masks = [0x7c00, 0x03e0, 0x001f, 0];

  const paletteStart = start + headerSize + (masks && headerSize === 40 ? (compression === 6 ? 16 : 12) : 0);
  const entrySize = headerSize === 12 ? 3 : 4;
  const paletteCount = bpp <= 8 ? colorsUsed || 1 << bpp : 0;
  if (paletteCount > 256) throw damaged();
  need(buf, paletteStart + paletteCount * entrySize);
  const palette: number[][] = [];
  for (let i = 0; i < paletteCount; i++) {
    const p = paletteStart + i * entrySize;
    palette.push([buf[p + 2]!, buf[p + 1]!, buf[p]!]);
  }

  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  const pixels = opts.pixelOffset ?? paletteStart + paletteCount * entrySize;
  need(buf, pixels + stride * height);
  const out = Buffer.alloc(width * height * 4);
  let anyAlpha = false;

  for (let y = 0; y < height; y++) {
    const row = pixels + stride * (topDown ? y : height - 1 - y);
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      let r: number,
        g: number,
        b: number,
        a = 255;
      if (bpp <= 8) {
        const bit = x * bpp;
        const byte = buf[row + (bit >> 3)]!;
        const idx = (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        [r, g, b] = palette[idx] ?? [0, 0, 0];
      } else if (bpp === 24) {
        const p = row + x * 3;
        [b, g, r] = [buf[p]!, buf[p + 1]!, buf[p + 2]!];
      } else {
        const v = bpp === 16 ? buf.readUInt16LE(row + x * 2) : buf.readUInt32LE(row + x * 4);
        if (masks) {
          [r, g, b] = [channel(v, masks[0]), channel(v, masks[1]), channel(v, masks[2])];
          if (masks[3]) a = channel(v, masks[3]);
        } else {
          [b, g, r, a] = [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
        }
        if (bpp === 32 && (masks ? masks[3] !== 0 : true) && a !== 0) anyAlpha = true;
      }
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      out[o + 3] = a;
    }
  }
  // Many 32-bit BMPs leave the fourth byte at zero: that means "no alpha", not "invisible".
  if (bpp === 32 && !anyAlpha) for (let i = 3; i < out.length; i += 4) out[i] = 255;

  if (opts.icon && bpp < 32) applyAndMask(buf, pixels + stride * height, width, height, topDown, out);
  return { width, height, data: out };
}

function applyAndMask(buf: Buffer, start: number, width: number, height: number, topDown: boolean, out: Buffer) {
  const stride = Math.floor((width + 31) / 32) * 4;
  if (start + stride * height > buf.length) return; // a missing mask means fully opaque
  for (let y = 0; y < height; y++) {
    const row = start + stride * (topDown ? y : height - 1 - y);
    for (let x = 0; x < width; x++) {
      if ((buf[row + (x >> 3)]! >> (7 - (x & 7))) & 1) out[(y * width + x) * 4 + 3] = 0;
    }
  }
}

function channel(value: number, mask: number): number {
  if (!mask) return 0;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  return Math.round((((value & mask) >>> shift) * 255) / max);
}
