// npm run profile:request -- [path] [--seconds 10] [--connections 50] [--anonymous] [--products N]
// Where a rendered request's CPU goes: starts the built shop (npm run build first) under Node's
// CPU profiler on a throwaway data folder (the embedded PostgreSQL, or a fresh database on the
// server DATABASE_URL names), loads `path` (default /shop.data) with autocannon, and prints the
// steady state's share of CPU by kind of work and its top frames. The rendering is never served
// from the page cache unless --anonymous: requests carry a cookie the shop does not know.
// --products N loads the bench's catalogue (the demo seed plus N generated products, some on sale)
// instead of the demo seed alone, so the profile shows what `npm run bench` measures.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { cannon } from "./bench/cannon";
import { fillCatalogue } from "./bench/catalog";
import { openBenchServer } from "./bench/database";
import { freePort } from "./shop-process";
import { categorise, topFrames, type CpuProfile } from "./profile/categories";

const { values, positionals } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    anonymous: { type: "boolean", default: false },
    keep: { type: "string" },
    products: { type: "string" },
  },
  allowPositionals: true,
});
const target = positionals[0] ?? "/shop.data";
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const server = await openBenchServer((m) => console.log(m));
const work = server.tmpDir;
const databaseUrl = await server.createDatabase("profile");
if (values.products) await fillCatalogue(databaseUrl, { products: Number(values.products), posts: 0, log: (m) => console.log(m) });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const profDir = path.join(work, "cpu");
const shop = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profDir}`, "server.js"], {
  env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), DATA_DIR: path.join(work, "data"), LOG_LEVEL: "warn", NODE_ENV: "production" },
  stdio: ["ignore", "pipe", "pipe"],
});
let output = "";
shop.stdout.on("data", (c: Buffer) => (output += c));
shop.stderr.on("data", (c: Buffer) => (output += c));

try {
  const end = Date.now() + 120_000;
  while (!(await fetch(`${base}/healthz`).then((r) => r.ok, () => false))) {
    if (Date.now() > end || shop.exitCode !== null) throw new Error(`The shop did not start:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  const headers: Record<string, string> = values.anonymous ? {} : { cookie: "profile-render=1" };
  // Warm: the first requests load lazily imported modules, which is not the steady state.
  await cannon({ url: `${base}${target}`, connections, seconds: 3, headers });
  const startedAt = Date.now();
  const run = await cannon({ url: `${base}${target}`, connections, seconds, headers });
  const endedAt = Date.now();
  shop.kill("SIGINT");
  await new Promise((r) => shop.once("exit", r));
  const file = fs.readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error("The shop wrote no CPU profile.");
  const profile = JSON.parse(fs.readFileSync(path.join(profDir, file), "utf8")) as CpuProfile;
  if (values.keep) fs.copyFileSync(path.join(profDir, file), values.keep);
  // The profile's clock is the process's monotonic one: keep the load's window, counted back from the end.
  const afterLoad = Date.now() - endedAt;
  const window = { fromEndMs: afterLoad + (endedAt - startedAt) - 500, toEndMs: afterLoad + 500 };
  const load = os.loadavg()[0]!.toFixed(2);
  console.log(`\n${target}${values.anonymous ? " (anonymous)" : " (rendered: an unknown cookie)"}: ${connections} connections, ${seconds} s, ${os.cpus().length} cores, load ${load}`);
  console.log(`  ${run.reqPerSec.toFixed(0)} req/s (under the profiler), p50 ${run.latency.p50.toFixed(0)} ms, p99 ${run.latency.p99.toFixed(0)} ms, ${run.non2xx} not 2xx, ${run.errors} errors\n`);
  console.log("| Kind of work | Share of CPU |\n|---|---|");
  for (const [kind, share] of categorise(profile, window)) console.log(`| ${kind} | ${(share * 100).toFixed(1)} % |`);
  console.log("\nTop frames by own time:");
  for (const [frame, share] of topFrames(profile, window, 20)) console.log(`  ${(share * 100).toFixed(1).padStart(5)} %  ${frame}`);
} finally {
  if (shop.exitCode === null) shop.kill("SIGKILL");
  await server.close(false);
}
