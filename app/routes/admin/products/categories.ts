import { redirect } from "react-router";
import { runAdminAction, unknownIntent } from "~/routes/_edge/admin-action.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { createCategory, deleteCategory, idFrom, readActionBody, renameCategory, setCategoryActive } from "~/server/catalog/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/categories";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return redirect("/admin/products?tab=categories");
}

/** The Categories tab's writes; the tab reads its list through /admin/products?tab=categories. */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const body = await readActionBody(request);
  const db = getDb();
  switch (body.intent) {
    case "create":
      return runAdminAction("Failed to add category", async () => {
        await createCategory(db, { name: body.name, description: body.description ?? "" });
        return { message: "Category added successfully" };
      });
    case "rename":
      return runAdminAction("Failed to update category", async () => {
        await renameCategory(db, idFrom(body.id, "Category"), body.name ?? "");
        return { message: "Category updated successfully" };
      });
    case "set-active":
      return runAdminAction("Failed to update category", async () => {
        await setCategoryActive(db, idFrom(body.id, "Category"), body.active === true || body.active === "true");
        return { message: "Category updated successfully" };
      });
    case "delete":
      return runAdminAction("Failed to delete category", async () => {
        const moveTo = body.moveProductsTo ? idFrom(body.moveProductsTo, "Category") : undefined;
        const { moved } = await deleteCategory(db, idFrom(body.id, "Category"), { moveProductsTo: moveTo });
        return { message: "Category deleted successfully", moved };
      });
    default:
      return unknownIntent();
  }
}
