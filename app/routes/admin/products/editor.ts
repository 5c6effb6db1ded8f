import { runAdminAction, unknownIntent } from "~/routes/_edge/admin-action.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { attachVariation, getLowStockDefault, getProductForEdit, idFrom, listActiveCategories, listAttachableVariations, listProductVariations, readActionBody, removeProductVariation, updateProductVariation } from "~/server/catalog/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/editor";
import type { ProductEditorData } from "~/lib/catalog-view";
import { isUuid } from "~/lib/uuid";

/** What the Edit Product dialog needs: the product ("new" for an empty one), its variations and the choices. */
export async function loader({ request, params }: Route.LoaderArgs): Promise<ProductEditorData> {
  await requireAdmin(request);
  const db = getDb();
  const isNew = params.productId === "new";
  const id = isNew ? null : isUuid(params.productId) ? params.productId : undefined;
  // Answered, not thrown: a product deleted by another admin must not replace the page with an error.
  if (id === undefined) return { notFound: true as const };
  const [product, variations, categories, choices, lowStockDefault] = await Promise.all([
    id ? getProductForEdit(db, id) : null,
    id ? listProductVariations(db, id) : [],
    listActiveCategories(db),
    listAttachableVariations(db),
    getLowStockDefault(db),
  ]);
  if (id && !product) return { notFound: true as const };
  return { notFound: false as const, product, variations, categories, choices, lowStockDefault };
}

/** The 'Product Variations' section: attach a value, change one field, remove (soft). */
export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const body = await readActionBody(request);
  const db = getDb();
  switch (body.intent) {
    case "attach-variation":
      return runAdminAction("Failed to add variation", async () => {
        const productId = idFrom(params.productId, "Product");
        await attachVariation(db, productId, idFrom(body.variationValueId, "Variation value"));
        return { message: "Variation added successfully" };
      });
    case "update-variation":
      return runAdminAction("Failed to update variation", async () => {
        const productId = idFrom(params.productId, "Product");
        await updateProductVariation(db, productId, idFrom(body.id, "Variation"), { field: body.field, value: body.value });
        return {};
      });
    case "remove-variation":
      return runAdminAction("Failed to remove variation", async () => {
        await removeProductVariation(db, idFrom(params.productId, "Product"), idFrom(body.id, "Variation"));
        return { message: "Variation removed successfully" };
      });
    default:
      return unknownIntent();
  }
}
