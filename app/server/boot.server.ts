import { sql } from "drizzle-orm";
import { stopVisitCounting } from "./insight/index.server";
import { type Database, type JobTasks, cdnJobs, cdnPurgerFromEnv, closeDatabase, getAuthSecret, getEnv, getRootLogger, openDatabase, changeLogJobs, runMigrations, startCdnPurgeWatch, startJobRunner, startPurgeCursor, mailJobs, queueJobsForWaitingMails } from "./platform/index.server";
import { seedBase, seedDemo } from "./seed/seed.server";
import { commerceJobs, queueCommerceStartJobs } from "./commerce/index.server";
import { personalDataJobs } from "./people/index.server";

let stopPeriodicTasks: (() => Promise<void>) | undefined;

/**
 * Jobs one server's worker runs at once: a mail stuck on a slow relay must not hold back a paid
 * order's follow-ups. Its pool is this plus two (LISTEN, bookkeeping); see the doctor's count.
 */
export const JOB_CONCURRENCY = 3;

/** Every area's tasks and cron lines, as one server's worker runs them (tests run them too). */
export function shopJobs(db: Database, opts: Parameters<typeof commerceJobs>[1] = {}): JobTasks[] {
  return [changeLogJobs(db), cdnJobs(db, cdnPurgerFromEnv(getEnv())), mailJobs(db), commerceJobs(db, opts), personalDataJobs(db)];
}

/** Everything the shop does before it accepts a request. Any failure is one clear line. */
export async function boot() {
  const env = getEnv();
  const log = getRootLogger();
  getAuthSecret();
  // A CDN purge that names no service stops the start here, before the database (docs/decisions/0037).
  const cdnPurger = cdnPurgerFromEnv(env);
  const { db, directUrl, embedded } = await openDatabase({ ownEmbedded: true, log: (m) => console.log(`  ${m}`) });
  // Migrations hold a session-level lock: never through a transaction pooler.
  await runMigrations(directUrl);
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
  // The job queue's worker (docs/decisions/0028): jobs as they commit, and the areas' cron lines.
  const jobs = await startJobRunner(db, shopJobs(db), { concurrency: JOB_CONCURRENCY, directUrl });
  await queueJobsForWaitingMails(db);
  await queueCommerceStartJobs(db);
  // With a CDN to purge, this server looks at the change log once a second and adds the purge job
  // when something changed (one job for the cluster, under its job key).
  let stopCdnWatch = () => {};
  if (cdnPurger) {
    await startPurgeCursor(db);
    stopCdnWatch = startCdnPurgeWatch(db);
  }
  stopPeriodicTasks = async () => {
    stopCdnWatch();
    // Waits for a running job and writes its end, while the database is still open.
    await jobs.stop();
  };
  log.info({ database: embedded ? "embedded" : "external" }, "shop booted");
}

export async function shutdown() {
  // Lets this server's running jobs finish and writes their end; the other servers take the rest.
  await stopPeriodicTasks?.();
  stopPeriodicTasks = undefined;
  // The last visit counts, while the database is still open.
  await stopVisitCounting();
  await closeDatabase();
}
