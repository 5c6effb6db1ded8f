// npm run db:backup [-- --into DIR]: writes ./backups/<time>/ (or DIR/<time>/): every table's rows
// read in one snapshot, every upload, and a manifest (schema version, shop version, time, every
// file with its size and SHA-256). On the embedded database it uses the running shop's server,
// or starts it and stops it again. app/server/platform/backup/README.md says what the folder holds.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createBackup } from "../app/server/platform/backup/backup.server";
import { closeDatabase, migrationsFolder, openDatabase } from "../app/server/platform/db/client.server";
import { getStorage } from "../app/server/platform/storage/storage.server";

/** A folder as the person typed it: relative under the current folder, else absolute. */
const shown = (p: string) => (path.relative(process.cwd(), p).startsWith("..") ? p : path.relative(process.cwd(), p) || p);

const { values } = parseArgs({ options: { into: { type: "string" } } });
try {
  // A dump or a restore is one long session of its own: past a transaction pooler, straight to the server.
  const { directUrl: url } = await openDatabase({ ownEmbedded: false });
  const shopVersion = (JSON.parse(fs.readFileSync(path.resolve("package.json"), "utf8")) as { version: string }).version;
  const { folder, manifest } = await createBackup({
    databaseUrl: url,
    storage: getStorage(),
    into: path.resolve(values.into ?? "backups"),
    shopVersion,
    migrationsFolder: migrationsFolder(),
  });
  const rows = manifest.database.tables.reduce((n, t) => n + t.rows, 0);
  const bytes = manifest.files.reduce((n, f) => n + f.bytes, 0);
  console.log(
    `✔ Backup written to ${shown(folder)}: ${rows} rows in ${manifest.database.tables.length} tables ` +
      `(one snapshot), ${manifest.uploads.files.length} uploads, ${(bytes / 1024 / 1024).toFixed(1)} MB, schema ${manifest.schema.tag}.`,
  );
} catch (err) {
  console.error(`✖ ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
