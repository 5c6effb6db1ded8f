import path from "node:path";
import { parseArgs } from "node:util";

export const PARTS = ["server", "floor", "burst", "pricing", "analytics", "costs", "varnish", "load", "lighthouse", "js", "import"] as const;
export type PartId = (typeof PARTS)[number];

export type BenchOptions = {
  products: number;
  posts: number;
  importRows: number;
  /** Measured requests per route for server times (after `warmup` unmeasured ones). */
  requests: number;
  warmup: number;
  loadConnections: number[];
  loadSeconds: number;
  /** Share of shopper visits that end in a paid checkout. */
  checkoutShare: number;
  floorConnections: number;
  floorSeconds: number;
  lighthouseRuns: number;
  /** Orders generated for the owner's pages (customers are a fifth of them, order lines four times as many). */
  analyticsOrders: number;
  /** Measured requests per owner's page (after `analyticsWarmup` unmeasured ones); CSV downloads get a third of them. */
  analyticsRequests: number;
  analyticsWarmup: number;
  parts: Set<PartId>;
  buildDir: string;
  build: boolean;
  outDir: string;
  keep: boolean;
  /** True when every size is the full one the targets are defined for. */
  fullSize: boolean;
};

export const FULL: Omit<BenchOptions, "parts" | "buildDir" | "build" | "outDir" | "keep" | "fullSize"> = {
  products: 100_000,
  posts: 1_000,
  importRows: 100_000,
  requests: 300,
  warmup: 30,
  loadConnections: [50, 100, 200],
  loadSeconds: 60,
  checkoutShare: 0.3,
  floorConnections: 50,
  floorSeconds: 15,
  lighthouseRuns: 3,
  analyticsOrders: 500_000,
  analyticsRequests: 60,
  analyticsWarmup: 5,
};

/** `--quick`: every part runs, on sizes small enough for a development loop (about 3 minutes). */
const QUICK: typeof FULL = {
  products: 2_000,
  posts: 100,
  importRows: 5_000,
  requests: 60,
  warmup: 10,
  loadConnections: [10, 20],
  loadSeconds: 5,
  checkoutShare: 0.3,
  floorConnections: 20,
  floorSeconds: 3,
  lighthouseRuns: 1,
  analyticsOrders: 20_000,
  analyticsRequests: 20,
  analyticsWarmup: 3,
};

export const USAGE = `npm run bench [-- options]

Every option also reads from an environment variable (the flag wins).
  --quick                 small sizes for development (BENCH_QUICK=1)
  --products N            generated products (BENCH_PRODUCTS, default 100000)
  --posts N               generated blog posts (BENCH_POSTS, default 1000)
  --import-rows N         rows in the generated import CSV (BENCH_IMPORT_ROWS, default 100000)
  --requests N            measured requests per route (BENCH_REQUESTS, default 300)
  --warmup N              unmeasured requests per route first (BENCH_WARMUP, default 30)
  --load-connections L    comma list (BENCH_LOAD_CONNECTIONS, default 50,100,200)
  --load-seconds N        seconds per load level (BENCH_LOAD_SECONDS, default 60)
  --checkout-share F      share of shopper visits that pay (BENCH_CHECKOUT_SHARE, default 0.3)
  --floor-seconds N       seconds per side of the floor comparison (BENCH_FLOOR_SECONDS, default 15)
  --floor-connections N   (BENCH_FLOOR_CONNECTIONS, default 50)
  --lighthouse-runs N     runs per page, the median is kept (BENCH_LIGHTHOUSE_RUNS, default 3)
  --analytics-orders N    orders for the owner's pages; customers = N/5, lines = 4N
                          (BENCH_ANALYTICS_ORDERS, default 500000)
  --analytics-requests N  measured requests per owner's page (BENCH_ANALYTICS_REQUESTS, default 60)
  --only L / --skip L     parts: ${PARTS.join(",")} (BENCH_ONLY / BENCH_SKIP);
                          --parts L is the same as --only L
  --build-dir DIR         where the shop is built (BENCH_BUILD_DIR, default build-bench)
  --no-build              reuse the build in --build-dir (BENCH_NO_BUILD=1)
  --out DIR               where results.md and results.json go (BENCH_OUT; default bench,
                          or bench/tmp for a run smaller than the full one)
  --keep                  keep the temporary database and data folder (BENCH_KEEP=1)`;

const truthy = (v: string | undefined) => v !== undefined && /^(1|true|yes)$/i.test(v);

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw.replace(/_/g, ""));
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0 (got "${raw}")`);
  return n;
}

function list(name: string, raw: string | undefined, fallback: number[]): number[] {
  if (!raw) return fallback;
  const values = raw.split(",").map((s) => positiveInt(name, s.trim(), 0)).filter((n) => n > 0);
  if (!values.length) throw new Error(`${name} must list at least one positive number (got "${raw}")`);
  return values;
}

function partSet(name: string, raw: string | undefined): Set<PartId> | null {
  if (!raw) return null;
  const ids = raw.split(",").map((s) => s.trim()).filter(Boolean);
  for (const id of ids) {
    if (!(PARTS as readonly string[]).includes(id)) throw new Error(`${name}: unknown part "${id}" (parts: ${PARTS.join(", ")})`);
  }
  return new Set(ids as PartId[]);
}

export function readOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    options: {
      help: { type: "boolean", short: "h" },
      quick: { type: "boolean" },
      products: { type: "string" },
      posts: { type: "string" },
      "import-rows": { type: "string" },
      requests: { type: "string" },
      warmup: { type: "string" },
      "load-connections": { type: "string" },
      "load-seconds": { type: "string" },
      "checkout-share": { type: "string" },
      "floor-seconds": { type: "string" },
      "floor-connections": { type: "string" },
      "lighthouse-runs": { type: "string" },
      only: { type: "string" },
      parts: { type: "string" },
      "analytics-orders": { type: "string" },
      "analytics-requests": { type: "string" },
      skip: { type: "string" },
      "build-dir": { type: "string" },
      "no-build": { type: "boolean" },
      out: { type: "string" },
      keep: { type: "boolean" },
    },
  });
  if (values.help) return "help";
  const base = values.quick || truthy(env.BENCH_QUICK) ? QUICK : FULL;
  const pick = (flag: keyof typeof values, envName: string) => (values[flag] as string | undefined) ?? env[envName];

  const share = Number(pick("checkout-share", "BENCH_CHECKOUT_SHARE") ?? base.checkoutShare);
  if (!(share >= 0 && share <= 1)) throw new Error("--checkout-share must be between 0 and 1");

  const only = values.parts !== undefined ? partSet("--parts", values.parts) : partSet("--only", pick("only", "BENCH_ONLY"));
  const skip = partSet("--skip", pick("skip", "BENCH_SKIP")) ?? new Set<PartId>();
  const parts = new Set<PartId>([...(only ?? PARTS)].filter((p) => !skip.has(p)));

  const opts: BenchOptions = {
    products: positiveInt("--products", pick("products", "BENCH_PRODUCTS"), base.products),
    posts: positiveInt("--posts", pick("posts", "BENCH_POSTS"), base.posts),
    importRows: positiveInt("--import-rows", pick("import-rows", "BENCH_IMPORT_ROWS"), base.importRows),
    requests: Math.max(1, positiveInt("--requests", pick("requests", "BENCH_REQUESTS"), base.requests)),
    warmup: positiveInt("--warmup", pick("warmup", "BENCH_WARMUP"), base.warmup),
    loadConnections: list("--load-connections", pick("load-connections", "BENCH_LOAD_CONNECTIONS"), base.loadConnections),
    loadSeconds: Math.max(1, positiveInt("--load-seconds", pick("load-seconds", "BENCH_LOAD_SECONDS"), base.loadSeconds)),
    checkoutShare: share,
    floorConnections: Math.max(1, positiveInt("--floor-connections", pick("floor-connections", "BENCH_FLOOR_CONNECTIONS"), base.floorConnections)),
    floorSeconds: Math.max(1, positiveInt("--floor-seconds", pick("floor-seconds", "BENCH_FLOOR_SECONDS"), base.floorSeconds)),
    lighthouseRuns: Math.max(1, positiveInt("--lighthouse-runs", pick("lighthouse-runs", "BENCH_LIGHTHOUSE_RUNS"), base.lighthouseRuns)),
    analyticsOrders: Math.max(5, positiveInt("--analytics-orders", pick("analytics-orders", "BENCH_ANALYTICS_ORDERS"), base.analyticsOrders)),
    analyticsRequests: Math.max(1, positiveInt("--analytics-requests", pick("analytics-requests", "BENCH_ANALYTICS_REQUESTS"), base.analyticsRequests)),
    analyticsWarmup: base.analyticsWarmup,
    parts,
    buildDir: pick("build-dir", "BENCH_BUILD_DIR") ?? "build-bench",
    build: !(values["no-build"] || truthy(env.BENCH_NO_BUILD)),
    outDir: pick("out", "BENCH_OUT") ?? "",
    keep: Boolean(values.keep || truthy(env.BENCH_KEEP)),
    fullSize: false,
  };
  opts.fullSize =
    opts.products >= FULL.products &&
    opts.posts >= FULL.posts &&
    opts.importRows >= FULL.importRows &&
    opts.requests >= FULL.requests &&
    opts.loadSeconds >= FULL.loadSeconds &&
    FULL.loadConnections.every((c) => opts.loadConnections.includes(c)) &&
    opts.floorSeconds >= FULL.floorSeconds &&
    opts.lighthouseRuns >= FULL.lighthouseRuns &&
    opts.analyticsOrders >= FULL.analyticsOrders &&
    opts.analyticsRequests >= FULL.analyticsRequests;
  // Smaller runs, and runs of some parts only, go to bench/tmp (ignored by git) unless told
  // otherwise, so development figures never replace the committed results by accident.
  const everyPart = PARTS.every((p) => parts.has(p));
  opts.outDir = path.resolve(opts.outDir || (opts.fullSize && everyPart ? "bench" : "bench/tmp"));
  return opts;
}
