import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { products } from "~/server/platform/db/schema";
import { resetEnvCache } from "~/server/platform/env.server";
import { getJob } from "~/server/platform/jobs/jobs.server";
import { migrateProductImages, MigrationRequestError, startImageMigration } from "~/server/catalog/media/migrate-images.server";
import { DiskStorage, setStorage } from "~/server/platform/storage/storage.server";
import { action, loader } from "~/routes/admin/products/migrate-images";
import { makeProduct } from "../factories/products";
import { makeAdmin, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();
const uploads = fs.mkdtempSync(path.join(os.tmpdir(), "migrate-uploads-"));
let server: http.Server;
let base = "";
/** Answers to /held… requests, given when the test says (a migration that is surely still running). */
const held: (() => void)[] = [];
let png: Buffer;
let inFlight = 0;
let maxInFlight = 0;
const local = { trustedAddresses: ["127.0.0.1"], timeoutMs: 1500 };

beforeAll(async () => {
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c05030" } }).png().toBuffer();
  server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    if (url.startsWith("/held")) return void held.push(() => res.writeHead(200, { "content-type": "image/png" }).end(png));
    if (url.startsWith("/good")) return void res.writeHead(200, { "content-type": "image/png" }).end(png);
    if (url.startsWith("/counted")) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { "content-type": "image/png" }).end(png);
      }, 150);
      return;
    }
    if (url === "/slow.png") return void setTimeout(() => res.writeHead(200, { "content-type": "image/png" }).end(png), 5000);
    if (url === "/fake.png") return void res.writeHead(200, { "content-type": "image/png" }).end("<!DOCTYPE html><html><body>Not here</body></html>");
    if (url === "/page.png") return void res.writeHead(200, { "content-type": "text/html" }).end("<html></html>");
    if (url === "/declared-huge.png") {
      res.writeHead(200, { "content-type": "image/png", "content-length": String(200 * 1024 * 1024) });
      return void res.write(png);
    }
    if (url === "/huge.png") {
      // 200 MB sent as it is read, without a declared length.
      res.writeHead(200, { "content-type": "image/png" });
      const chunk = Buffer.alloc(1024 * 1024, 1);
      let sent = 0;
      const pump = () => {
        while (sent < 200 && res.write(chunk)) sent++;
        if (sent >= 200) res.end();
      };
      res.on("drain", pump);
      pump();
      return;
    }
    if (url === "/to-metadata") return void res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (url === "/to-good") return void res.writeHead(301, { location: "/good-after-redirect.png" }).end();
    res.writeHead(404).end("missing");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setStorage(new DiskStorage(uploads));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  setStorage(undefined);
  fs.rmSync(uploads, { recursive: true, force: true });
});

beforeEach(async () => {
  await t.db.execute(sql`truncate products, jobs cascade`);
});

const imageOf = async (id: string) => (await t.db.select({ u: products.imageUrl }).from(products).where(eq(products.id, id)))[0]!.u;

describe("migrating product images", () => {
  it("stores good images, rewrites image_url, and keeps the old image with a reason when a download fails", { timeout: 30_000 }, async () => {
    const cases = {
      good: await makeProduct(t.db, { name: "Good", imageUrl: `${base}/good.png, ${base}/second.png` }),
      redirected: await makeProduct(t.db, { name: "Redirected", imageUrl: `${base}/to-good` }),
      missing: await makeProduct(t.db, { name: "Missing", imageUrl: `${base}/missing.png` }),
      slow: await makeProduct(t.db, { name: "Slow", imageUrl: `${base}/slow.png` }),
      fake: await makeProduct(t.db, { name: "Fake", imageUrl: `${base}/fake.png` }),
      page: await makeProduct(t.db, { name: "Page", imageUrl: `${base}/page.png` }),
      huge: await makeProduct(t.db, { name: "Huge", imageUrl: `${base}/huge.png` }),
      declared: await makeProduct(t.db, { name: "Declared Huge", imageUrl: `${base}/declared-huge.png` }),
      metadata: await makeProduct(t.db, { name: "Metadata", imageUrl: `${base}/to-metadata` }),
    };
    const ours = await makeProduct(t.db, { name: "Already Ours", imageUrl: "/media/products/x.png" });
    const none = await makeProduct(t.db, { name: "No Image", imageUrl: "" });

    const { migrated, failed, results } = await migrateProductImages(t.db, { fetch: local });
    expect({ migrated, failed }).toEqual({ migrated: 2, failed: 7 });
    const errorOf = (name: string) => results.find((r) => r.productName === name)?.error;
    expect(errorOf("Good")).toBeNull();
    expect(errorOf("Redirected")).toBeNull();
    expect(errorOf("Missing")).toBe("Not found (HTTP 404)");
    expect(errorOf("Slow")).toBe("Timed out after 2 s");
    expect(errorOf("Fake")).toBe("Not an image: the address returned a web page");
    expect(errorOf("Page")).toBe("Not an image: the server sent text/html");
    expect(errorOf("Huge")).toBe("The image is larger than 20 MB");
    expect(errorOf("Declared Huge")).toBe("The image is larger than 20 MB");
    expect(errorOf("Metadata")).toBe("Refused: 169.254.169.254 is a private or local address (169.254.169.254)");

    const stored = await imageOf(cases.good.id);
    expect(stored).toMatch(new RegExp(`^/media/products/${cases.good.id}-\\d+\\.png$`));
    const file = path.join(uploads, stored.slice("/media/".length));
    const meta = await sharp(fs.readFileSync(file)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 40, 30]);
    expect(await imageOf(cases.redirected.id)).toMatch(/^\/media\/products\//);
    for (const p of [cases.missing, cases.slow, cases.fake, cases.page, cases.huge, cases.declared, cases.metadata]) {
      expect(await imageOf(p.id)).toBe(p.imageUrl);
    }
    expect(await imageOf(ours.id)).toBe("/media/products/x.png");
    expect(await imageOf(none.id)).toBe("");
    expect(results.map((r) => r.productName)).not.toContain("Already Ours");
  });

  it("refuses private addresses unless allowed, checking every address a name resolves to", async () => {
    const loopback = await makeProduct(t.db, { name: "Loopback", imageUrl: `${base}/good.png` });
    const mixed = await makeProduct(t.db, { name: "Mixed", imageUrl: "http://mixed.example.test/a.png" });
    const r = await migrateProductImages(t.db, {
      fetch: { allowPrivate: false, resolve: async () => ["93.184.216.34", "10.0.0.7"] },
    });
    const errorOf = (name: string) => r.results.find((x) => x.productName === name)?.error;
    expect(errorOf("Loopback")).toBe("Refused: 127.0.0.1 is a private or local address (127.0.0.1)");
    expect(errorOf("Mixed")).toBe("Refused: mixed.example.test is a private or local address (10.0.0.7)");
    expect(await imageOf(loopback.id)).toBe(loopback.imageUrl);
    expect(await imageOf(mixed.id)).toBe(mixed.imageUrl);

    const allowed = await migrateProductImages(t.db, { fetch: { allowPrivate: true, resolve: async () => ["127.0.0.1"] } });
    expect(allowed.results.find((x) => x.productName === "Loopback")?.success).toBe(true);
  });

  it("downloads at most 4 images at a time", async () => {
    for (let i = 0; i < 10; i++) await makeProduct(t.db, { imageUrl: `${base}/counted-${i}.png` });
    maxInFlight = 0;
    const r = await migrateProductImages(t.db, { fetch: local });
    expect(r.migrated).toBe(10);
    expect(maxInFlight).toBe(4);
  });
});

describe("the migration job", () => {
  async function waitForJob(id: string) {
    for (let i = 0; i < 200; i++) {
      const job = await getJob(t.db, id);
      if (job && (job.status === "done" || job.status === "failed")) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the job did not finish");
  }

  it("runs on the server, one at a time, and records each product's result", async () => {
    await makeProduct(t.db, { name: "Good", imageUrl: `${base}/held-good.png` });
    await makeProduct(t.db, { name: "Missing", imageUrl: `${base}/missing.png` });
    const job = await startImageMigration(t.db, { overwrite: true, userId: null }, { fetch: { ...local, timeoutMs: 10_000 } });
    expect(job).toMatchObject({ kind: "image-migration", status: "running", total: 2 });
    // The first migration waits on its image, so it is surely still running when a second is asked for.
    await expect(startImageMigration(t.db, { overwrite: true, userId: null })).rejects.toThrow(MigrationRequestError);
    await vi.waitFor(() => expect(held.length).toBeGreaterThan(0), { timeout: 10_000 });
    held.splice(0).forEach((answer) => answer());
    const done = await waitForJob(job.id);
    expect(done).toMatchObject({ status: "done", processed: 2, succeeded: 1, failed: 1, errors: ["Missing: Not found (HTTP 404)"] });
    expect((done.result as { results: unknown[] }).results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ productName: "Good", success: true, error: null }),
        expect.objectContaining({ productName: "Missing", success: false, error: "Not found (HTTP 404)" }),
      ]),
    );
  });

  it("is started by an admin through the route with {overwrite: true}, with IMAGE_FETCH_ALLOW_PRIVATE for the local server", async () => {
    process.env.IMAGE_FETCH_ALLOW_PRIVATE = "true";
    resetEnvCache();
    try {
      const admin = await makeAdmin(t.db);
      await makeProduct(t.db, { name: "Good", imageUrl: `${base}/good.png` });
      const request = await requestAs(t.db, admin, "/admin/products/migrate-images", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ overwrite: true }),
      });
      const res = (await action({ request, params: {}, context: {} } as never)) as { job: { id: string; status: string } };
      expect(res.job.status).toBe("running");
      const done = await waitForJob(res.job.id);
      expect(done).toMatchObject({ status: "done", succeeded: 1, failed: 0 });
      const latest = await loader({ request: await requestAs(t.db, admin, "/admin/products/migrate-images"), params: {}, context: {} } as never);
      expect(latest.job).toMatchObject({ id: res.job.id, status: "done", percent: 100 });
    } finally {
      delete process.env.IMAGE_FETCH_ALLOW_PRIVATE;
      resetEnvCache();
    }
  });
});
