import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { readUploadForm } from "~/server/catalog/media/form.server";
import { saveImageUpload, UploadError } from "~/server/catalog/media/upload.server";
import { DiskStorage, setStorage } from "~/server/platform/storage/storage.server";
import { HTML_PAGE, SVG_IMAGE, makeBmp, makeIco, makeJpegWithExif, makePng, makePngBomb } from "../factories/images";

let root: string;
let storage: DiskStorage;

async function storedFiles(): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string) {
    for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(path.relative(root, p));
    }
  }
  await walk(root);
  return out;
}

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "media-test-"));
  storage = new DiskStorage(root);
  setStorage(storage);
});

afterAll(() => setStorage(undefined));

async function refusal(input: Buffer | Blob, opts: Parameters<typeof saveImageUpload>[1] = { keyPrefix: "logo" }) {
  const err = await saveImageUpload(input, opts).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UploadError);
  return (err as UploadError).message;
}

describe("saveImageUpload: accepted images", () => {
  it("stores a PNG as logo-<timestamp>.png, re-encoded, served under /media/", async () => {
    const before = Date.now();
    const { key, url } = await saveImageUpload(await makePng(), { keyPrefix: "logo" });
    expect(key).toMatch(/^logo-\d{13}\.png$/);
    expect(Number(key.slice(5, 18))).toBeGreaterThanOrEqual(before);
    expect(url).toBe(`/media/${key}`);
    const meta = await sharp(await fs.readFile(path.join(root, key))).metadata();
    expect(meta).toMatchObject({ format: "png", width: 64, height: 48 });
  });

  it("names hero and blog images as docs/rules/catalogue-data.md says, and two uploads never share a name", async () => {
    const hero = await saveImageUpload(await makePng(), { keyPrefix: "hero" });
    const a = await saveImageUpload(await makePng(), { keyPrefix: "blog-images/" });
    const b = await saveImageUpload(await makePng(), { keyPrefix: "blog-images/" });
    expect(hero.key).toMatch(/^hero-\d{13}\.png$/);
    expect(a.key).toMatch(/^blog-images\/\d{13}\.png$/);
    expect(b.key).not.toBe(a.key);
    expect(await storedFiles()).toHaveLength(3);
  });

  it("strips EXIF metadata from a JPEG", async () => {
    const input = await makeJpegWithExif();
    expect((await sharp(input).metadata()).exif).toBeDefined();
    const { key } = await saveImageUpload(input, { keyPrefix: "hero" });
    expect(key).toMatch(/\.jpg$/);
    const stored = await fs.readFile(path.join(root, key));
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(stored.includes(Buffer.from("Secret Photographer"))).toBe(false);
  });

  it("accepts GIF, WebP and AVIF and keeps their format", async () => {
    const png = await makePng();
    for (const [format, ext] of [
      ["gif", "gif"],
      ["webp", "webp"],
      ["avif", "avif"],
    ] as const) {
      const input = await sharp(png).toFormat(format).toBuffer();
      const { key } = await saveImageUpload(input, { keyPrefix: "blog-images/" });
      expect(key.endsWith(`.${ext}`)).toBe(true);
      expect((await sharp(await fs.readFile(path.join(root, key))).metadata()).width).toBe(64);
    }
  });

  it("decodes BMP and ICO (which sharp cannot) and stores them as PNG with the right pixels", async () => {
    const bmp = await saveImageUpload(makeBmp(7, 5, [10, 200, 30]), { keyPrefix: "blog-images/" });
    expect(bmp.key).toMatch(/\.png$/);
    const { data, info } = await sharp(await fs.readFile(path.join(root, bmp.key)))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([7, 5]);
    expect([...data.subarray(0, 3)]).toEqual([10, 200, 30]);

    const ico = await saveImageUpload(makeIco(16, [250, 100, 0, 128]), { keyPrefix: "blog-images/" });
    const px = await sharp(await fs.readFile(path.join(root, ico.key)))
      .ensureAlpha()
      .raw()
      .toBuffer();
    expect([...px.subarray(0, 4)]).toEqual([250, 100, 0, 128]);
  });

  it("shrinks a large image to fit when asked, never enlarges a small one, and keeps animation", async () => {
    const big = await saveImageUpload(await makePng(3000, 1000), {
      keyPrefix: "hero",
      fit: { width: 2560, height: 2560 },
    });
    expect(await sharp(await fs.readFile(path.join(root, big.key))).metadata()).toMatchObject({
      width: 2560,
      height: 853,
    });
    const small = await saveImageUpload(await makePng(200, 100), {
      keyPrefix: "logo",
      fit: { width: 1024, height: 1024 },
    });
    expect(await sharp(await fs.readFile(path.join(root, small.key))).metadata()).toMatchObject({
      width: 200,
      height: 100,
    });

    const frames = await Promise.all(["#ff0000", "#00ff00", "#0000ff"].map((c) => makePng(300, 200, c)));
    const animated = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    const gif = await saveImageUpload(animated, { keyPrefix: "blog-images/", fit: { width: 150, height: 150 } });
    const meta = await sharp(await fs.readFile(path.join(root, gif.key)), { animated: true }).metadata();
    expect(meta).toMatchObject({ format: "gif", pages: 3, width: 150, pageHeight: 100 });
  });

  it("judges by content, not by the declared type or name", async () => {
    const file = new File([new Uint8Array(await makePng())], "photo.svg", { type: "image/svg+xml" });
    const { key } = await saveImageUpload(file, { keyPrefix: "logo" });
    expect(key).toMatch(/\.png$/);
  });
});

describe("saveImageUpload: refused files store nothing", () => {
  it("an SVG", async () => {
    expect(await refusal(SVG_IMAGE)).toMatch(/SVG images are not allowed/);
    expect(await storedFiles()).toEqual([]);
  });

  it("an HTML file renamed .png (declared image/png)", async () => {
    const file = new File([new Uint8Array(HTML_PAGE)], "cat.png", { type: "image/png" });
    expect(await refusal(file)).toMatch(/not a supported image/);
    expect(await storedFiles()).toEqual([]);
  });

  it("a truncated PNG", async () => {
    const png = await makePng(300, 200);
    expect(await refusal(png.subarray(0, Math.floor(png.length / 2)))).toBe("The image file is damaged or incomplete.");
    expect(await refusal(png.subarray(0, 40))).toBe("The image file is damaged or incomplete.");
    expect(await storedFiles()).toEqual([]);
  });

  it("a 50 MB image, without reading it", async () => {
    const big = new Blob([new Uint8Array(50 * 1024 * 1024)]);
    Object.defineProperty(big, "arrayBuffer", { value: () => Promise.reject(new Error("must not be read")) });
    expect(await refusal(big)).toBe("The file is larger than 5 MB.");
    expect(await storedFiles()).toEqual([]);
  });

  it("a file over a smaller configured cap", async () => {
    expect(await refusal(await makePng(300, 300, "#123456"), { keyPrefix: "logo", maxBytes: 200 })).toBe(
      "The file is larger than 200 bytes.",
    );
  });

  it("a 20,000 × 20,000 pixel PNG (decompression bomb), refused from its header without decoding it", async () => {
    const bomb = makePngBomb();
    expect(bomb.length).toBeLessThan(100_000);
    expect(await refusal(bomb)).toBe("The image is too large: 20000×20000 pixels. The limit is 40 megapixels.");
    expect(await storedFiles()).toEqual([]);
  });

  it("an empty file and random bytes", async () => {
    expect(await refusal(Buffer.alloc(0))).toBe("The file is empty.");
    expect(await refusal(Buffer.from("just some text, not an image"))).toMatch(/not a supported image/);
  });
});

describe("readUploadForm", () => {
  const request = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request("http://localhost:3000/admin/site-settings", {
      method: "POST",
      body,
      headers,
      duplex: "half",
    } as RequestInit);

  it("reads a normal multipart form", async () => {
    const form = new FormData();
    form.set("intent", "upload-logo");
    form.set("file", new File([new Uint8Array(await makePng())], "a.png"));
    const parsed = await readUploadForm(request(form));
    expect(parsed.get("intent")).toBe("upload-logo");
    expect((parsed.get("file") as File).size).toBeGreaterThan(0);
  });

  /** A body of `total` bytes in 1 MB chunks; `sent` counts what the reader pulled. */
  function body(total: number) {
    const counter = { sent: 0 };
    const chunk = new Uint8Array(1024 * 1024);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (counter.sent >= total) return controller.close();
        counter.sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    return { stream, counter };
  }

  it("refuses a 50 MB body, declared or not, with the size reason", async () => {
    for (const declared of [true, false]) {
      const { stream } = body(50 * 1024 * 1024);
      const headers: Record<string, string> = { "content-type": "multipart/form-data; boundary=x" };
      if (declared) headers["content-length"] = String(50 * 1024 * 1024);
      const err = await readUploadForm(request(stream, headers)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UploadError);
      expect((err as Error).message).toBe("The file is larger than 5 MB.");
    }
  });

  it("stops reading an endless body instead of draining it forever", async () => {
    const { stream, counter } = body(Number.POSITIVE_INFINITY);
    const err = await readUploadForm(request(stream, { "content-type": "multipart/form-data; boundary=x" })).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toBe("The file is larger than 5 MB.");
    expect(counter.sent).toBeLessThanOrEqual(66 * 1024 * 1024);
  });
});
