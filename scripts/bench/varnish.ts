import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cannon, type CannonRun } from "./cannon";
import type { BenchContext } from "./context";
import { processCpuMs } from "./costs";
import { request } from "./http";
import { Part, table, type PartResult } from "./part";
import { anonymousPagePaths } from "./shoppers";
import { freePort } from "./shop";
import { fmt, ratio } from "./stats";

export const TITLE = "Anonymous storefront through Varnish vs the app server alone";

/** Where Debian's package puts it; tests/e2e/varnish.test.ts looks in the same places. */
export const VARNISHD = ["/usr/sbin/varnishd", "/usr/bin/varnishd"].find((p) => fs.existsSync(p));

/** The VCL the shop ships (docs/deploy/varnish.vcl), its backend pointed at the bench's shop. */
function shippedVcl(shopPort: string): string {
  const vcl = fs.readFileSync("docs/deploy/varnish.vcl", "utf8").replace('.port = "3000";', `.port = "${shopPort}";`);
  if (!vcl.includes(`.port = "${shopPort}";`)) throw new Error("docs/deploy/varnish.vcl no longer has the backend port this bench replaces");
  return vcl;
}

async function startVarnish(shopBaseUrl: string) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-varnish-"));
  // varnishd's compiler runs as an unprivileged user that must read the VCL.
  fs.chmodSync(workDir, 0o755);
  const vclPath = path.join(workDir, "shop.vcl");
  fs.writeFileSync(vclPath, shippedVcl(new URL(shopBaseUrl).port));
  fs.chmodSync(vclPath, 0o644);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const name = path.join(workDir, "n");
  const child: ChildProcess = spawn(VARNISHD!, ["-F", "-n", name, "-a", `127.0.0.1:${port}`, "-f", vclPath, "-s", "malloc,256m"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      await exited;
    }
    fs.rmSync(workDir, { recursive: true, force: true });
  };
  const end = Date.now() + 20_000;
  for (;;) {
    const up = await request(`${url}/healthz`, { timeoutMs: 2000 }).then(() => true, () => false);
    if (up) break;
    if (Date.now() > end || child.exitCode !== null) {
      await stop();
      throw new Error(`varnishd did not start:\n${output.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  /** Varnish's own hit and miss counters (varnishstat). */
  const counters = () => {
    const out = spawnSync("varnishstat", ["-n", name, "-1", "-f", "MAIN.cache_hit", "-f", "MAIN.cache_miss", "-f", "MAIN.cache_hitpass", "-f", "MAIN.s_pass"], { encoding: "utf8" }).stdout ?? "";
    const get = (k: string) => Number(new RegExp(`^MAIN\\.${k}\\s+(\\d+)`, "m").exec(out)?.[1] ?? NaN);
    return { hit: get("cache_hit"), miss: get("cache_miss"), pass: get("s_pass") };
  };
  return { url, stop, counters, output: () => output };
}

/** "varnish-7.1.1", as `varnishd -V` names itself. */
function varnishVersion(): string {
  const out = spawnSync(VARNISHD!, ["-V"], { encoding: "utf8" });
  return /\((varnish-[^ )]+)/.exec(`${out.stdout}${out.stderr}`)?.[1] ?? "varnishd";
}

type Side = CannonRun & { appCpuMsPerSec: number; hitRatio?: number };

export async function runVarnish(ctx: BenchContext): Promise<PartResult> {
  const part = new Part("varnish", TITLE);
  if (!VARNISHD) {
    const reason = "Skipped: varnishd is not installed (Debian: apt-get install -y varnish).";
    ctx.log(`  ${reason}`);
    part.note(reason, "skipped");
    return part.result();
  }
  // The load test's anonymous page views (its mix without the cart refreshes): the same URLs on both sides.
  const paths = anonymousPagePaths(ctx.samples.productIds, ctx.samples.slugs, 100, 5151);
  const varnish = await startVarnish(ctx.shop.baseUrl);
  try {
    const headers = { "accept-encoding": "gzip" };
    // Every URL once on each side: the app's page cache and Varnish's cache both hold them.
    for (const p of paths) {
      await request(ctx.shop.baseUrl + p, { headers });
      await request(varnish.url + p, { headers });
    }
    const { floorConnections: connections, floorSeconds: seconds } = ctx.opts;
    const requests = paths.map((p) => ({ method: "GET" as const, path: p }));
    const side = async (base: string, counted: boolean): Promise<Side> => {
      await cannon({ url: base, connections, seconds: 2, headers, requests });
      const before = counted ? varnish.counters() : null;
      const cpu0 = processCpuMs(ctx.shop.pid);
      const t0 = performance.now();
      const run = await cannon({ url: base, connections, seconds, headers, requests });
      const appCpuMsPerSec = (processCpuMs(ctx.shop.pid) - cpu0) / ((performance.now() - t0) / 1000);
      const after = counted ? varnish.counters() : null;
      const hitRatio = before && after ? ratio(after.hit - before.hit, after.hit - before.hit + after.miss - before.miss + after.pass - before.pass) : undefined;
      return { ...run, appCpuMsPerSec, ...(hitRatio === undefined ? {} : { hitRatio }) };
    };
    ctx.log(`  the app server alone, ${connections} connections, ${seconds} s`);
    const alone = await side(ctx.shop.baseUrl, false);
    ctx.log(`  through Varnish, ${connections} connections, ${seconds} s`);
    const cached = await side(varnish.url, true);
    const times = ratio(cached.reqPerSec, alone.reqPerSec);
    ctx.log(`  app server alone ${fmt(alone.reqPerSec, 0)} req/s, through Varnish ${fmt(cached.reqPerSec, 0)} req/s: ×${fmt(times, 1)} (Varnish hit ratio ${fmt((cached.hitRatio ?? NaN) * 100, 1)}%)`);
    for (const [name, s] of [["the app server alone", alone], ["Varnish", cached]] as const) {
      if (s.errors + s.non2xx) part.note(`${name}: ${s.errors} errors and ${s.non2xx} non-2xx answers.`, "partial");
    }
    part.data = { connections, seconds, urls: paths.length, alone, varnish: cached, ratio: times };
    part.check({
      target: "Anonymous storefront req/s through Varnish vs the app server alone (reported, no target)",
      measured: `${fmt(cached.reqPerSec, 0)} vs ${fmt(alone.reqPerSec, 0)} req/s = ×${fmt(times, 1)}`,
      met: null,
    });
    const row = (label: string, s: Side) => [label, fmt(s.reqPerSec, 0), fmt(s.latency.p50), fmt(s.latency.p95), fmt(s.latency.p99), fmt(s.appCpuMsPerSec, 0), s.hitRatio === undefined ? "—" : `${fmt(s.hitRatio * 100, 1)}%`, s.errors + s.non2xx];
    part.md.push(
      `autocannon, ${connections} connections, ${seconds} s per side after a 2 s warm-up, no cookies, gzip accepted, each connection cycling through the same ${paths.length} URLs drawn from the load test's page mix (home, shop, searches, filters, products, blog, posts); every URL was asked once on each side before, so both caches hold it. "Alone" is the app server answering from its own page cache (docs/decisions/0012); "Varnish" is ${varnishVersion()} (256 MB of memory) with docs/deploy/varnish.vcl in front of the same server. autocannon, Varnish and the app server share this machine's cores, so the Varnish figure is bounded by the client as much as by Varnish. App CPU is the app server process's CPU per second during the run (/proc/<pid>/stat): what is left of its work behind the cache.`,
      "",
      table(["Side", "req/s", "p50 ms", "p95 ms", "p99 ms", "app CPU ms/s", "Varnish hits", "errors + non-2xx"], [row("App server alone", alone), row("Through Varnish", cached)]),
      "",
      `**Through Varnish ×${fmt(times, 1)}** the app server alone's requests per second.`,
    );
  } finally {
    await varnish.stop();
  }
  return part.result();
}
