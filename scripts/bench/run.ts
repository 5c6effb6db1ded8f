// npm run bench: every benchmark of the shop in one run, written to bench/results.md and
// bench/results.json. See bench/README.md for what each figure means, `-- --help` for options.
import path from "node:path";
import { hashPassword } from "better-auth/crypto";
import { createOrPromoteAdmin } from "../../app/server/people/accounts/admin.server";
import { insertPasswordUser } from "../../app/server/people/accounts/password-user.server";
import { createDatabase } from "../../app/server/platform/db/client.server";
import { resetEnvCache } from "../../app/server/platform/env.server";
import { fillCatalogue, type CatalogueStats } from "./catalog";
import { runAnalytics, TITLE as ANALYTICS_TITLE } from "./analytics";
import { runBurst } from "./burst";
import { runCosts, TITLE as COSTS_TITLE } from "./costs";
import { runPricing } from "./pricing";
import { loadSamples, type BenchContext } from "./context";
import { openBenchServer, type BenchServer } from "./database";
import { runFloor } from "./floor";
import { runImportBench } from "./import-bench";
import { runLoad } from "./load";
import { currentCommit, describeMachine } from "./machine";
import { readOptions, USAGE, type BenchOptions, type PartId } from "./options";
import { runJsBudget, runLighthouse } from "./pages";
import { Part, type PartResult } from "./part";
import { writeReport } from "./report";
import { runServerTimes } from "./server-times";
import { buildShop, startShop, type RunningShop } from "./shop";
import { runVarnish, TITLE as VARNISH_TITLE } from "./varnish";

const t0 = Date.now();
const log = (m: string) => console.log(`[${String(Math.round((Date.now() - t0) / 1000)).padStart(4)} s] ${m}`);

const TITLES: Record<PartId, string> = {
  server: "Server response times",
  lighthouse: "Lighthouse (mobile)",
  js: "First-load JavaScript vs a bare React Router page",
  floor: "Floor comparison: the shop's listing vs plain Node + pg",
  burst: "Bursts: 1,000 simultaneous requests",
  pricing: "Quotes: shipping zones, tax and discount codes",
  analytics: ANALYTICS_TITLE,
  costs: COSTS_TITLE,
  varnish: VARNISH_TITLE,
  load: "Load test: a mix of shoppers",
  import: "CSV import vs PostgreSQL COPY",
};
/** The heaviest part last, so it cannot disturb the quieter measurements. */
// Pricing adds 1,000 zones and 10,000 codes before the load test, so checkouts are priced by them;
// analytics adds a year of orders, so the load test's checkouts land in a shop that has them, and
// the costs part's orders are placed and sized among them.
const ORDER: PartId[] = ["server", "lighthouse", "js", "floor", "burst", "pricing", "analytics", "costs", "varnish", "load"];
const RUNNERS: Record<Exclude<PartId, "import">, (ctx: BenchContext) => Promise<PartResult>> = {
  server: runServerTimes,
  lighthouse: runLighthouse,
  js: runJsBudget,
  floor: runFloor,
  burst: runBurst,
  pricing: runPricing,
  analytics: runAnalytics,
  costs: runCosts,
  varnish: runVarnish,
  load: runLoad,
};

/** A part that throws becomes a failed part with its message; the run goes on. */
async function guarded(id: PartId, fn: () => Promise<PartResult>): Promise<PartResult> {
  log(`▶ ${TITLES[id]}`);
  try {
    const result = await fn();
    log(`  ${result.status}${result.notes.length ? ` (${result.notes.length} note${result.notes.length > 1 ? "s" : ""})` : ""}`);
    return result;
  } catch (err) {
    const part = new Part(id, TITLES[id]);
    part.note(`Failed: ${(err as Error).message.slice(0, 1500)}`, "failed");
    log(`  failed: ${(err as Error).message.split("\n")[0]}`);
    return part.result();
  }
}

function commandLine(argv: string[]) {
  const env = Object.entries(process.env)
    .filter(([k]) => k.startsWith("BENCH_"))
    .map(([k, v]) => `${k}=${v}`);
  return [...env, "npm run bench", ...(argv.length ? ["--", ...argv] : [])].join(" ");
}

async function main(argv: string[]) {
  let opts: BenchOptions | "help";
  try {
    opts = readOptions(argv, process.env);
  } catch (err) {
    console.error(`✖ ${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (opts === "help") {
    console.log(USAGE);
    return;
  }
  const startedAt = new Date();
  const commit = currentCommit();
  const results: PartResult[] = [];
  let dataset: CatalogueStats | null = null;
  let shop: RunningShop | undefined;
  let server: BenchServer | undefined;
  let built = false;
  const build = async () => {
    if (opts.build && !built) await buildShop(opts.buildDir, log);
    built = true;
  };

  const stopAll = async () => {
    await shop?.stop().catch(() => {});
    await server?.close(opts.keep).catch((err) => log(`cleanup: ${(err as Error).message}`));
  };
  process.once("SIGINT", () => {
    log("Interrupted: stopping the shop and the database; no results written.");
    void stopAll().finally(() => process.exit(130));
  });

  try {
    server = await openBenchServer(log);
    const shopDataDir = path.join(server.tmpDir, "shop-data");
    // The demo seed writes its images where the bench shop serves them from.
    process.env.DATA_DIR = shopDataDir;
    process.env.LOG_LEVEL = "warn";
    resetEnvCache();

    const pageParts = ORDER.filter((p) => opts.parts.has(p));
    if (pageParts.length) {
      try {
        const url = await server.createDatabase("catalogue");
        dataset = await fillCatalogue(url, { products: opts.products, posts: opts.posts, log });
        log(`Catalogue ready: ${dataset.products.toLocaleString("en-US")} products, ${dataset.posts.toLocaleString("en-US")} posts (${dataset.seconds} s)`);
        const admin = { email: "bench-admin@example.com", password: "bench-admin-password" };
        const db = createDatabase(url, 1);
        const customer = { email: "bench-customer@example.com", password: "bench-customer-password" };
        await createOrPromoteAdmin(db, admin)
          .then(async () =>
            insertPasswordUser(db, {
              email: customer.email,
              passwordHash: await hashPassword(customer.password),
              name: "Bench Customer",
              role: "customer",
              emailVerified: true,
              firstName: "Bench",
              lastName: "Customer",
            }),
          )
          .finally(() => db.$client.end());
        await build();
        shop = await startShop({ buildDir: opts.buildDir, databaseUrl: url, dataDir: shopDataDir });
        log(`Shop running on ${shop.baseUrl}`);
        const ctx: BenchContext = { opts, log, shop, databaseUrl: url, samples: await loadSamples(url), admin, customer };
        for (const id of pageParts) results.push(await guarded(id, () => RUNNERS[id as Exclude<PartId, "import">](ctx)));
      } catch (err) {
        // Without a catalogue or a running shop none of these parts can measure anything.
        log(`Setup failed: ${(err as Error).message.split("\n")[0]}`);
        for (const id of pageParts.filter((p) => !results.some((r) => r.id === p))) {
          const part = new Part(id, TITLES[id]);
          part.note(`Failed before measuring: ${(err as Error).message.slice(0, 1500)}`, "failed");
          results.push(part.result());
        }
      } finally {
        await shop?.stop();
        shop = undefined;
      }
    }
    if (opts.parts.has("import")) {
      const srv = server;
      results.push(
        await guarded("import", async () => {
          await build();
          return runImportBench(opts, srv, log);
        }),
      );
    }
    const machine = describeMachine(server.version);
    writeReport(
      { startedAt, seconds: (Date.now() - t0) / 1000, command: commandLine(argv), commit, machine, database: server.kind, opts, dataset, parts: results },
      log,
    );
    const missed = results.flatMap((p) => p.checks).filter((c) => c.met === false).length;
    log(`Done: ${results.filter((p) => p.status === "ok").length} of ${results.length} parts fully measured; ${missed} target(s) missed.`);
  } finally {
    await stopAll();
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error(`✖ ${(err as Error).stack ?? err}`);
  process.exit(1);
});
