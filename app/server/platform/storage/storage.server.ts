import fs from "node:fs/promises";
import path from "node:path";
import { getEnv } from "../env.server";
import { assertSafeKey, isSafeKey, type Storage } from "./backend.server";
import { S3Storage, s3ConfigFromEnv } from "./s3.server";

export const MEDIA_PREFIX = "/media/";

export class DiskStorage implements Storage {
  readonly kind = "disk" as const;
  constructor(readonly root: string) {}

  resolve(key: string) {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, body: Buffer, _contentType: string) {
    const file = this.resolve(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file (and a full disk leaves no debris).
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      await fs.writeFile(tmp, body);
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
    return { key, url: MEDIA_PREFIX + key };
  }

  async delete(key: string) {
    await fs.rm(this.resolve(key), { force: true });
  }

  async list(prefix: string) {
    const folder = prefix.slice(0, prefix.lastIndexOf("/") + 1);
    if (folder) assertSafeKey(folder.slice(0, -1));
    const names = await fs.readdir(path.join(this.root, folder)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") return [] as string[];
      throw err;
    });
    // A `.tmp` file is a write in progress (see put).
    return names.map((name) => folder + name).filter((key) => key.startsWith(prefix) && !key.endsWith(".tmp") && isSafeKey(key));
  }

  keyFromUrl(url: string) {
    if (!url.startsWith(MEDIA_PREFIX)) return null;
    const key = url.slice(MEDIA_PREFIX.length);
    return isSafeKey(key) ? key : null;
  }
}

let storage: Storage | undefined;

/** Chosen once from the environment: an S3-compatible bucket when S3_ENDPOINT and keys are set, else disk. */
export function getStorage(): Storage {
  if (!storage) {
    const env = getEnv();
    const s3 = s3ConfigFromEnv(env);
    storage = s3 ? new S3Storage(s3) : new DiskStorage(path.resolve(env.DATA_DIR, "uploads"));
  }
  return storage;
}

/** Tests swap the storage (undefined: choose again from the environment). */
export function setStorage(s: Storage | undefined) {
  storage = s;
}
