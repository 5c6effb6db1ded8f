import { migrate } from "drizzle-orm/node-postgres/migrator";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { migrationsFolder } from "./client.server";

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
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}
