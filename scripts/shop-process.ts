import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

/**
 * Starting the built shop as a child process, as production runs it: shared by the browser tests'
 * harness, the crash and fault tests and the bench. Nothing here imports the test runner.
 */

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export type ShopChild = {
  baseUrl: string;
  pid: number;
  output: () => string;
  /** SIGTERM (the shop's graceful shutdown), then the exit; SIGKILL after `killAfterMs` when given. */
  stop: (opts?: { killAfterMs?: number }) => Promise<void>;
  /** kill -9: no shutdown handler runs, in-flight requests die with the process. */
  kill9: () => Promise<void>;
};

export type LaunchOptions = {
  databaseUrl: string;
  dataDir: string;
  authSecret: string;
  /** SHOP_BUILD_DIR for the child; otherwise it inherits this process's (or uses build/). */
  buildDir?: string;
  /** Said when there is no built shop to start. */
  notBuiltMessage: string;
  /** Set last, over the defaults (LOG_LEVEL, RATE_LIMIT_DISABLED, …). */
  env?: Record<string, string>;
  startTimeoutMs?: number;
  /** Keep only the end of the output, for long runs; all of it unless given. */
  keepOutputChars?: number;
};

/** Starts `node server.js` on 127.0.0.1 and a free port, without the demo seed; resolves once it is ready. */
export async function launchShop(opts: LaunchOptions): Promise<ShopChild> {
  const buildDir = opts.buildDir ?? (process.env.SHOP_BUILD_DIR || "build");
  if (!fs.existsSync(path.resolve(buildDir, "server/index.js"))) throw new Error(opts.notBuiltMessage);
  const port = await freePort();
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["server.js"], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: "production",
      ...(opts.buildDir ? { SHOP_BUILD_DIR: opts.buildDir } : {}),
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: opts.databaseUrl,
      DATA_DIR: opts.dataDir,
      SEED_DEMO: "false",
      BETTER_AUTH_SECRET: opts.authSecret,
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const keep = (d: Buffer) => {
    output += d.toString();
    if (opts.keepOutputChars && output.length > opts.keepOutputChars) output = output.slice(-opts.keepOutputChars);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);

  const timeoutMs = opts.startTimeoutMs ?? 30_000;
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The shop did not start in ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    const check = () => {
      const m = /Shop ready on (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off("data", check);
        child.stderr!.off("data", check);
        resolve(m[1]!.replace("localhost", "127.0.0.1"));
      }
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The shop exited with ${code}:\n${output}`));
    });
  });

  return {
    baseUrl,
    pid: child.pid!,
    output: () => output,
    stop: async ({ killAfterMs } = {}) => {
      if (!alive()) return;
      child.kill("SIGTERM");
      const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), killAfterMs);
      await exited;
      clearTimeout(timer);
    },
    kill9: async () => {
      if (!alive()) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}
