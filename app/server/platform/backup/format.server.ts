import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { DomainError } from "../refusal.server";

/**
 * What a backup folder holds (docs/decisions/0018):
 *
 *   manifest.json             this file's Manifest: schema version, shop version, time, every file
 *   database/<table>.copy.gz  one table's rows, PostgreSQL COPY text format, gzipped
 *   uploads/<key>             every upload (disk storage) or object (S3 storage), by storage key
 *
 * The schema itself is not in the folder: it is the committed migrations up to `schema.tag`,
 * which the restore applies before loading the rows, then the newer migrations after.
 */
export const BACKUP_FORMAT = "linen-and-loft-backup";
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST = "manifest.json";

export type BackupFile = { path: string; bytes: number; sha256: string };

export type Manifest = {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  shopVersion: string;
  /** The last migration applied to the database that was backed up (drizzle's migrations table). */
  schema: { tag: string; createdAt: number; hash: string };
  database: {
    server: string;
    /** How the rows were read: one transaction, so one snapshot of every table. */
    snapshot: string;
    tables: { name: string; file: string; columns: string[]; rows: number }[];
    sequences: { name: string; lastValue: string | null }[];
    /** Tables whose rows are deliberately left out, with the reason. */
    skipped: { name: string; reason: string }[];
  };
  uploads: { storage: "disk" | "s3"; files: { key: string; file: string; contentType: string }[] };
  /** Every file of the folder but the manifest, with its size and SHA-256. */
  files: BackupFile[];
};

/**
 * A backup or restore that was refused before anything changed; the message says why (the
 * operator reads it in the command's output). A refusal by a rule, so `rejected`.
 */
export class BackupRefusedError extends DomainError<"rejected"> {
  constructor(message: string) {
    super(message, "rejected");
  }
}

export type JournalEntry = { idx: number; when: number; tag: string };

export function readJournal(migrationsFolder: string): JournalEntry[] {
  const file = path.join(migrationsFolder, "meta", "_journal.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { entries: JournalEntry[] }).entries;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

export async function describeFile(folder: string, rel: string): Promise<BackupFile> {
  const abs = path.join(folder, rel);
  return { path: rel, bytes: fs.statSync(abs).size, sha256: await sha256File(abs) };
}

/** A SQL identifier, quoted. */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

const TYPES: Record<string, string> = {
  ".webp": "image/webp",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".avif": "image/avif",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".pdf": "application/pdf",
  ".csv": "text/csv",
  ".txt": "text/plain",
  ".json": "application/json",
};

/** The content type a disk upload is given when it goes back to S3 (disk keeps none). */
export const contentTypeFor = (key: string) => TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";
