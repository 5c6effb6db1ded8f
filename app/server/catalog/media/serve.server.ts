import { DiskStorage, getStorage, type Storage, statStorage } from "../../platform/index.server";

/**
 * The catalogue's media as the shop serves and watches them: product images, the logo and the hero
 * are uploads in the shop's storage (a disk folder or a bucket); routes ask for them here and never
 * hold the storage itself.
 */

/**
 * The file on disk behind /media/<key>, or null when there is none to serve from here: uploads go
 * to a bucket (served from the bucket's own address), or the key is not one storage would write.
 */
export function mediaFilePath(key: string): string | null {
  const storage = getStorage();
  if (!(storage instanceof DiskStorage)) return null;
  try {
    return storage.resolve(key);
  } catch {
    return null;
  }
}

/** A bucket is asked at most this often (a load balancer may poll every second, per server). */
const STORAGE_TTL_MS = 10_000;

let storageChecked: { at: number; storage: Storage; result: Promise<string | null> } | undefined;

/**
 * For /healthz: null when the media storage is usable (the uploads folder, or the folder it will be
 * made in, is writable; the bucket answers a listing), else why not. The answer is kept for a few
 * seconds per storage; a check that has not answered within `timeoutMs` counts as failed.
 */
export function mediaStorageProblem(timeoutMs: number): Promise<string | null> {
  const now = Date.now();
  const storage = getStorage();
  if (!storageChecked || storageChecked.storage !== storage || now - storageChecked.at > STORAGE_TTL_MS) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`storage did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    const result = Promise.race([statStorage(storage), late])
      .finally(() => clearTimeout(timer))
      .then(
        () => null,
        (err: Error) => err.message,
      );
    storageChecked = { at: now, storage, result };
  }
  return storageChecked.result;
}
