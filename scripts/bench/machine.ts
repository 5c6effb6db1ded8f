import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { CHROME_PATH } from "./browser";

export type Machine = {
  cpu: string;
  cores: number;
  ramGb: number;
  os: string;
  node: string;
  postgres: string;
  chromium: string;
  loadAverageAtStart: number[];
};

export type Commit = { sha: string; short: string; subject: string; dirty: boolean };

function run(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
}

/** The CPU as /proc names it ("AMD EPYC 7B13"), falling back to what Node reports. */
function cpuModel(): string {
  try {
    const info = fs.readFileSync("/proc/cpuinfo", "utf8");
    const m = /^model name\s*:\s*(.+)$/m.exec(info);
    if (m) return m[1]!.trim();
  } catch {
    /* not Linux */
  }
  return os.cpus()[0]?.model ?? "unknown";
}

export function describeMachine(postgresVersion: string): Machine {
  return {
    cpu: cpuModel(),
    cores: os.cpus().length,
    ramGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    postgres: postgresVersion,
    chromium: run(CHROME_PATH, ["--version"]) || "not found",
    loadAverageAtStart: os.loadavg().map((v) => Math.round(v * 100) / 100),
  };
}

export function currentCommit(): Commit {
  const sha = run("git", ["rev-parse", "HEAD"]);
  return {
    sha: sha || "unknown",
    short: sha.slice(0, 7) || "unknown",
    subject: run("git", ["log", "-1", "--format=%s"]),
    // Uncommitted changes in the app make the figures describe something no commit holds.
    dirty: run("git", ["status", "--porcelain", "--untracked-files=no", "--", "app", "server", "server.js", "drizzle"]) !== "",
  };
}

/** Busy and total CPU ticks of the whole machine, from /proc/stat (null where there is none). */
function cpuTicks(): { busy: number; total: number } | null {
  try {
    const line = fs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
    const t = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (t[3] ?? 0) + (t[4] ?? 0);
    const total = t.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * Waits until the machine's CPU has been mostly idle for a second (under `busyShare` of all
 * cores), at most `maxMs`: a part that measures a few milliseconds must not time what the part
 * before it left running (a burst's last answers, PostgreSQL's clean-up after it). Returns how
 * long it waited and the busy share of the last second.
 */
export async function untilQuiet({ busyShare = 0.25, maxMs = 30_000 } = {}): Promise<{ waitedMs: number; busy: number | null }> {
  const started = Date.now();
  let last = cpuTicks();
  if (!last) return { waitedMs: 0, busy: null };
  for (;;) {
    await new Promise((r) => setTimeout(r, 1_000));
    const now = cpuTicks()!;
    const busy = now.total > last.total ? (now.busy - last.busy) / (now.total - last.total) : 0;
    last = now;
    if (busy < busyShare || Date.now() - started >= maxMs) return { waitedMs: Date.now() - started, busy };
  }
}
