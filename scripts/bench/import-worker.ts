// Runs the import engine alone on one file, in a process of its own, so its peak memory is its
// own: `tsx scripts/bench/import-worker.ts <database url> <csv file>` prints one JSON line.
import { createDatabase } from "../../app/server/platform/db/client.server";
import { importProducts } from "../../app/server/catalog/import/run-import.server";

const [url, file] = process.argv.slice(2);
if (!url || !file) {
  console.error("usage: import-worker.ts <database url> <csv file>");
  process.exit(2);
}
const db = createDatabase(url, 4);
let peak = process.memoryUsage.rss();
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
const started = performance.now();
try {
  const summary = await importProducts(db, file);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  console.log(JSON.stringify({ seconds, peakRssBytes: Math.max(peak, process.memoryUsage.rss()), summary: { ...summary, errors: summary.errors.slice(0, 5), notes: summary.notes.slice(0, 5) } }));
} finally {
  clearInterval(sampler);
  await db.$client.end();
}
