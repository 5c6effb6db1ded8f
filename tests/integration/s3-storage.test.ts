import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "~/server/platform/env.server";
import { saveImageUpload, UploadError } from "~/server/catalog/media/upload.server";
import { S3Storage, s3PublicBase, type S3Config } from "~/server/platform/storage/s3.server";
import { DiskStorage, getStorage, setStorage } from "~/server/platform/storage/storage.server";
import { startFakeS3, type FakeS3 } from "../fakes/s3";
import { SVG_IMAGE, makePng } from "../factories/images";

let s3: FakeS3;
let config: S3Config;

beforeAll(async () => {
  s3 = await startFakeS3();
  config = {
    endpoint: s3.endpoint,
    region: "us-east-1",
    bucket: "site-assets",
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
  };
});
afterAll(async () => {
  await s3.close();
});
afterEach(() => {
  for (const k of ["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE", "S3_PUBLIC_URL"])
    delete process.env[k];
  resetEnvCache();
  setStorage(undefined);
});

const bucket = () => s3.buckets.get("site-assets")!;

describe("S3 storage against a local S3-compatible server", () => {
  it("getStorage() picks S3 when S3_ENDPOINT and keys are set, disk otherwise", () => {
    setStorage(undefined);
    expect(getStorage()).toBeInstanceOf(DiskStorage);
    process.env.S3_ENDPOINT = s3.endpoint;
    process.env.S3_ACCESS_KEY_ID = s3.accessKeyId;
    process.env.S3_SECRET_ACCESS_KEY = s3.secretAccessKey;
    process.env.S3_FORCE_PATH_STYLE = "true";
    resetEnvCache();
    setStorage(undefined);
    const storage = getStorage();
    expect(storage).toBeInstanceOf(S3Storage);
    expect((storage as S3Storage).publicBase).toBe(`${s3.endpoint}/site-assets`);
  });

  it("uploads an image into the site-assets bucket with a long cache header, and deletes it", async () => {
    const storage = new S3Storage(config);
    setStorage(storage);
    const { key, url } = await saveImageUpload(await makePng(), { keyPrefix: "blog-images/" });
    expect(key).toMatch(/^blog-images\/\d{13}\.png$/);
    expect(url).toBe(`${s3.endpoint}/site-assets/${key}`);

    const obj = bucket().get(key)!;
    expect(obj.contentType).toBe("image/png");
    expect(obj.cacheControl).toBe("public, max-age=31536000, immutable");
    expect((await sharp(obj.body).metadata()).width).toBe(64);

    // A browser reads it anonymously at the public URL.
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");

    expect(storage.keyFromUrl(url)).toBe(key);
    await storage.delete(key);
    expect(bucket().has(key)).toBe(false);
    expect((await fetch(url)).status).toBe(404);
  });

  it("lists the keys that start with a prefix", async () => {
    const storage = new S3Storage(config);
    for (const key of ["logo-1.png", "logo-2.webp", "hero-1.png", "blog-images/logo-3.png"]) {
      await storage.put(key, await makePng(4, 4), "image/png");
    }
    expect((await storage.list("logo-")).sort()).toEqual(["logo-1.png", "logo-2.webp"]);
    expect(await storage.list("blog-images/")).toEqual(["blog-images/logo-3.png"]);
    expect(await storage.list("nothing-")).toEqual([]);
    for (const key of ["logo-1.png", "logo-2.webp", "hero-1.png", "blog-images/logo-3.png"]) await storage.delete(key);
  });

  it("refuses a bad upload without writing to the bucket", async () => {
    setStorage(new S3Storage(config));
    const before = s3.requests.length;
    await expect(saveImageUpload(SVG_IMAGE, { keyPrefix: "logo" })).rejects.toBeInstanceOf(UploadError);
    expect(s3.requests.length).toBe(before);
  });

  it("fails loudly with wrong credentials (the fake checks Signature V4)", async () => {
    const storage = new S3Storage({ ...config, secretAccessKey: "wrong-secret" });
    await expect(storage.put("logo-1.png", await makePng(), "image/png")).rejects.toThrow();
    expect(bucket().has("logo-1.png")).toBe(false);
    expect(s3.requests.at(-1)?.status).toBe(403);
  });

  it("surfaces a store that keeps failing, after retries", async () => {
    const storage = new S3Storage(config);
    s3.failNextWrites(5);
    await expect(storage.put("hero-2.png", await makePng(), "image/png")).rejects.toThrow();
    expect(bucket().has("hero-2.png")).toBe(false);
    s3.failNextWrites(0);
  });

  it("builds public URLs for virtual-hosted buckets and a CDN, and only recognises its own", () => {
    const virtual = new S3Storage({ ...config, endpoint: "https://s3.example.com", forcePathStyle: false });
    expect(virtual.publicBase).toBe("https://site-assets.s3.example.com");
    const cdn = new S3Storage({ ...config, publicUrl: "https://cdn.example.com/assets/" });
    expect(s3PublicBase(cdn.config)).toBe("https://cdn.example.com/assets");
    expect(cdn.keyFromUrl("https://cdn.example.com/assets/logo-1.webp")).toBe("logo-1.webp");
    expect(cdn.keyFromUrl("https://elsewhere.example.com/logo-1.webp")).toBeNull();
    expect(cdn.keyFromUrl("https://cdn.example.com/assets/../secret")).toBeNull();
  });
});
