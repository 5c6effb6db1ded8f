import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staticAssets } from "./static-assets";

/**
 * The build's /assets sent as the build compressed them, on a bare Express app in the shop's
 * order (compression ahead, express.static behind). tests/e2e/http-edges.test.ts checks the real
 * build's files through the shop.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "static-assets-"));
// Text that compresses, and differs between runs so nothing is cached by accident.
const script = Buffer.from(Array.from({ length: 400 }, (_, i) => `export const line${i} = "${i % 7} ${Date.now()}";\n`).join(""));
const brCopy = zlib.brotliCompressSync(script);
const gzCopy = zlib.gzipSync(script, { level: 9 });
const tiny = Buffer.from("export const x = 1;\n");
let base = "";
let server: http.Server;

beforeAll(async () => {
  fs.writeFileSync(path.join(dir, "app-1a2b.js"), script);
  fs.writeFileSync(path.join(dir, "app-1a2b.js.br"), brCopy);
  fs.writeFileSync(path.join(dir, "app-1a2b.js.gz"), gzCopy);
  fs.writeFileSync(path.join(dir, "tiny-9f.js"), tiny);
  const app = express();
  app.use(compression());
  app.use("/assets", staticAssets(dir), express.static(dir, { immutable: true, maxAge: "1y", index: false }));
  app.use((_req, res) => void res.status(404).type("text/plain").send("not found"));
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

function get(urlPath: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(new URL(urlPath, base), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

const BROWSER = "gzip, deflate, br, zstd";

describe("the build's assets", () => {
  it("sends a browser the build's brotli copy as it is, with its length, decoding to the file", async () => {
    const res = await get("/assets/app-1a2b.js", { "accept-encoding": BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    // The build's bytes, not a compression made now (which would be streamed without a length).
    expect(res.body.equals(brCopy)).toBe(true);
    expect(Number(res.headers["content-length"])).toBe(brCopy.byteLength);
    expect(zlib.brotliDecompressSync(res.body).equals(script)).toBe(true);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers.vary).toMatch(/accept-encoding/i);
  });

  it("sends the gzip copy to a client that takes only gzip, and the file itself to one that takes neither", async () => {
    const gz = await get("/assets/app-1a2b.js", { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.body.equals(gzCopy)).toBe(true);
    const plain = await get("/assets/app-1a2b.js", { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(script)).toBe(true);
    expect(Number(plain.headers["content-length"])).toBe(script.byteLength);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    // A client that refuses brotli gets gzip even when it lists brotli first.
    const noBr = await get("/assets/app-1a2b.js", { "accept-encoding": "br;q=0, gzip" });
    expect(noBr.headers["content-encoding"]).toBe("gzip");
  });

  it("answers 304 to a client holding the same copy, and tells the copies apart", async () => {
    const first = await get("/assets/app-1a2b.js", { "accept-encoding": "br" });
    const again = await get("/assets/app-1a2b.js", { "accept-encoding": "br", "if-none-match": String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    expect(again.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const gz = await get("/assets/app-1a2b.js", { "accept-encoding": "gzip" });
    expect(gz.headers.etag).not.toBe(first.headers.etag);
    const wrongCopy = await get("/assets/app-1a2b.js", { "accept-encoding": "gzip", "if-none-match": String(first.headers.etag) });
    expect(wrongCopy.status).toBe(200);
    expect(wrongCopy.body.equals(gzCopy)).toBe(true);
  });

  it("sends a file the build did not compress as it is", async () => {
    const res = await get("/assets/tiny-9f.js", { "accept-encoding": BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.equals(tiny)).toBe(true);
  });

  it("leaves a range request to express.static, which answers the file's bytes", async () => {
    const res = await get("/assets/app-1a2b.js", { range: "bytes=0-99", "accept-encoding": "identity" });
    expect(res.status).toBe(206);
    expect(res.body.equals(script.subarray(0, 100))).toBe(true);
  });

  it("answers a file it does not have, or a broken name, with the shop's 404", async () => {
    for (const name of ["/assets/missing-00.js", "/assets/%E0%A4%A.js", "/assets/../static-assets.ts"]) {
      const res = await get(name);
      expect(res.status, name).toBe(404);
    }
    const post = await new Promise<number>((resolve, reject) => {
      const req = http.request(new URL("/assets/app-1a2b.js", base), { method: "POST" }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on("error", reject);
      req.end();
    });
    expect(post).toBe(404);
  });
});
