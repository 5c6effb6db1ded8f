import fs from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * One running shop per data folder: the shop that started the embedded PostgreSQL stops it when
 * it exits, so a second shop on the same folder must not start (it would take the first shop's
 * database down with it when it stops). Two locks, one per phase (docs/decisions/0030):
 *
 * - while PostgreSQL is not up yet, the file `shop.pid` (pid and start time, created exclusively):
 *   of two shops starting at once one gets it; a lock whose process is gone, a zombie or a later
 *   process with the same pid is taken over;
 * - once PostgreSQL answers, an advisory lock held by the running shop on a connection of its own
 *   for its whole life. PostgreSQL frees it when that connection closes, so a shop killed with -9
 *   holds it no longer. It is the judge whenever the folder's database is up: a file naming a live
 *   process is taken over when no shop holds the database lock (a stale file, a pid given to
 *   another program), and a second shop is refused whenever one holds it, whatever the file says.
 */
export class ShopAlreadyRunningError extends Error {}

/** The advisory lock's two keys (pg_try_advisory_lock(int, int)): "LLSH" and the lock's purpose, 1. */
export const SHOP_LOCK_KEYS = [0x4c4c5348, 1] as const;

export type ShopLockOptions = {
  /**
   * The URL of the data folder's PostgreSQL when it is running, else null: asked only when the
   * file names a live process, to see whether that process is really a running shop.
   */
  runningDatabase?: () => string | null;
};

const refusal = (dataDir: string, holder?: string) =>
  new ShopAlreadyRunningError(
    `Another shop${holder ? ` (process ${holder})` : ""} is already running on ${path.resolve(dataDir)}. Stop it first, or give this one its own DATA_DIR.`,
  );

const lockFile = (dataDir: string) => path.join(path.resolve(dataDir), "shop.pid");

/** The process's start time in clock ticks since boot (Linux), or "" where /proc cannot tell. */
export function processStartTime(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may itself hold spaces.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
  } catch {
    return "";
  }
}

/** The process's state letter from /proc (R, S, D, Z for a zombie, …), or "" where /proc cannot tell. */
function processState(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).charAt(0);
  } catch {
    return "";
  }
}

/** Whether a process that looks like the lock's owner runs: by pid, start time and /proc state. */
function holderLooksAlive(lock: string): boolean {
  const [pidText = "", started = ""] = lock.trim().split(" ");
  const pid = Number.parseInt(pidText, 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A shop killed with -9 whose parent has not reaped it yet still answers signal 0 as a zombie
  // ('Z', or 'X' while it goes): it runs no code and holds nothing, so its lock is taken over.
  if (processState(pid) === "Z" || processState(pid) === "X") return false;
  const now = processStartTime(pid);
  if (!now) return true; // no /proc (not Linux): the signal check is all there is
  if (started) return now === started;
  // A lock written before start times were kept: any node process may be the shop.
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("node");
  } catch {
    return false;
  }
}

/**
 * Whether a session of the database at `url` holds the shop's advisory lock; null when the
 * database cannot be asked (not up, or not answering), and then the file alone decides.
 */
export async function shopHoldsDatabase(url: string): Promise<boolean | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  try {
    await client.connect();
    const result = await client.query<{ held: boolean }>(
      `select exists (
         select 1 from pg_locks
         where locktype = 'advisory' and granted and objsubid = 2
           and database = (select oid from pg_database where datname = current_database())
           and classid = $1::bigint::oid and objid = $2::bigint::oid
       ) as held`,
      [SHOP_LOCK_KEYS[0], SHOP_LOCK_KEYS[1]],
    );
    return result.rows[0]!.held;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

async function isRunningShop(lock: string, opts: ShopLockOptions): Promise<boolean> {
  if (!holderLooksAlive(lock)) return false;
  const url = opts.runningDatabase?.();
  if (!url) return true; // PostgreSQL is not up: the holder may be a shop starting it
  return (await shopHoldsDatabase(url)) ?? true;
}

/** Takes the data folder's lock file, or throws ShopAlreadyRunningError. */
export async function takeShopLock(dataDir: string, opts: ShopLockOptions = {}): Promise<void> {
  const file = lockFile(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const mine = `${process.pid} ${processStartTime(process.pid)}`.trim();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // Exclusive create: of two shops starting at once, one gets the lock.
      fs.writeFileSync(file, mine, { flag: "wx" });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    let held = "";
    try {
      held = fs.readFileSync(file, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    if (await isRunningShop(held, opts)) break;
    fs.rmSync(file, { force: true });
  }
  const holder = (() => {
    try {
      return fs.readFileSync(file, "utf8").split(" ")[0];
    } catch {
      return "?";
    }
  })();
  throw refusal(dataDir, holder);
}

export type ShopDatabaseLock = { release: () => Promise<void> };

const LOCK_WAIT_MS = 5000;

/**
 * Takes the shop's advisory lock on a connection kept open for the process's life (not from the
 * pool, whose connections come and go), or throws ShopAlreadyRunningError when another shop's
 * session holds it. Should that connection drop (PostgreSQL restarted), the lock is taken again.
 */
export async function holdShopDatabaseLock(
  url: string,
  dataDir: string,
  onLost: (err: Error) => void = () => {},
): Promise<ShopDatabaseLock> {
  let released = false;
  let client: pg.Client | undefined;
  const connect = async (): Promise<boolean> => {
    const c = new pg.Client({ connectionString: url });
    c.on("error", (err) => {
      if (released) return;
      onLost(err);
      void retake();
    });
    await c.connect();
    // Waits a little: the session of a shop killed a moment ago ends only once PostgreSQL sees
    // its connection closed. A lock still held after that belongs to a running shop.
    await c.query(`set lock_timeout = '${LOCK_WAIT_MS}ms'`);
    try {
      await c.query("select pg_advisory_lock($1, $2)", [...SHOP_LOCK_KEYS]);
    } catch (err) {
      await c.end().catch(() => {});
      if ((err as { code?: string }).code === "55P03") return false; // lock_not_available
      throw err;
    }
    await c.query("reset lock_timeout");
    client = c;
    return true;
  };
  const retake = async () => {
    for (let attempt = 0; !released; attempt++) {
      await new Promise((r) => setTimeout(r, Math.min(1000 * 2 ** attempt, 30_000)).unref());
      if (released) return;
      try {
        if (await connect()) return;
        onLost(new Error("another shop took the data folder's database lock while this one's connection was down"));
        return;
      } catch {
        /* still down: try again */
      }
    }
  };
  if (!(await connect())) throw refusal(dataDir);
  return {
    release: async () => {
      released = true;
      await client?.end().catch(() => {});
    },
  };
}

export function releaseShopLock(dataDir: string) {
  const file = lockFile(dataDir);
  try {
    if (fs.readFileSync(file, "utf8").split(" ")[0] === String(process.pid)) fs.rmSync(file);
  } catch {
    /* already gone */
  }
}
