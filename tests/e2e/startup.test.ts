import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { processStartTime } from "~/server/platform/db/shop-lock.server";
import { freePort } from "./harness";

/**
 * The shop's own lifecycle on the embedded database: first start, restart, kill -9 (with its
 * lock file naming another live program), SIGTERM, a taken port, an unreachable DATABASE_URL and `npm run admin:create`.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-startup-"));
fs.chmodSync(dataDir, 0o755);
const baseEnv = (port: number): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  delete env.BETTER_AUTH_SECRET;
  delete env.PUBLIC_URL;
  return env;
};

type Running = { child: ChildProcess; port: number; output: () => string; exited: Promise<number | null> };

async function start(env: NodeJS.ProcessEnv, port: number): Promise<Running> {
  let output = "";
  const child = spawn(process.execPath, ["server.js"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in 60 s:\n${output}`)), 60_000);
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
      reject(new Error(`exited ${code}:\n${output}`));
    });
  });
  return { child, port, output: () => output, exited };
}

async function runToExit(env: NodeJS.ProcessEnv, args = ["server.js"]) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    let output = "";
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

const postmasterPid = () => {
  const f = path.join(dataDir, "postgres", "postmaster.pid");
  return fs.existsSync(f) ? Number(fs.readFileSync(f, "utf8").split("\n")[0]) : null;
};
/** Running, not merely a zombie waiting for init to reap it. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
};

describe("starting and stopping the shop on the embedded database", () => {
  afterAll(() => {
    const pid = postmasterPid();
    if (pid && alive(pid)) process.kill(pid, "SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates an admin before the first start with npm run admin:create", () => {
    const r = spawnSync("npx", ["tsx", "scripts/admin-create.ts", "--email", "Owner@Example.com", "--password", "owner-pass-123"], {
      env: baseEnv(0),
      encoding: "utf8",
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("owner@example.com");
    // The script started the embedded server itself, so it stopped it again.
    const pid = postmasterPid();
    expect(pid === null || !alive(pid)).toBe(true);
  }, 120_000);

  let firstPassword = "";
  it("seeds the demo on first start and prints the admin sign-in once", async () => {
    const port = await freePort();
    const shop = await start(baseEnv(port), port);
    const m = /password:\s+(\S+)/.exec(shop.output());
    expect(m, shop.output()).toBeTruthy();
    firstPassword = m![1]!;
    expect(shop.output()).toContain("admin@linenandloft.test");
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);
    // Read the page to the end: an unread body keeps the connection busy, and SIGTERM rightly
    // waits for requests in flight.
    expect(await home.text()).toContain("<header");
    // admin:create works while the shop runs, and leaves the shop's database running.
    const r = spawnSync("npx", ["tsx", "scripts/admin-create.ts", "--email", "second@example.com", "--password", "second-pass-123"], {
      env: baseEnv(0),
      encoding: "utf8",
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    // SIGTERM while a page is being answered on a keep-alive connection: that answer arrives
    // whole, the connection is then closed, PostgreSQL stops, and the shop exits 0 in seconds
    // (not after the 10 s it allows stragglers, nor the 65 s keep-alive).
    const pid = postmasterPid()!;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/shop", agent, headers: { cookie: "fresh=1" } }, (res) => {
          shop.child.kill("SIGTERM");
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on("error", reject);
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("</html>");
    // Drained, not cut off: it exits 0 without the forced stop's "did not finish".
    expect(await shop.exited).toBe(0);
    expect(shop.output()).not.toContain("did not finish");
    expect(alive(pid)).toBe(false);
    agent.destroy();
  }, 180_000);

  it("restarts without reseeding or printing the password again, and keeps the data", async () => {
    const port = await freePort();
    const shop = await start(baseEnv(port), port);
    expect(shop.output()).not.toContain(firstPassword);
    expect(shop.output()).not.toMatch(/password:/);
    const page = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(page).toContain("<header");

    // kill -9 leaves PostgreSQL running; the next start finds and reuses it.
    const pgPid = postmasterPid()!;
    shop.child.kill("SIGKILL");
    await shop.exited;
    expect(alive(pgPid)).toBe(true);
    // The killed shop's lock file now names another live program (as if its pid were given out
    // again): no shop holds the database's lock, so the restart goes through (docs/decisions/0030).
    const stranger = spawn("sleep", ["60"], { stdio: "ignore" });
    fs.writeFileSync(path.join(dataDir, "shop.pid"), `${stranger.pid} ${processStartTime(stranger.pid!)}`);
    const again = await start(baseEnv(port), port).finally(() => stranger.kill("SIGKILL"));
    expect(again.output()).toMatch(/Reusing the embedded PostgreSQL/);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    // A second shop on the same data folder: refused with a clear message and exit code 1,
    // and the running shop keeps its database.
    const twin = await runToExit(baseEnv(await freePort()));
    expect(twin.code).toBe(1);
    expect(twin.output).toMatch(/Another shop \(process \d+\) is already running on /);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    // A second shop (its own data folder) on a taken port: a clear message and exit code 1, at once.
    const otherData = fs.mkdtempSync(path.join(os.tmpdir(), "shop-startup-other-"));
    fs.chmodSync(otherData, 0o755);
    try {
      const clash = await runToExit({ ...baseEnv(port), DATA_DIR: otherData });
      expect(clash.code).toBe(1);
      expect(clash.output).toMatch(new RegExp(`Port ${port} is already in use`));
      // Told before anything was made: no database was set up in its data folder.
      expect(fs.readdirSync(otherData)).toEqual([]);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      fs.rmSync(otherData, { recursive: true, force: true });
    }

    again.child.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  }, 180_000);

  it("stops with one clear line and exit code 1 when DATABASE_URL cannot be reached", async () => {
    // A port nobody listens on.
    const srv = net.createServer();
    const port = await new Promise<number>((r) => srv.listen(0, "127.0.0.1", () => r((srv.address() as net.AddressInfo).port)));
    srv.close();
    const r = await runToExit({ ...baseEnv(await freePort()), DATABASE_URL: `postgres://nobody@127.0.0.1:${port}/shop` });
    expect(r.code).toBe(1);
    expect(r.output).toMatch(/Cannot reach the database at 127\.0\.0\.1:\d+\/shop/);
    expect(r.output).not.toMatch(/\n\s+at /); // no stack trace
  }, 60_000);

  it("refuses a bad environment value, naming the variable", async () => {
    const r = await runToExit({ ...baseEnv(3000), DATABASE_POOL_SIZE: "lots" });
    expect(r.code).toBe(1);
    expect(r.output).toContain("DATABASE_POOL_SIZE");
  }, 60_000);
});
