// npm run db:reset: drops every table of the shop's database and applies the migrations again.
// On the embedded database the demo is seeded again at the next start. Asks no question: it is
// meant for development, so it refuses to run with NODE_ENV=production and DATABASE_URL set.
import { sql } from "drizzle-orm";
import { closeDatabase, openDatabase } from "../app/server/platform/db/client.server";
import { runMigrations } from "../app/server/platform/db/migrate.server";

if (process.env.NODE_ENV === "production" && process.env.DATABASE_URL) {
  console.error("✖ Refusing to reset a production database (NODE_ENV=production with DATABASE_URL).");
  process.exit(1);
}
try {
  const { db, url } = await openDatabase({ ownEmbedded: false });
  await db.execute(sql`drop schema if exists public cascade`);
  await db.execute(sql`drop schema if exists drizzle cascade`);
  await db.execute(sql`drop schema if exists graphile_worker cascade`);
  await db.execute(sql`create schema public`);
  await runMigrations(url);
  console.log("✔ Database reset: empty, migrated. The demo is seeded at the next `npm start` (embedded) or with `npm run db:seed`.");
} catch (err) {
  console.error(`✖ ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
