import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processStartTime, releaseShopLock, ShopAlreadyRunningError, takeShopLock } from "./shop-lock.server";

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
  it("refuses to start while the shop that holds the lock runs", () => {
    fs.writeFileSync(lock(), `${other.pid} ${processStartTime(other.pid!)}`);
    expect(() => takeShopLock(dir)).toThrow(ShopAlreadyRunningError);
    expect(() => takeShopLock(dir)).toThrow(`Another shop (process ${other.pid}) is already running`);
  });

  it("takes over a lock whose shop was killed with -9 and is still a zombie (its parent has not reaped it)", async () => {
    // sh starts a short child, then becomes `sleep` and never reaps it: the child stays a zombie.
    const parent = spawn("sh", ["-c", "sleep 0.1 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const pid = Number((await new Promise<Buffer>((r) => parent.stdout!.once("data", r))).toString().trim());
      const started = processStartTime(pid);
      await expect.poll(() => fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.charAt(0)).toBe("Z");
      fs.writeFileSync(lock(), `${pid} ${started}`);
      expect(() => takeShopLock(dir)).not.toThrow();
      expect(fs.readFileSync(lock(), "utf8").split(" ")[0]).toBe(String(process.pid));
    } finally {
      parent.kill("SIGKILL");
    }
  });

  it("takes over a lock whose pid now belongs to a process started later (the shop was killed with -9)", () => {
    fs.writeFileSync(lock(), `${other.pid} 1`);
    takeShopLock(dir);
    expect(fs.readFileSync(lock(), "utf8").split(" ")[0]).toBe(String(process.pid));
  });

  it("takes over a lock whose process is gone, and removes only its own lock when it stops", () => {
    fs.writeFileSync(lock(), "999999999 1");
    takeShopLock(dir);
    releaseShopLock(dir);
    expect(fs.existsSync(lock())).toBe(false);
    fs.writeFileSync(lock(), `${other.pid} ${processStartTime(other.pid!)}`);
    releaseShopLock(dir);
    expect(fs.existsSync(lock())).toBe(true);
  });
});
