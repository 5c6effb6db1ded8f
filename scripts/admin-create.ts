// npm run admin:create -- --email E --password P [--name N]
// Creates an admin, or promotes the existing account with that email, on whichever database the
// environment selects (DATABASE_URL, or the embedded one under DATA_DIR, started if needed).
import { parseArgs } from "node:util";
import { AdminInput, createOrPromoteAdmin } from "../app/server/people/accounts/admin.server";
import { closeDatabase, openDatabase } from "../app/server/platform/db/client.server";
import { runMigrations } from "../app/server/platform/db/migrate.server";

const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
});
const parsed = AdminInput.safeParse(values);
if (!parsed.success) {
  const issue = parsed.error.issues[0]!;
  console.error(`✖ --${String(issue.path[0] ?? "email")} ${issue.message}`);
  console.error("Usage: npm run admin:create -- --email you@example.com --password 'at least 8 characters'");
  process.exit(1);
}
try {
  const { db, url } = await openDatabase({ ownEmbedded: false });
  await runMigrations(url);
  const result = await createOrPromoteAdmin(db, parsed.data);
  console.log(
    result.created
      ? `✔ Created admin ${result.email}. Sign in at /auth.`
      : `✔ ${result.email} is now an admin (its password was set to the one given).`,
  );
} catch (err) {
  console.error(`✖ ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
