import { migrate } from "drizzle-orm/node-postgres/migrator";
import { drizzle } from "drizzle-orm/node-postgres";
import { Logger, runMigrations as runJobQueueMigrations } from "graphile-worker";
import pg from "pg";
import { migrationsFolder } from "./client.server";

/** The job queue's migration prints nothing: a fresh schema is the normal case. */
const quietLogger = new Logger(() => () => {});

/** Held while migrating; a restore (app/server/platform/backup) holds it too. */
export const MIGRATION_LOCK = 7_242_001;

/** Applies the committed migrations. An advisory lock keeps two starting servers from racing. */
export async function runMigrations(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("set client_min_messages to warning");
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
    // The job queue's own schema (graphile_worker), under the same lock (docs/decisions/0028).
    await runJobQueueMigrations({ connectionString: url, logger: quietLogger });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}
