import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort, launchShop } from "../shop-process";

export { freePort };

/** Runs a command to completion; its output is kept and shown only when it fails. */
export function runCommand(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = opts.timeoutMs ? setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs) : undefined;
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${path.basename(cmd)} ${args.join(" ")} failed (${signal ?? code}):\n${out.slice(-3000)}`));
    });
  });
}

/** Builds the shop into its own folder, so the bench never touches anyone else's build. */
export async function buildShop(buildDir: string, log: (m: string) => void) {
  log(`Building the shop into ${buildDir}/ …`);
  const started = Date.now();
  await runCommand(path.resolve("node_modules/.bin/react-router"), ["build"], {
    env: { ...process.env, SHOP_BUILD_DIR: buildDir, NODE_ENV: "production" },
    timeoutMs: 15 * 60_000,
  });
  log(`  built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

export type RunningShop = {
  baseUrl: string;
  pid: number;
  /** Peak resident memory of the server process so far (VmHWM), in bytes. */
  peakRss: () => number;
  output: () => string;
  stop: () => Promise<void>;
};

/** Resident-memory figures of a process, from /proc (Linux). */
export function processMemory(pid: number): { rss: number; peak: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
    return { rss: field("VmRSS"), peak: field("VmHWM") };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

/**
 * Starts the built shop (`node server.js`) as production would run it, on 127.0.0.1 and a free
 * port, with rate limits off (one client address sends everything) and warn-level logs.
 */
export async function startShop(opts: { buildDir: string; databaseUrl: string; dataDir: string; env?: Record<string, string> }): Promise<RunningShop> {
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const child = await launchShop({
    buildDir: opts.buildDir,
    databaseUrl: opts.databaseUrl,
    dataDir: opts.dataDir,
    authSecret: "bench-secret-bench-secret-bench-secret-0123",
    notBuiltMessage: `No built shop in ${opts.buildDir}/ (run without --no-build).`,
    env: { LOG_LEVEL: "warn", RATE_LIMIT_DISABLED: "true", ...opts.env },
    startTimeoutMs: 60_000,
    keepOutputChars: 20_000,
  });
  return {
    baseUrl: child.baseUrl,
    pid: child.pid,
    peakRss: () => processMemory(child.pid).peak,
    output: child.output,
    stop: () => child.stop({ killAfterMs: 15_000 }),
  };
}
