// `npm test`: the layer rules, unit + integration tests, then a production build, then the
// browser tests.
// Every stage runs even if an earlier one failed, so one run reports everything; the exit code
// is non-zero if any stage failed.
import { spawnSync } from "node:child_process";

const BUDGETS = "tests/e2e/budgets.test.ts";

const stages = [
  // Which folder may import which (.dependency-cruiser.cjs, docs/decisions/0014); always the whole tree.
  ["Layer rules", "npm", ["run", "--silent", "check:layers"]],
  ["Unit and integration tests", "npx", ["vitest", "run"]],
  ["Production build", "npx", ["react-router", "build"]],
  ["Browser tests", "npx", ["vitest", "run", "--config", "vitest.e2e.config.ts", "--exclude", BUDGETS]],
  // Lighthouse times the page's main-thread work: with another test file's shop and browser
  // busy on the second core, Total Blocking Time doubles. The budgets run alone.
  ["Performance budgets (alone)", "npx", ["vitest", "run", "--config", "vitest.e2e.config.ts", BUDGETS]],
];

const extra = process.argv.slice(2);
// Extra arguments (test filters, reporter options) are for the test runners only.
const takesExtra = (name) => name !== "Layer rules" && name !== "Production build";
let failed = [];
for (const [name, cmd, args] of stages) {
  console.log(`\n━━ ${name} ━━`);
  const r = spawnSync(cmd, takesExtra(name) ? [...args, ...extra] : args, { stdio: "inherit" });
  if (r.status !== 0) {
    failed.push(name);
    if (name === "Production build") {
      console.error("The build failed, so the browser tests cannot run.");
      break;
    }
  }
}
if (failed.length) {
  console.error(`\n✖ Failed: ${failed.join(", ")}`);
  process.exit(1);
}
console.log("\n✔ All tests passed");
