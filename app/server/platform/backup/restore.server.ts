import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { MIGRATION_LOCK, runMigrations } from "../db/migrate.server";
import { isSafeKey, type Storage } from "../storage/backend.server";
import { BACKUP_FORMAT, BackupRefusedError, MANIFEST, ident, readJournal, sha256File, type Manifest } from "./format.server";
import { putUploads } from "./uploads.server";

const refuse = (message: string): never => {
  throw new BackupRefusedError(message);
};

/** A path the manifest names must stay inside the backup folder. */
function assertInside(rel: string) {
  const norm = path.normalize(rel);
  if (path.isAbsolute(rel) || norm.startsWith("..") || norm !== rel.replace(/\/+/g, "/")) {
    refuse(`The manifest names a file outside its folder (${rel}): this is not a backup the shop wrote.`);
  }
}

/**
 * Reads and checks a backup folder without touching any database: the manifest is there and is
 * ours, every file it lists is there with its size and SHA-256, and its schema (the last
 * migration's tag) is one this code knows. Throws BackupRefusedError saying what is wrong.
 */
export async function inspectBackup(folder: string, migrationsFolder: string): Promise<Manifest> {
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) refuse(`No backup folder at ${folder}.`);
  const manifestFile = path.join(folder, MANIFEST);
  if (!fs.existsSync(manifestFile)) {
    refuse(`${folder} has no ${MANIFEST}: it is not a complete backup (one still being written, or interrupted, is named <time>.partial).`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Manifest;
  } catch (err) {
    return refuse(`${manifestFile} is not valid JSON (${(err as Error).message}).`);
  }
  if (manifest?.format !== BACKUP_FORMAT || !manifest.schema?.tag || !Array.isArray(manifest.files) || !manifest.database) {
    refuse(`${manifestFile} is not a Linen & Loft backup manifest.`);
  }

  const listed = new Map(manifest.files.map((f) => [f.path, f]));
  const needed = [...manifest.database.tables.map((t) => t.file), ...manifest.uploads.files.map((u) => u.file)];
  for (const rel of needed) {
    assertInside(rel);
    if (!listed.has(rel)) refuse(`The manifest lists ${rel} without its size and checksum: the manifest is damaged.`);
  }
  for (const u of manifest.uploads.files) if (!isSafeKey(u.key)) refuse(`The manifest names an upload with an unsafe key (${u.key}).`);
  if (!manifest.database.tables.length) refuse(`${folder} holds no table: its dump is missing.`);

  for (const f of manifest.files) {
    assertInside(f.path);
    const abs = path.join(folder, f.path);
    if (!fs.existsSync(abs)) {
      refuse(
        f.path.startsWith("database/")
          ? `${folder} lacks part of its dump: ${f.path} is missing.`
          : `${folder} lacks an upload: ${f.path} is missing.`,
      );
    }
    const bytes = fs.statSync(abs).size;
    if (bytes !== f.bytes) refuse(`${f.path} is ${bytes} bytes, the manifest says ${f.bytes}: the backup is damaged.`);
    if ((await sha256File(abs)) !== f.sha256) refuse(`${f.path} does not match its checksum (SHA-256): the backup is damaged.`);
  }

  const journal = readJournal(migrationsFolder);
  if (!journal.some((e) => e.tag === manifest.schema.tag)) {
    refuse(
      `The backup comes from a newer schema (migration ${manifest.schema.tag}, shop ${manifest.shopVersion}) than this code knows ` +
        `(latest ${journal.at(-1)?.tag ?? "none"}): restore it with that shop version or a newer one.`,
    );
  }
  return manifest;
}

/** The first few relations of the database outside the system schemas, the shop's own first (none: a fresh database). */
async function relationsIn(client: pg.Client | pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
        and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
      -- The shop's own tables first (before drizzle's and the job queue's bookkeeping), as the message names them.
      order by n.nspname <> 'public', 1 limit 6`,
  );
  return rows.map((r) => r.name);
}

function refuseUnlessEmpty(database: string, relations: string[]) {
  if (relations.length) {
    const shown = relations.slice(0, 5).join(", ") + (relations.length > 5 ? ", …" : "");
    refuse(
      `The database "${database}" is not empty (${shown}): a backup is restored only into an empty database. ` +
        `Point DATABASE_URL at a new database, or use a new DATA_DIR for the embedded one.`,
    );
  }
}

export const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.replace(/^\//, "")) || "postgres";

/** Refuses (changing nothing) unless the database has no table, view or sequence of anyone's. */
export async function assertEmptyDatabase(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    refuseUnlessEmpty(databaseName(url), await relationsIn(client));
  } finally {
    await client.end();
  }
}

export type RestoreOptions = {
  folder: string;
  databaseUrl: string;
  storage: Storage;
  migrationsFolder: string;
  /** Asked once every check has passed, before anything changes; false stops with nothing changed. */
  confirm: (what: { database: string; manifest: Manifest }) => Promise<boolean>;
  log?: (message: string) => void;
  /** The folder's manifest when the caller has already run inspectBackup on it (not read twice). */
  inspected?: Manifest;
};

/**
 * Restores a backup into an EMPTY database, then its uploads, then migrates. Refuses, changing
 * nothing, when the folder fails inspectBackup, the database is not empty, or the answer is no.
 * The schema up to the backup's migration, the rows, the foreign keys and the sequences are
 * written in one transaction: if any of it fails, the database is left as empty as it was.
 */
export async function restoreBackup(opts: RestoreOptions): Promise<{ manifest: Manifest; rows: number; uploads: number }> {
  const log = opts.log ?? (() => {});
  const manifest = opts.inspected ?? (await inspectBackup(opts.folder, opts.migrationsFolder));
  await assertEmptyDatabase(opts.databaseUrl);
  const database = databaseName(opts.databaseUrl);
  if (!(await opts.confirm({ database, manifest }))) refuse("Nothing was restored: the restore was not confirmed.");

  const journal = readJournal(opts.migrationsFolder);
  const upTo = journal.find((e) => e.tag === manifest.schema.tag)!;
  const migrations = readMigrationFiles({ migrationsFolder: opts.migrationsFolder }).filter((m) => m.folderMillis <= upTo.when);

  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  let rows = 0;
  try {
    await client.query("set client_min_messages to warning");
    await client.query("begin");
    // No shop may migrate this database meanwhile, and it must still be empty now.
    await client.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    refuseUnlessEmpty(database, await relationsIn(client));

    log(`Creating the schema up to ${manifest.schema.tag}…`);
    await client.query("create schema if not exists drizzle");
    await client.query("create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)");
    for (const m of migrations) {
      for (const stmt of m.sql) if (stmt.trim()) await client.query(stmt);
      await client.query('insert into drizzle.__drizzle_migrations ("hash", "created_at") values ($1, $2)', [m.hash, m.folderMillis]);
    }

    const { rows: existing } = await client.query<{ name: string }>(
      "select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r'",
    );
    const tables = existing.map((r) => `public.${ident(r.name)}`);
    for (const t of manifest.database.tables) {
      if (!existing.some((r) => r.name === t.name)) {
        refuse(`The backup has a table "${t.name}" that the schema at ${manifest.schema.tag} does not: it was not written by this shop.`);
      }
    }
    // Rows go in as they were read: no trigger fires (the backup has what they wrote), rows that
    // migrations inserted make way for the backup's, and the foreign keys are checked once at the end.
    for (const t of tables) await client.query(`alter table ${t} disable trigger user`);
    await client.query(`truncate table ${tables.join(", ")}`);
    const { rows: fks } = await client.query<{ tbl: string; name: string; def: string }>(
      `select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
         from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace order by conname`,
    );
    for (const fk of fks) await client.query(`alter table ${fk.tbl} drop constraint ${ident(fk.name)}`);

    log(`Loading ${manifest.database.tables.length} tables…`);
    for (const t of manifest.database.tables) {
      const stream = client.query(copyFrom(`copy public.${ident(t.name)} (${t.columns.map(ident).join(", ")}) from stdin`));
      await pipeline(fs.createReadStream(path.join(opts.folder, t.file)), createGunzip(), stream);
      if (stream.rowCount !== t.rows) throw new Error(`${t.name}: ${stream.rowCount} rows loaded, the manifest says ${t.rows}.`);
      rows += stream.rowCount;
    }
    for (const fk of fks) await client.query(`alter table ${fk.tbl} add constraint ${ident(fk.name)} ${fk.def}`);
    for (const t of tables) await client.query(`alter table ${t} enable trigger user`);
    for (const s of manifest.database.sequences) {
      if (s.lastValue !== null) await client.query("select setval($1::regclass, $2::bigint, true)", [`public.${ident(s.name)}`, s.lastValue]);
    }
    // A restored shop is not a fresh one: the embedded database's first start must not add the
    // demo catalogue to it (the marker app/server/seed/seed.server.ts checks).
    await client.query(
      `insert into shop_meta (key, value) values ('demo_seeded', $1::jsonb) on conflict (key) do nothing`,
      [JSON.stringify({ restoredFrom: manifest.createdAt, at: new Date().toISOString() })],
    );
    await client.query("commit");
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  } finally {
    await client.end().catch(() => {});
  }

  log("Applying the newer migrations…");
  await runMigrations(opts.databaseUrl);
  log(`Restoring ${manifest.uploads.files.length} uploads…`);
  try {
    await putUploads(opts.storage, opts.folder, manifest.uploads.files);
  } catch (err) {
    throw new Error(
      `The database was restored, but the uploads were not all written (${(err as Error).message}). ` +
        `They are in ${path.join(opts.folder, "uploads")}: copy them to the shop's storage, keeping their paths.`,
      { cause: err },
    );
  }
  return { manifest, rows, uploads: manifest.uploads.files.length };
}
