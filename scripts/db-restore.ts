// npm run db:restore -- <backup folder> [--yes]: restores a backup made by npm run db:backup into
// the EMPTY database the environment selects (DATABASE_URL, or the embedded one under DATA_DIR),
// and its uploads into the shop's storage, then migrates. Asks for the database's name unless
// --yes. Refuses, changing nothing, when the folder lacks its manifest or dump, a checksum does
// not match, the backup's schema is newer than this code, or the database is not empty.
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import { BackupRefusedError } from "../app/server/platform/backup/format.server";
import { inspectBackup, restoreBackup } from "../app/server/platform/backup/restore.server";
import { closeDatabase, migrationsFolder, openDatabase } from "../app/server/platform/db/client.server";
import { getStorage } from "../app/server/platform/storage/storage.server";

/** A folder as the person typed it: relative under the current folder, else absolute. */
const shown = (p: string) => (path.relative(process.cwd(), p).startsWith("..") ? p : path.relative(process.cwd(), p) || p);

const USAGE = "Usage: npm run db:restore -- backups/<time> [--yes]";

/** One line from standard input ("" when it is closed). */
function readLine(): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin });
    let done = false;
    const finish = (line: string) => {
      if (done) return;
      done = true;
      rl.close();
      resolve(line);
    };
    rl.once("line", finish);
    rl.once("close", () => finish(""));
  });
}

const { values, positionals } = parseArgs({ options: { yes: { type: "boolean", default: false } }, allowPositionals: true });
if (positionals.length !== 1) {
  console.error(`✖ Name one backup folder. ${USAGE}`);
  process.exit(1);
}
const folder = path.resolve(positionals[0]!);
try {
  // The folder is checked before any database is opened (or the embedded one created).
  const manifest = await inspectBackup(folder, migrationsFolder());
  // A dump or a restore is one long session of its own: past a transaction pooler, straight to the server.
  const { directUrl: url } = await openDatabase({ ownEmbedded: false });
  const storage = getStorage();
  const result = await restoreBackup({
    folder,
    databaseUrl: url,
    storage,
    migrationsFolder: migrationsFolder(),
    inspected: manifest,
    log: (m) => console.log(`  ${m}`),
    confirm: async ({ database }) => {
      const rows = manifest.database.tables.reduce((n, t) => n + t.rows, 0);
      const host = new URL(url).host;
      console.log(
        [
          `Backup ${folder}`,
          `  taken ${manifest.createdAt} by shop ${manifest.shopVersion}, schema ${manifest.schema.tag}`,
          `  ${rows} rows in ${manifest.database.tables.length} tables, ${manifest.uploads.files.length} uploads`,
          `will be restored into the empty database "${database}" on ${host}, its uploads into the shop's ${storage.kind} storage.`,
        ].join("\n"),
      );
      if (values.yes) return true;
      process.stdout.write(`Type the database name (${database}) to go on: `);
      const answer = (await readLine()).trim();
      if (!process.stdin.isTTY) process.stdout.write("\n");
      if (answer !== database) {
        console.error(`\n✖ You typed "${answer}", not "${database}": nothing was restored. (Or pass --yes.)`);
        return false;
      }
      return true;
    },
  });
  console.log(
    `✔ Restored ${result.rows} rows and ${result.uploads} uploads from ${shown(folder)}, and applied the newer migrations.`,
  );
} catch (err) {
  const message = (err as Error).message;
  if (!(err instanceof BackupRefusedError && /not confirmed/.test(message))) console.error(`✖ ${message}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
