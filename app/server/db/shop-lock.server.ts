import fs from "node:fs";
import path from "node:path";

/**
 * One running shop per data folder: the shop that started the embedded PostgreSQL stops it when
 * it exits, so a second shop on the same folder must not start (it would take the first shop's
 * database down with it when it stops). A lock left by a shop killed with -9 names a process that
 * no longer runs, and is taken over.
 */
export class ShopAlreadyRunningError extends Error {}

const lockFile = (dataDir: string) => path.join(path.resolve(dataDir), "shop.pid");

function isShopProcess(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // A recycled pid that now belongs to something else is not a shop.
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("node");
  } catch {
    return true; // no /proc (not Linux): trust the signal check
  }
}

export function takeShopLock(dataDir: string) {
  const file = lockFile(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const holder = Number.parseInt(fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "", 10);
  if (Number.isInteger(holder) && isShopProcess(holder)) {
    throw new ShopAlreadyRunningError(
      `Another shop (process ${holder}) is already running on ${path.resolve(dataDir)}. Stop it first, or give this one its own DATA_DIR.`,
    );
  }
  fs.writeFileSync(file, String(process.pid));
}

export function releaseShopLock(dataDir: string) {
  const file = lockFile(dataDir);
  try {
    if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.rmSync(file);
  } catch {
    /* already gone */
  }
}
