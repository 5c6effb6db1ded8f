import { sql } from "drizzle-orm";
import { stopVisitCounting } from "./insight/index.server";
import { closeDatabase, getAuthSecret, getEnv, getRootLogger, openDatabase, releaseClusterTasks, changeLogJobs, runMigrations, startJobRunner, mailJobs, queueJobsForWaitingMails, warmUpMailTemplates } from "./platform/index.server";
import { seedBase, seedDemo } from "./seed/seed.server";
import { commerceJobs, startSettlementWorkers } from "./commerce/index.server";

let stopPeriodicTasks: (() => Promise<void>) | undefined;

/** Everything the shop does before it accepts a request. Any failure is one clear line. */
export async function boot() {
  const env = getEnv();
  const log = getRootLogger();
  getAuthSecret();
  const { db, url, embedded } = await openDatabase({ ownEmbedded: true, log: (m) => console.log(`  ${m}`) });
  await runMigrations(url);
  const seedDemoData = env.SEED_DEMO === "true" || (env.SEED_DEMO === "auto" && Boolean(embedded));
  if (seedDemoData) {
    const result = await seedDemo(db);
    if (result.seeded) {
      // Flush the seed now, so the first shutdown's checkpoint has little left to write.
      await db.execute(sql`checkpoint`).catch(() => {});
      const lines = [
        "Demo shop created. Admin sign-in (shown only this once):",
        `  email:    ${result.admin.email}`,
        `  password: ${result.admin.password}`,
        "Sign in at /auth, then open /admin.",
      ];
      const width = Math.max(...lines.map((l) => l.length)) + 2;
      console.log(
        ["", `  ┌${"─".repeat(width)}┐`, ...lines.map((l) => `  │ ${l.padEnd(width - 1)}│`), `  └${"─".repeat(width)}┘`, ""].join("\n"),
      );
    }
  } else {
    await seedBase(db);
  }
  // Periodic tasks every few seconds: each runs on one server of the cluster at a time (docs/decisions/0017).
  const stopWorkers = startSettlementWorkers(db);
  warmUpMailTemplates();
  // The job queue's worker (docs/decisions/0028): jobs as they commit, and the areas' cron lines.
  const jobs = await startJobRunner(db, [changeLogJobs(db), mailJobs(db), commerceJobs(db)]);
  await queueJobsForWaitingMails(db);
  stopPeriodicTasks = async () => {
    stopWorkers();
    // Waits for a running job and writes its end, while the database is still open.
    await jobs.stop();
    await releaseClusterTasks(db);
  };
  log.info({ database: embedded ? "embedded" : "external" }, "shop booted");
}

export async function shutdown() {
  // Hands this server's periodic tasks to the others at once, rather than when its connection drops.
  await stopPeriodicTasks?.();
  stopPeriodicTasks = undefined;
  // The last visit counts, while the database is still open.
  await stopVisitCounting();
  await closeDatabase();
}
