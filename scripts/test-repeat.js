// `node scripts/test-repeat.js [runs] [--lock <file>] [--no-build] [vitest arguments…]`: the
// browser suite (vitest.e2e.config.ts) run `runs` times in a row (20 unless given), then a tally:
// how many runs failed, each failing test with how often it failed, and each run's duration.
// A flaky test shows up here as "failed 1 of 20", which one green run can never show.
//
// The shop is built once, before the first run (the runs test that build). With `--lock`, each
// run takes that file with flock(1) while it runs, so other browser runs on a shared machine
// interleave instead of colliding on ports and Chromium (e.g. `--lock /tmp/e2e.lock`).
// Each run's vitest JSON report is kept in the folder printed at the start.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
let runs = 20;
let lock = null;
let build = true;
const extra = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (/^\d+$/.test(a) && i === 0) runs = Number(a);
  else if (a === "--lock") lock = args[++i];
  else if (a === "--no-build") build = false;
  else extra.push(a);
}

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "test-repeat-"));
console.log(`${runs} runs of the browser suite; reports in ${outDir}`);

if (build) {
  const b = spawnSync("npx", ["react-router", "build"], { stdio: ["ignore", "ignore", "inherit"] });
  if (b.status !== 0) {
    console.error("The build failed, so the browser tests cannot run.");
    process.exit(1);
  }
}

/** "file › test name" → how many runs it failed in. */
const failures = new Map();
/** File → its durations (seconds) over the runs. */
const fileSeconds = new Map();
const summary = [];

/** The tally so far: printed after every run, so a long series that is stopped still tells. */
function printTally(done) {
  console.log("\n━━ Tally ━━");
  const failedRuns = summary.filter((s) => s.failed > 0 || s.status !== 0).length;
  console.log(`runs: ${done}, runs with a failure: ${failedRuns}`);
  for (const s of summary) console.log(`  run ${s.run}: ${s.failed ? `${s.failed} failed` : "passed"}, ${s.tests} tests, ${s.seconds} s, load at start ${s.load}`);
  if (failures.size) {
    console.log("failures per test:");
    for (const [name, n] of [...failures].sort((a, b) => b[1] - a[1])) console.log(`  ${n} of ${done}  ${name}`);
  } else {
    console.log("no test failed");
  }
  console.log("slowest files (mean seconds over the runs):");
  const means = [...fileSeconds].map(([f, s]) => [f, s.reduce((a, b) => a + b, 0) / s.length]).sort((a, b) => b[1] - a[1]);
  for (const [f, s] of means.slice(0, 15)) console.log(`  ${s.toFixed(1).padStart(6)}  ${f}`);
  return failedRuns;
}

for (let run = 1; run <= runs; run++) {
  const report = path.join(outDir, `run-${run}.json`);
  const vitest = ["vitest", "run", "--config", "vitest.e2e.config.ts", "--reporter=dot", "--reporter=json", `--outputFile.json=${report}`, ...extra];
  // The run's start and the load then are noted once the lock is held: waiting for it is not the run's time.
  const stamp = path.join(outDir, `run-${run}.start`);
  const noteStart = ["sh", "-c", 'echo "$(date +%s%3N) $(cut -d" " -f1 /proc/loadavg)" > "$0"; exec "$@"', stamp, "npx", ...vitest];
  const [cmd, cmdArgs] = lock ? ["flock", [lock, ...noteStart]] : [noteStart[0], noteStart.slice(1)];
  const r = spawnSync(cmd, cmdArgs, { stdio: "inherit" });
  const [startedMs, load] = fs.existsSync(stamp) ? fs.readFileSync(stamp, "utf8").trim().split(" ") : [String(Date.now()), "?"];
  const seconds = Math.round((Date.now() - Number(startedMs)) / 1000);
  let failed = [];
  let tests = 0;
  if (fs.existsSync(report)) {
    const json = JSON.parse(fs.readFileSync(report, "utf8"));
    for (const file of json.testResults) {
      const rel = path.relative(process.cwd(), file.name);
      if (file.endTime && file.startTime) fileSeconds.set(rel, [...(fileSeconds.get(rel) ?? []), (file.endTime - file.startTime) / 1000]);
      const failedTests = file.assertionResults.filter((t) => t.status === "failed").map((t) => `${rel} › ${t.fullName}`);
      tests += file.assertionResults.length;
      // A file that failed outside its tests (a hook, an import) counts as one failure of the file.
      if (file.status === "failed" && failedTests.length === 0) failedTests.push(`${rel} › (the file: ${(file.message ?? "").split("\n")[0]})`);
      failed.push(...failedTests);
    }
  } else {
    failed = [`(run ${run}: no report; vitest exited with ${r.status})`];
  }
  for (const name of failed) failures.set(name, (failures.get(name) ?? 0) + 1);
  summary.push({ run, seconds, load, tests, failed: failed.length, status: r.status });
  console.log(`\n── run ${run}/${runs}: ${failed.length ? `${failed.length} failed` : "passed"}, ${tests} tests, ${seconds} s (load at start ${load})\n`);
  if (run < runs) printTally(run);
}

process.exit(printTally(runs) ? 1 : 0);
