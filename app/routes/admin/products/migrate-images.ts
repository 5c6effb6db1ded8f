import { z } from "zod";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/http/index.server";
import { latestJobProgress, MigrationRequestError, startImageMigration } from "~/server/catalog/index.server";
import type { Route } from "./+types/migrate-images";

/** The Migrate Images tab's state: the newest migration, running or finished. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { job: await latestJobProgress(getDb(), "image-migration") };
}

const MigrateInput = z.object({ overwrite: z.union([z.boolean(), z.enum(["true", "false"])]).default(true) });

/** Image migration with {overwrite: true} (docs/rules/admin.md): starts the migration job on the server. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const type = request.headers.get("content-type") ?? "";
  const raw = type.includes("application/json")
    ? await request.json().catch(() => ({}))
    : Object.fromEntries(await request.formData());
  const input = MigrateInput.safeParse(raw);
  if (!input.success) return respond({ kind: "bad_input", message: "Invalid request" });
  try {
    const overwrite = input.data.overwrite === true || input.data.overwrite === "true";
    const job = await startImageMigration(getDb(), { overwrite, userId: admin.id });
    return { job };
  } catch (err) {
    if (err instanceof MigrationRequestError) return respond(err);
    throw err;
  }
}
