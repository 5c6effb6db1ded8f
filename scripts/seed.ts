// npm run db:seed: the demo catalogue, blog, settings and admin, on any database (once).
import { closeDatabase, openDatabase } from "../app/server/platform/db/client.server";
import { runMigrations } from "../app/server/platform/db/migrate.server";
import { seedDemo } from "../app/server/seed/seed.server";

try {
  const { db, url } = await openDatabase({ ownEmbedded: false });
  await runMigrations(url);
  const result = await seedDemo(db);
  if (result.seeded) {
    console.log(`✔ Demo data created. Admin sign-in (shown only this once): ${result.admin.email} / ${result.admin.password}`);
  } else {
    console.log("The demo data is already there; nothing changed.");
  }
} catch (err) {
  console.error(`✖ ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
