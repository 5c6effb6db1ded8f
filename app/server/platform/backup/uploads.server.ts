import fs from "node:fs";
import path from "node:path";
import { isSafeKey, type Storage } from "../storage/backend.server";
import { S3Storage } from "../storage/s3.server";
import { DiskStorage } from "../storage/storage.server";
import { contentTypeFor } from "./format.server";

export type SavedUpload = { key: string; file: string; contentType: string };

/** Every key under a disk storage's root, skipping writes in progress (`.tmp`, see DiskStorage.put). */
function diskKeys(root: string, prefix = ""): string[] {
  const dir = path.join(root, prefix);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const keys: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const key = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) keys.push(...diskKeys(root, key));
    else if (e.isFile() && !key.endsWith(".tmp") && isSafeKey(key)) keys.push(key);
  }
  return keys;
}

/**
 * Copies every upload into `<folder>/uploads/<key>`: the files under the disk storage's root, or
 * a download of every object of the bucket.
 */
export async function saveUploads(storage: Storage, folder: string): Promise<SavedUpload[]> {
  const saved: SavedUpload[] = [];
  const target = (key: string) => {
    const file = path.join("uploads", key);
    fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    return file;
  };
  if (storage instanceof DiskStorage) {
    for (const key of diskKeys(storage.root)) {
      const file = target(key);
      try {
        fs.copyFileSync(storage.resolve(key), path.join(folder, file));
      } catch (err) {
        // Deleted since it was listed: it is no longer an upload.
        if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw err;
      }
      saved.push({ key, file, contentType: contentTypeFor(key) });
    }
  } else if (storage instanceof S3Storage) {
    for (const key of await storage.list("")) {
      const object = await storage.get(key);
      if (!object) continue;
      const file = target(key);
      fs.writeFileSync(path.join(folder, file), object.body);
      saved.push({ key, file, contentType: object.contentType ?? contentTypeFor(key) });
    }
  } else {
    throw new Error(`Cannot back up uploads from a ${storage.kind} storage.`);
  }
  return saved;
}

/** Puts every saved upload back through the storage (disk or S3, whichever the shop now uses). */
export async function putUploads(storage: Storage, folder: string, uploads: SavedUpload[]) {
  for (const u of uploads) {
    await storage.put(u.key, fs.readFileSync(path.join(folder, u.file)), u.contentType);
  }
}
