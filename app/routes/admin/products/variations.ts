import { redirect } from "react-router";
import { runAdminAction, unknownIntent } from "~/routes/_edge/admin-action.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { addVariationValue, createVariationType, deleteVariationType, deleteVariationValue, idFrom, readActionBody, renameVariationType, renameVariationValue } from "~/server/catalog/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/variations";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect("/admin/products?tab=variations");
}

/** The Variations tab's writes (types and their values). */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const body = await readActionBody(request);
  const db = getDb();
  switch (body.intent) {
    case "create-type":
      return runAdminAction("Failed to create variation type", async () => {
        await createVariationType(db, body.name ?? "");
        return { message: "Variation type created successfully" };
      });
    case "rename-type":
      return runAdminAction("Failed to update variation type", async () => {
        await renameVariationType(db, idFrom(body.id, "Variation type"), body.name ?? "");
        return { message: "Variation type updated successfully" };
      });
    case "delete-type":
      return runAdminAction("Failed to delete variation type", async () => {
        await deleteVariationType(db, idFrom(body.id, "Variation type"));
        return { message: "Variation type deleted successfully" };
      });
    case "add-value":
      return runAdminAction("Failed to add value", async () => {
        await addVariationValue(db, idFrom(body.typeId, "Variation type"), body.value ?? "");
        return { message: "Value added successfully" };
      });
    case "rename-value":
      return runAdminAction("Failed to update value", async () => {
        await renameVariationValue(db, idFrom(body.id, "Value"), body.value ?? "");
        return { message: "Value updated successfully" };
      });
    case "delete-value":
      return runAdminAction("Failed to delete value", async () => {
        await deleteVariationValue(db, idFrom(body.id, "Value"));
        return { message: "Value deleted successfully" };
      });
    default:
      return unknownIntent();
  }
}
