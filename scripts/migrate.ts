// npm run db:migrate: applies the committed migrations (the shop also does this at start).
import { closeDatabase, openDatabase } from "../app/server/platform/db/client.server";
import { runMigrations } from "../app/server/platform/db/migrate.server";

try {
  const { url } = await openDatabase({ ownEmbedded: false });
  await runMigrations(url);
  console.log("✔ Migrations applied.");
} catch (err) {
  console.error(`✖ ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
