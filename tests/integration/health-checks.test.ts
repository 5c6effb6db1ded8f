import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loader as healthz } from "~/routes/resources/healthz";
import { loader as readyz } from "~/routes/resources/readyz";
import { createDatabase, useDatabase } from "~/server/platform/db/client.server";
import { beginShutdown } from "~/server/platform/shutdown.server";
import { S3Storage } from "~/server/platform/storage/s3.server";
import { DiskStorage, setStorage } from "~/server/platform/storage/storage.server";
import { startFakeS3, type FakeS3 } from "../fakes/s3";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();
let s3: FakeS3;
let tmp: string;

beforeAll(async () => {
  s3 = await startFakeS3();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-health-"));
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});
afterEach(() => {
  setStorage(undefined);
  useDatabase(t.db, t.url);
});

async function health() {
  const res = await healthz();
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, cache: res.headers.get("cache-control") };
}

const s3Storage = (secretAccessKey = s3.secretAccessKey) =>
  new S3Storage({ endpoint: s3.endpoint, region: "us-east-1", bucket: "site-assets", accessKeyId: s3.accessKeyId, secretAccessKey, forcePathStyle: true });

describe("/healthz", () => {
  it("answers 200 when the database answers and the uploads folder is writable (also before the first upload made it)", async () => {
    setStorage(new DiskStorage(path.join(tmp, "data", "uploads")));
    expect(await health()).toMatchObject({ status: 200, body: { status: "ok", database: "ok", storage: "ok" }, cache: "no-store" });
    fs.mkdirSync(path.join(tmp, "data", "uploads"), { recursive: true });
    setStorage(new DiskStorage(path.join(tmp, "data", "uploads")));
    expect((await health()).status).toBe(200);
  });

  it("answers 503 naming the storage when the uploads folder cannot be used", async () => {
    fs.writeFileSync(path.join(tmp, "a-file"), "not a folder");
    setStorage(new DiskStorage(path.join(tmp, "a-file", "uploads")));
    expect(await health()).toMatchObject({
      status: 503,
      body: { status: "error", database: "ok", storage: "unavailable", failed: ["storage"] },
    });
  });

  it("asks the S3 bucket, and answers 503 when it refuses the keys", async () => {
    setStorage(s3Storage());
    expect(await health()).toMatchObject({ status: 200, body: { storage: "ok" } });
    expect(s3.requests.some((r) => r.method === "GET" && r.status === 200)).toBe(true);
    setStorage(s3Storage("wrong-secret"));
    expect(await health()).toMatchObject({ status: 503, body: { storage: "unavailable", failed: ["storage"] } });
  });

  it("answers 503 naming the database when it does not answer", async () => {
    setStorage(new DiskStorage(path.join(tmp, "uploads")));
    const unreachable = createDatabase("postgres://shop:nothing@127.0.0.1:9/shop", 1);
    useDatabase(unreachable);
    try {
      expect(await health()).toMatchObject({ status: 503, body: { status: "error", database: "unreachable", storage: "ok", failed: ["database"] } });
    } finally {
      await unreachable.$client.end();
    }
  });
});

// Last in this file: beginShutdown() is process-wide.
describe("/readyz", () => {
  it("answers 200 while the server serves and 503 from the moment it starts to stop", async () => {
    const before = readyz();
    expect(before.status).toBe(200);
    expect(await before.json()).toEqual({ status: "ready" });
    beginShutdown();
    const after = readyz();
    expect(after.status).toBe(503);
    expect(after.headers.get("cache-control")).toBe("no-store");
    expect(await after.json()).toEqual({ status: "draining" });
  });
});
