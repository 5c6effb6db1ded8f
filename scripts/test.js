// `npm test`: unit + integration tests (the layer rules among them: tests/integration/layer-rules
// checks the real tree with the very command `npm run check:layers` runs), then a production
// build, then the browser tests.
// Every stage runs even if an earlier one failed, so one run reports everything; the exit code
// is non-zero if any stage failed.
//
// The production build runs while the unit and integration tests do: those tests spend much of
// their time waiting for PostgreSQL, and the build writes only build/, which only the browser
// tests read. Its output is held back and printed, under its own heading, when the tests are
// done (docs/decisions/0038).
import { spawn } from "node:child_process";

const extra = process.argv.slice(2);
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

/** Runs a stage; `quiet` keeps its output until it is printed by `show`. */
function run(name, cmd, args, { quiet = false } = {}) {
  const started = Date.now();
  const child = spawn(cmd, args, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
  let output = "";
  if (quiet) {
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
  }
  const done = new Promise((resolve) => {
    child.on("error", (err) => resolve({ name, ok: false, output: `${output}${err.message}\n`, took: seconds(started) }));
    child.on("close", (code) => resolve({ name, ok: code === 0, output, took: seconds(started) }));
  });
  return done;
}

function show(result) {
  console.log(`\n━━ ${result.name} ━━`);
  if (result.output) process.stdout.write(result.output);
  console.log(`(${result.name}: ${result.ok ? "passed" : "failed"} in ${result.took})`);
}

const started = Date.now();
const failed = [];

const build = run("Production build", "npx", ["react-router", "build"], { quiet: true });
console.log("\n━━ Unit and integration tests ━━ (the production build runs meanwhile)");
// Extra arguments (test filters, reporter options) are for the test runners only.
const unit = await run("Unit and integration tests", "npx", ["vitest", "run", ...extra]);
console.log(`(Unit and integration tests: ${unit.ok ? "passed" : "failed"} in ${unit.took})`);
if (!unit.ok) failed.push(unit.name);
const built = await build;
show(built);
if (!built.ok) failed.push(built.name);

if (failed.includes("Production build")) {
  console.error("The build failed, so the browser tests cannot run.");
} else {
  // With the budgets: first-load JavaScript in bytes and Lighthouse's content audits, which no
  // machine load changes. Performance scores are timings: `npm run bench` measures them.
  console.log("\n━━ Browser tests ━━");
  const e2e = await run("Browser tests", "npx", ["vitest", "run", "--config", "vitest.e2e.config.ts", ...extra]);
  console.log(`(Browser tests: ${e2e.ok ? "passed" : "failed"} in ${e2e.took})`);
  if (!e2e.ok) failed.push(e2e.name);
}

console.log(`\nnpm test took ${seconds(started)}`);
if (failed.length) {
  console.error(`\n✖ Failed: ${failed.join(", ")}`);
  process.exit(1);
}
console.log("\n✔ All tests passed");
