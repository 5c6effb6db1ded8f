import fs from "node:fs";
import path from "node:path";

/**
 * One running shop per data folder: the shop that started the embedded PostgreSQL stops it when
 * it exits, so a second shop on the same folder must not start (it would take the first shop's
 * database down with it when it stops). A lock left by a shop killed with -9 names a process that
 * no longer runs, and is taken over. The lock holds the pid and that process's start time, so a
 * pid the system has since given to another program is not taken for the shop.
 */
export class ShopAlreadyRunningError extends Error {}

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

function isRunningShop(lock: string): boolean {
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

export function takeShopLock(dataDir: string) {
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
    if (isRunningShop(held)) break;
    fs.rmSync(file, { force: true });
  }
  const holder = (() => {
    try {
      return fs.readFileSync(file, "utf8").split(" ")[0];
    } catch {
      return "?";
    }
  })();
  throw new ShopAlreadyRunningError(
    `Another shop (process ${holder}) is already running on ${path.resolve(dataDir)}. Stop it first, or give this one its own DATA_DIR.`,
  );
}

export function releaseShopLock(dataDir: string) {
  const file = lockFile(dataDir);
  try {
    if (fs.readFileSync(file, "utf8").split(" ")[0] === String(process.pid)) fs.rmSync(file);
  } catch {
    /* already gone */
  }
}
