import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Storage } from "./backend.server";
import { S3Storage } from "./s3.server";
import { DiskStorage } from "./storage.server";

/**
 * Checks that the shop's storage can be used, for /healthz (cheap, no write) and `npm run doctor`
 * (a real write, read and delete). Each throws an Error whose message says what is wrong.
 */

/** Where the storage is, in words, without secrets. */
export function describeStorage(storage: Storage): string {
  if (storage instanceof DiskStorage) return `disk folder ${storage.root}`;
  if (storage instanceof S3Storage) return `S3 bucket "${storage.config.bucket}" at ${storage.config.endpoint}`;
  return `${storage.kind} storage`;
}

/**
 * Cheap enough for every health check: the uploads folder (or, before the first upload, the
 * folder it will be made in) exists and is writable; the bucket answers a listing. Writes nothing.
 */
export async function statStorage(storage: Storage): Promise<void> {
  if (storage instanceof DiskStorage) {
    let dir = storage.root;
    // Before the first upload the folder does not exist yet: its nearest existing parent must let it be made.
    for (;;) {
      try {
        const st = await fs.stat(dir);
        if (!st.isDirectory()) throw new Error(`${dir} is not a folder`);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT" || path.dirname(dir) === dir) throw err;
        dir = path.dirname(dir);
      }
    }
    await fs.access(dir, fs.constants.W_OK | fs.constants.X_OK).catch(() => {
      throw new Error(`${dir} is not writable by this process`);
    });
    return;
  }
  // One ListObjectsV2 request for a prefix nothing uses: proves the endpoint, the keys and the bucket.
  await storage.list("healthz-probe-");
}

export type ProbeResult = {
  /** The object's public URL answered an anonymous GET with the bytes written (S3 only; null when not tried). */
  publicRead: boolean | null;
  publicUrl: string;
};

/**
 * Writes a small object, reads it back, and deletes it. For S3 also tries the object's public
 * URL without credentials, since browsers load images from there.
 */
export async function writeReadDelete(storage: Storage, opts: { fetchTimeoutMs?: number } = {}): Promise<ProbeResult> {
  const key = `doctor-probe-${Date.now()}-${randomBytes(4).toString("hex")}.txt`;
  const body = Buffer.from(`Linen & Loft storage check ${key}\n`);
  const step = async <T,>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw new Error(`cannot ${what} (${errorText(err)})`, { cause: err });
    }
  };
  const { url } = await step("write a file", () => storage.put(key, body, "text/plain"));
  let publicRead: boolean | null = null;
  try {
    const back = await step("read the file back", async () => {
      if (storage instanceof DiskStorage) return fs.readFile(storage.resolve(key));
      if (storage instanceof S3Storage) return (await storage.get(key))?.body ?? null;
      return body;
    });
    if (!back || !back.equals(body)) throw new Error("cannot read the file back (it came back different or missing)");
    if (storage instanceof S3Storage) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(opts.fetchTimeoutMs ?? 10_000) });
        publicRead = res.ok && Buffer.from(await res.arrayBuffer()).equals(body);
      } catch {
        publicRead = false;
      }
    }
  } finally {
    await step("delete the file", () => storage.delete(key));
  }
  return { publicRead, publicUrl: url };
}

/** An SDK or system error in one short phrase. */
export function errorText(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const parts = [e.code ?? (e.name && e.name !== "Error" ? e.name : undefined), e.message].filter(Boolean);
  const status = e.$metadata?.httpStatusCode;
  return `${parts.join(": ") || String(err)}${status ? ` (HTTP ${status})` : ""}`;
}
