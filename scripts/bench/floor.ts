import { spawn } from "node:child_process";
import path from "node:path";
import { cannon, type CannonRun } from "./cannon";
import { probe, type BenchContext } from "./context";
import { Part, table, type PartResult } from "./part";
import { fmt, ratio } from "./stats";
import { RENDER } from "./server-times";
import { freePort } from "./shop";

/** The shop's listing data request: what a client-side visit to /shop fetches. */
export const SHOP_LISTING_DATA = "/shop.data";

async function startFloorServer(databaseUrl: string) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.resolve("scripts/bench/floor-server.mjs")], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), POOL_SIZE: "10" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the floor server did not start:\n${output}`)), 15_000);
    child.stdout.on("data", (d) => {
      output += d;
      if (output.includes("floor ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on("data", (d) => (output += d));
    child.once("exit", (code) => reject(new Error(`the floor server exited with ${code}:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/products`,
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      await exited;
    },
  };
}

const row = (label: string, r: CannonRun) => [label, fmt(r.reqPerSec, 0), fmt(r.latency.p50), fmt(r.latency.p95), fmt(r.latency.p99), r.errors + r.non2xx];

export async function runFloor(ctx: BenchContext): Promise<PartResult> {
  const part = new Part("floor", "Floor comparison: the shop's listing vs plain Node + pg");
  const shopUrl = ctx.shop.baseUrl + SHOP_LISTING_DATA;
  const first = await probe(shopUrl);
  if (first.status !== 200) {
    part.note(
      `Skipped: GET ${SHOP_LISTING_DATA} answered ${first.status || first.body}${first.status === 404 ? " — the /shop page is not built yet" : ""}.`,
      "skipped",
    );
    return part.result();
  }
  const floor = await startFloorServer(ctx.databaseUrl);
  try {
    const { floorConnections: connections, floorSeconds: seconds } = ctx.opts;
    ctx.log(`  warm-up, then ${seconds} s per side at ${connections} connections`);
    // The shop renders every answer (a cookie bypasses the page cache), as the floor queries for
    // every answer; what a visitor without cookies gets from the cache is measured after.
    await cannon({ url: shopUrl, connections, seconds: 2, headers: RENDER });
    const shop = await cannon({ url: shopUrl, connections, seconds, headers: RENDER });
    await cannon({ url: floor.url, connections, seconds: 2 });
    const plain = await cannon({ url: floor.url, connections, seconds });
    const cached = await cannon({ url: shopUrl, connections, seconds });
    const rps = ratio(shop.reqPerSec, plain.reqPerSec);
    const p99 = ratio(shop.latency.p99, plain.latency.p99);
    part.data = { connections, seconds, shop, floor: plain, shopPageCache: cached, reqPerSecRatio: rps, p99Ratio: p99 };
    for (const [side, r] of [["the shop", shop], ["the floor server", plain]] as const) {
      if (r.requests === 0) part.note(`No response from ${side} completed within ${seconds} s: the machine is overloaded or the route hangs.`, "failed");
    }
    for (const r of [shop, cached]) {
      if (r.errors + r.non2xx) part.note(`The shop answered ${r.errors} errors and ${r.non2xx} non-2xx during the comparison.`, "partial");
    }
    part.check({
      target: "Shop listing vs the Node + pg floor (reported, no fixed target)",
      measured: `${fmt(rps * 100, 0)}% of the floor's req/s; p99 ${fmt(p99, 2)}× the floor's`,
      met: null,
    });
    part.md.push(
      `autocannon, ${connections} connections, ${seconds} s each after a 2 s warm-up, no compression on either side. The shop side is \`GET ${SHOP_LISTING_DATA}\` — the data request of a client-side visit to /shop (root and page loaders: session, settings, the first 24 products and their count) — sent with a cookie the shop does not know, so every answer is rendered afresh, as the floor queries afresh. The floor is a minimal \`node:http\` server (scripts/bench/floor-server.mjs) running the same 24-row listing query with \`pg\` (pool of 10, as the shop) and answering JSON. The last row is the same request without cookies, as a visitor gets it from the page cache (docs/decisions/0012); the ratio does not use it.`,
      "",
      table(
        ["Side", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors + non-2xx"],
        [row("Shop /shop.data, rendered", shop), row("Floor (node:http + pg)", plain), row("Shop /shop.data, page cache", cached)],
      ),
      "",
      `**Ratio:** rendering every answer, the shop serves **${fmt(rps * 100, 0)}%** of the floor's requests per second, with a p99 **${fmt(p99, 2)}×** the floor's. From the page cache it serves **${fmt(ratio(cached.reqPerSec, plain.reqPerSec) * 100, 0)}%** of the floor's.`,
    );
  } finally {
    await floor.stop();
  }
  return part.result();
}
