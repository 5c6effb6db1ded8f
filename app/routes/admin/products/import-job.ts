import { redirect } from "react-router";
import { respond } from "~/routes/_edge/errors.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/index.server";
import { confirmImport, discardImport, ImportRequestError } from "~/server/catalog/index.server";
import type { Route } from "./+types/import-job";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect("/admin/products?tab=import");
}

/** intent=confirm starts the dry-run import; intent=discard throws the upload away. */
export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "confirm") return { job: await confirmImport(getDb(), params.jobId) };
    if (intent === "discard") {
      await discardImport(getDb(), params.jobId);
      return { job: null };
    }
    return respond({ kind: "bad_input", message: "Unknown action" });
  } catch (err) {
    if (err instanceof ImportRequestError) return respond(err);
    throw err;
  }
}
