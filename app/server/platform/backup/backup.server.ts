import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import type { Storage } from "../storage/backend.server";
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupRefusedError,
  MANIFEST,
  describeFile,
  ident,
  readJournal,
  type Manifest,
} from "./format.server";
import { saveUploads } from "./uploads.server";

/** Tables whose rows are not worth keeping, and why (their rows would mislead a restored shop). */
const NOT_BACKED_UP: Record<string, string> = {
  storefront_changes:
    "the page cache's change log: its transaction ids mean nothing to another server, and app servers start with an empty cache",
};

export type CreateBackupOptions = {
  databaseUrl: string;
  storage: Storage;
  /** The folder that receives `<timestamp>/` (./backups). */
  into: string;
  shopVersion: string;
  migrationsFolder: string;
  now?: Date;
  /** Called after each table is read, inside the snapshot (tests write meanwhile). */
  afterTable?: (table: string) => Promise<void>;
};

function folderName(now: Date, into: string) {
  const base = now.toISOString().replace(/\.\d+Z$/, "Z").replace(/:/g, "-");
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!fs.existsSync(path.join(into, name)) && !fs.existsSync(path.join(into, `${name}.partial`))) return name;
  }
}

/** The last migration applied, by drizzle's table, named by this code's journal. */
async function schemaVersion(client: pg.Client, migrationsFolder: string): Promise<Manifest["schema"]> {
  const { rows: exists } = await client.query<{ t: string | null }>(
    "select to_regclass('drizzle.__drizzle_migrations')::text as t",
  );
  if (!exists[0]?.t) throw new BackupRefusedError("The database has no migrations applied (no drizzle.__drizzle_migrations): there is no shop to back up.");
  const { rows } = await client.query<{ hash: string; created_at: string }>(
    "select hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1",
  );
  const last = rows[0];
  if (!last) throw new BackupRefusedError("The database has no migrations applied: there is no shop to back up.");
  const createdAt = Number(last.created_at);
  const entry = readJournal(migrationsFolder).find((e) => e.when === createdAt);
  if (!entry) {
    throw new BackupRefusedError(
      `The database's schema (a migration from ${new Date(createdAt).toISOString()}) is newer than this code knows: back it up with the shop version that migrated it.`,
    );
  }
  return { tag: entry.tag, createdAt, hash: last.hash };
}

/**
 * Writes `<into>/<timestamp>/`: every table's rows, the sequences and every upload, with a
 * manifest. The rows are all read in ONE transaction (REPEATABLE READ, READ ONLY), so they are
 * one snapshot of the database, as pg_dump reads them: an order committed while the backup runs
 * is in it with all its lines or not at all. Each table is locked ACCESS SHARE first (as pg_dump
 * does), so no migration can change a table while it is read; writes go on. The uploads are copied
 * after the snapshot: every upload the rows name was there before the rows were read (uploads are
 * written before the row that names them and never rewritten). The folder is written as
 * `<timestamp>.partial` and renamed when complete.
 */
export async function createBackup(opts: CreateBackupOptions): Promise<{ folder: string; manifest: Manifest }> {
  const now = opts.now ?? new Date();
  fs.mkdirSync(opts.into, { recursive: true });
  const name = folderName(now, opts.into);
  const partial = path.join(opts.into, `${name}.partial`);
  const folder = path.join(opts.into, name);
  fs.mkdirSync(path.join(partial, "database"), { recursive: true });

  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read, read only");
    const schema = await schemaVersion(client, opts.migrationsFolder);
    const { rows: serverRows } = await client.query<{ v: string }>("select version() as v");
    const { rows: tableRows } = await client.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' order by c.relname`,
    );
    const tableNames = tableRows.map((r) => r.name);
    if (tableNames.length) await client.query(`lock table ${tableNames.map((t) => `public.${ident(t)}`).join(", ")} in access share mode`);

    const tables: Manifest["database"]["tables"] = [];
    const skipped: Manifest["database"]["skipped"] = [];
    for (const table of tableNames) {
      const reason = NOT_BACKED_UP[table];
      if (reason) {
        skipped.push({ name: table, reason });
        continue;
      }
      const { rows: cols } = await client.query<{ name: string }>(
        `select attname as name from pg_attribute
          where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''
          order by attnum`,
        [`public.${ident(table)}`],
      );
      const columns = cols.map((c) => c.name);
      const file = path.join("database", `${table}.copy.gz`);
      const stream = client.query(copyTo(`copy public.${ident(table)} (${columns.map(ident).join(", ")}) to stdout`));
      await pipeline(stream, createGzip(), fs.createWriteStream(path.join(partial, file)));
      tables.push({ name: table, file, columns, rows: stream.rowCount });
      await opts.afterTable?.(table);
    }
    const { rows: seqRows } = await client.query<{ name: string; last_value: string | null }>(
      "select sequencename as name, last_value::text from pg_sequences where schemaname = 'public' order by sequencename",
    );
    await client.query("commit");

    const uploads = await saveUploads(opts.storage, partial);
    const files = [];
    for (const rel of [...tables.map((t) => t.file), ...uploads.map((u) => u.file)]) files.push(await describeFile(partial, rel));
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: now.toISOString(),
      shopVersion: opts.shopVersion,
      schema,
      database: {
        server: serverRows[0]?.v ?? "",
        snapshot: "every table read in one REPEATABLE READ, READ ONLY transaction (one snapshot)",
        tables,
        sequences: seqRows.map((s) => ({ name: s.name, lastValue: s.last_value })),
        skipped,
      },
      uploads: { storage: opts.storage.kind, files: uploads },
      files,
    };
    fs.writeFileSync(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    fs.renameSync(partial, folder);
    return { folder, manifest };
  } catch (err) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}
