/**
 * What every storage backend (disk in storage.server.ts, S3 in s3.server.ts) implements, and the
 * key rule they share. Kept apart so neither backend imports the other's module.
 */

/** Where uploaded and generated files live. Disk by default; an S3-compatible bucket when configured. */
export interface Storage {
  readonly kind: "disk" | "s3";
  /** Stores the bytes under `key` (e.g. `logo-1732262400000.webp`) and returns its public URL. */
  put(key: string, body: Buffer, contentType: string): Promise<{ key: string; url: string }>;
  delete(key: string): Promise<void>;
  /** The keys that start with `prefix` (a name prefix such as `logo-`, not a folder walk). */
  list(prefix: string): Promise<string[]>;
  /** The key for one of our own public URLs, or null for a foreign URL. */
  keyFromUrl(url: string): string | null;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.includes("..") && key.length <= 300;
}

export function assertSafeKey(key: string) {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
}
