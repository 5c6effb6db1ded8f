// `npm test`: the layer rules, unit + integration tests, then a production build, then the
// browser tests.
// Every stage runs even if an earlier one failed, so one run reports everything; the exit code
// is non-zero if any stage failed.
import { spawnSync } from "node:child_process";

const stages = [
  // Which folder may import which (.dependency-cruiser.cjs, docs/decisions/0014); always the whole tree.
  ["Layer rules", "npm", ["run", "--silent", "check:layers"]],
  ["Unit and integration tests", "npx", ["vitest", "run"]],
  ["Production build", "npx", ["react-router", "build"]],
  // With the budgets: first-load JavaScript in bytes and Lighthouse's content audits, which no
  // machine load changes. Performance scores are timings: `npm run bench` measures them.
  ["Browser tests", "npx", ["vitest", "run", "--config", "vitest.e2e.config.ts"]],
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
