import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../../tests/setup/database";
import {
  holdShopDatabaseLock,
  processStartTime,
  releaseShopLock,
  SHOP_LOCK_KEYS,
  shopHoldsDatabase,
  ShopAlreadyRunningError,
  takeShopLock,
} from "./shop-lock.server";

let dir: string;
let other: ChildProcess;
const lock = () => path.join(dir, "shop.pid");

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-lock-"));
  // Another running process: stands in for a shop, or for a program that got a dead shop's pid.
  other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
});
afterEach(() => {
  other.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the one-shop-per-data-folder lock", () => {
  it("refuses to start while the shop that holds the lock runs", async () => {
    fs.writeFileSync(lock(), `${other.pid} ${processStartTime(other.pid!)}`);
    await expect(takeShopLock(dir)).rejects.toThrow(ShopAlreadyRunningError);
    await expect(takeShopLock(dir)).rejects.toThrow(`Another shop (process ${other.pid}) is already running`);
  });

  it("takes over a lock whose shop was killed with -9 and is still a zombie (its parent has not reaped it)", async () => {
    // sh starts a short child, then becomes `sleep` and never reaps it: the child stays a zombie.
    const parent = spawn("sh", ["-c", "sleep 0.1 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const pid = Number((await new Promise<Buffer>((r) => parent.stdout!.once("data", r))).toString().trim());
      const started = processStartTime(pid);
      await expect.poll(() => fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.charAt(0)).toBe("Z");
      fs.writeFileSync(lock(), `${pid} ${started}`);
      await takeShopLock(dir);
      expect(fs.readFileSync(lock(), "utf8").split(" ")[0]).toBe(String(process.pid));
    } finally {
      parent.kill("SIGKILL");
    }
  });

  it("takes over a lock whose pid now belongs to a process started later (the shop was killed with -9)", async () => {
    fs.writeFileSync(lock(), `${other.pid} 1`);
    await takeShopLock(dir);
    expect(fs.readFileSync(lock(), "utf8").split(" ")[0]).toBe(String(process.pid));
  });

  it("takes over a lock whose process is gone, and removes only its own lock when it stops", async () => {
    fs.writeFileSync(lock(), "999999999 1");
    await takeShopLock(dir);
    releaseShopLock(dir);
    expect(fs.existsSync(lock())).toBe(false);
    fs.writeFileSync(lock(), `${other.pid} ${processStartTime(other.pid!)}`);
    releaseShopLock(dir);
    expect(fs.existsSync(lock())).toBe(true);
  });
});

/** Another shop's database lock, held by a separate node process (so it can be killed with -9). */
function shopHoldingTheDatabase(url: string): Promise<ChildProcess> {
  const [a, b] = SHOP_LOCK_KEYS;
  const code =
    `const pg = require("pg"); const c = new pg.Client({ connectionString: process.argv[1] });` +
    `c.connect().then(() => c.query("select pg_advisory_lock(${a}, ${b})")).then(() => console.log("held"));` +
    `setTimeout(() => {}, 60000);`;
  const child = spawn(process.execPath, ["-e", code, url], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.stdout!.once("data", () => resolve(child));
    child.once("exit", (c) => reject(new Error(`the lock holder exited (${c})`)));
  });
}

describe("the running shop's database lock", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("starts when the lock file names a live process but no shop holds the database's lock (a stale file, a pid given to another program)", async () => {
    // The file looks like a running shop (a live process, its own start time), but that process
    // holds no connection to the folder's database: it is not the shop.
    fs.writeFileSync(lock(), `${other.pid} ${processStartTime(other.pid!)}`);
    await takeShopLock(dir, { runningDatabase: () => database.url });
    expect(fs.readFileSync(lock(), "utf8").split(" ")[0]).toBe(String(process.pid));
    const held = await holdShopDatabaseLock(database.url, dir);
    await held.release();
  });

  it("refuses a second shop while the first holds the database's lock, whatever the lock file says", async () => {
    const first = await shopHoldingTheDatabase(database.url);
    try {
      fs.writeFileSync(lock(), `${first.pid} ${processStartTime(first.pid!)}`);
      await expect(takeShopLock(dir, { runningDatabase: () => database.url })).rejects.toThrow(
        `Another shop (process ${first.pid}) is already running`,
      );
      // A lost or rewritten file does not let a second shop run: the database lock is taken by one.
      fs.rmSync(lock());
      await takeShopLock(dir, { runningDatabase: () => database.url });
      await expect(holdShopDatabaseLock(database.url, dir)).rejects.toThrow(`Another shop is already running on ${dir}`);
    } finally {
      first.kill("SIGKILL");
    }
  });

  it("a shop killed with -9 holds the database's lock no longer: the next start takes it", async () => {
    const killed = await shopHoldingTheDatabase(database.url);
    fs.writeFileSync(lock(), `${killed.pid} ${processStartTime(killed.pid!)}`);
    killed.kill("SIGKILL");
    await new Promise((r) => killed.once("exit", r));
    // Started at once, as a supervisor restarts it: PostgreSQL ends the dead process's session
    // as soon as it sees its connection closed, and the new shop gets the lock.
    await takeShopLock(dir, { runningDatabase: () => database.url });
    const held = await holdShopDatabaseLock(database.url, dir);
    expect(await shopHoldsDatabase(database.url)).toBe(true);
    await held.release();
    expect(await shopHoldsDatabase(database.url)).toBe(false);
  });
});
