import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { createOrPromoteAdmin } from "../../app/server/people/accounts/admin.server";
import { createDatabase } from "../../app/server/platform/db/client.server";
import type { JobView } from "../../app/lib/jobs-view";
import type { BenchServer } from "./database";
import { request, signIn } from "./http";
import type { BenchOptions } from "./options";
import { Part, mark, table, type PartResult } from "./part";
import { fmt, mb, ratio, round } from "./stats";
import { processMemory, runCommand, startShop } from "./shop";

export const IMPORT_ROWS_PER_SEC = 20_000;
export const IMPORT_COPY_RATIO = 0.15;
export const IMPORT_PEAK_MB = 300;

type SampleModule = { writeSampleCsv: (p: string, rows: number, o: { copyPath?: string }) => Promise<void>; COPY_COLUMNS: string };
type ImportRun = { via: string; uploadSeconds: number; importSeconds: number; peakRssBytes: number; job: Partial<JobView> & Record<string, unknown> };

async function countProducts(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>("select count(*) n from products")).rows[0]!.n);
  } finally {
    await client.end();
  }
}

/** COPY FROM STDIN of the table-shaped file: the fastest way PostgreSQL takes these rows. */
async function copyIn(url: string, file: string, columns: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("truncate products cascade");
    const started = performance.now();
    await pipeline(fs.createReadStream(file, { highWaterMark: 256 * 1024 }), client.query(copyFrom(`copy products (${columns}) from stdin with (format csv)`)));
    const seconds = (performance.now() - started) / 1000;
    await client.query("truncate products cascade");
    return seconds;
  } finally {
    await client.end();
  }
}

function upload(url: string, file: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      headers: { "content-type": "text/csv", "x-file-name": "bench-products.csv", "content-length": fs.statSync(file).size, cookie, origin: new URL(url).origin },
    });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    fs.createReadStream(file).pipe(req);
  });
}

/** Through the shop itself: upload (streamed, dry-run), confirm, poll until the job is done. */
async function importThroughShop(opts: { buildDir: string; url: string; dataDir: string; file: string; log: (m: string) => void }): Promise<ImportRun | string> {
  const admin = { email: "bench-import@example.com", password: "bench-import-password" };
  const db = createDatabase(opts.url, 1);
  try {
    await createOrPromoteAdmin(db, admin);
  } finally {
    await db.$client.end();
  }
  const shop = await startShop({ buildDir: opts.buildDir, databaseUrl: opts.url, dataDir: opts.dataDir });
  try {
    const cookie = await signIn(shop.baseUrl, admin.email, admin.password);
    let t = performance.now();
    const up = await upload(`${shop.baseUrl}/admin/products/import`, opts.file, cookie);
    if (up.status !== 200) return `POST /admin/products/import answered ${up.status}${up.status === 404 ? " (not built yet)" : `: ${up.body.slice(0, 200)}`}`;
    const uploadSeconds = (performance.now() - t) / 1000;
    const pending = (JSON.parse(up.body) as { job: JobView }).job;
    opts.log(`  uploaded and dry-run in ${uploadSeconds.toFixed(1)} s; importing…`);
    t = performance.now();
    const confirm = await request(`${shop.baseUrl}/admin/products/import/${pending.id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: shop.baseUrl, "accept-encoding": "identity" },
      body: "intent=confirm",
      keepBody: true,
    });
    if (confirm.status !== 200) return `confirming the import answered ${confirm.status}: ${confirm.body.slice(0, 200)}`;
    let job: JobView | null = null;
    let peak = shop.peakRss();
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      peak = Math.max(peak, processMemory(shop.pid).peak || 0);
      const res = await request(`${shop.baseUrl}/admin/products/import`, { headers: { cookie, "accept-encoding": "identity" }, keepBody: true });
      job = (JSON.parse(res.body) as { job: JobView | null }).job;
      if (!job || job.status === "done" || job.status === "failed") break;
      if (performance.now() - t > 30 * 60_000) return "the import did not finish in 30 minutes";
    }
    const importSeconds = (performance.now() - t) / 1000;
    if (!job || job.status !== "done") return `the import job ended ${job?.status ?? "missing"}: ${JSON.stringify(job?.result ?? {}).slice(0, 300)}`;
    return { via: "the shop's import endpoint (upload, dry run, confirm, poll)", uploadSeconds, importSeconds, peakRssBytes: Math.max(peak, shop.peakRss()), job };
  } finally {
    await shop.stop();
  }
}

/** Without the endpoint: the import engine alone, in a Node process of its own. */
async function importInWorker(url: string, file: string): Promise<ImportRun> {
  const out = await runCommand(path.resolve("node_modules/.bin/tsx"), [path.resolve("scripts/bench/import-worker.ts"), url, file], { timeoutMs: 30 * 60_000 });
  const last = out.trim().split("\n").pop() ?? "{}";
  const r = JSON.parse(last) as { seconds: number; peakRssBytes: number; summary: Record<string, unknown> };
  return { via: "the import engine (importProducts) in a separate Node process", uploadSeconds: NaN, importSeconds: r.seconds, peakRssBytes: r.peakRssBytes, job: r.summary };
}

export async function runImportBench(opts: BenchOptions, server: BenchServer, log: (m: string) => void): Promise<PartResult> {
  const part = new Part("import", "CSV import vs PostgreSQL COPY");
  let sample: SampleModule;
  try {
    sample = (await import("../../app/server/catalog/import/sample-csv.server")) as SampleModule;
  } catch (err) {
    part.note(`Skipped: the import's sample-file generator is missing (${(err as Error).message.split("\n")[0]}).`, "skipped");
    return part.result();
  }
  const rows = opts.importRows;
  const dir = path.join(server.tmpDir, "import");
  fs.mkdirSync(dir, { recursive: true });
  const importFile = path.join(dir, "import.csv");
  const copyFile = path.join(dir, "copy.csv");
  log(`  writing ${rows.toLocaleString("en-US")} rows`);
  await sample.writeSampleCsv(importFile, rows, { copyPath: copyFile });
  const url = await server.createDatabase("import");

  log("  COPY");
  const copySeconds = await copyIn(url, copyFile, sample.COPY_COLUMNS);
  let run = await importThroughShop({ buildDir: opts.buildDir, url, dataDir: path.join(server.tmpDir, "import-data"), file: importFile, log });
  if (typeof run === "string") {
    part.note(`Imported with the engine alone: ${run}. The memory figure is then that process's, not the shop server's.`, "partial");
    await truncateProducts(url);
    run = await importInWorker(url, importFile);
  }
  const landed = await countProducts(url);
  const importRate = rows / run.importSeconds;
  const copyRate = rows / copySeconds;
  const vsCopy = ratio(importRate, copyRate);
  const peakMb = mb(run.peakRssBytes);
  if (landed !== rows) part.note(`${landed} of ${rows} rows are in the products table after the import.`, "partial");
  part.data = { rows, via: run.via, copySeconds: round(copySeconds, 2), importSeconds: round(run.importSeconds, 2), uploadSeconds: round(run.uploadSeconds, 2), importRowsPerSec: Math.round(importRate), copyRowsPerSec: Math.round(copyRate), ratioToCopy: vsCopy, peakRssMb: peakMb, productsAfter: landed, job: run.job };
  part.check({
    target: `Import ≥ ${IMPORT_ROWS_PER_SEC.toLocaleString("en-US")} rows/s`,
    measured: `${fmt(importRate, 0)} rows/s`,
    met: importRate >= IMPORT_ROWS_PER_SEC && landed === rows,
    // The gap's reason, when the table itself is the limit: even COPY cannot reach the target.
    note:
      importRate < IMPORT_ROWS_PER_SEC && copyRate < IMPORT_ROWS_PER_SEC
        ? `COPY itself reaches only ${fmt(copyRate, 0)} rows/s into this table: its two trigram indexes (the search at 100,000 products) cost most of each row; docs/decisions/0006`
        : undefined,
  });
  part.check({ target: `Import ≥ ${IMPORT_COPY_RATIO}× COPY`, measured: `${fmt(vsCopy, 3)}× (COPY ${fmt(copyRate, 0)} rows/s)`, met: vsCopy >= IMPORT_COPY_RATIO });
  part.check({ target: `Peak server memory during the import < ${IMPORT_PEAK_MB} MB`, measured: `${fmt(peakMb)} MB`, met: peakMb < IMPORT_PEAK_MB });
  part.md.push(
    `${rows.toLocaleString("en-US")} generated rows (the import's own sample generator), each time into an empty, fully indexed products table. COPY: \`COPY … FROM STDIN (FORMAT csv)\` of the same rows shaped like the table. Import: ${run.via}; the time runs from the confirmation to the job's end${Number.isFinite(run.uploadSeconds) ? ` (the upload with its dry run took ${fmt(run.uploadSeconds)} s before that)` : ""}. Peak memory is the process's VmHWM (peak resident set).`,
    "",
    table(
      ["Loader", "Seconds", "Rows/s", "vs COPY", "Peak MB", "Met"],
      [
        ["PostgreSQL COPY", fmt(copySeconds, 2), fmt(copyRate, 0), "1", "—", "—"],
        ["Shop import", fmt(run.importSeconds, 2), fmt(importRate, 0), `${fmt(vsCopy, 3)}×`, fmt(peakMb), mark(part.checks.every((c) => c.met))],
      ],
    ),
  );
  return part.result();
}

async function truncateProducts(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("truncate products cascade").finally(() => client.end());
}
