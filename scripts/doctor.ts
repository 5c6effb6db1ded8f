// npm run doctor: checks the configuration this environment gives the shop (database reachable
// and migrated, storage writable, SMTP answering, Stripe's key and webhook secret) and says what
// is wrong in plain words. Exit code 1 when anything failed. Run it with the shop's variables,
// as the shop's user (e.g. `sudo -u shop --preserve-env npm run doctor`).
import { formatReport, runDoctor } from "../app/server/platform/ops/doctor.server";

console.log("\n  Linen & Loft doctor: checking this environment's configuration…");
try {
  const results = await runDoctor();
  console.log(formatReport(results));
  process.exitCode = results.some((r) => r.status === "fail") ? 1 : 0;
} catch (err) {
  console.error(`\n✖ The doctor itself failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
}
// Keep-alive sockets (Stripe's, the S3 client's) must not hold the answer back.
process.exit();
