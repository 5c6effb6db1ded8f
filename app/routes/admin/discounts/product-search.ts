import { requireAdmin } from "~/routes/_edge/guards.server";
import { getDb } from "~/server/platform/http/index.server";
import { searchDiscountProducts } from "~/server/commerce/index.server";
import type { Route } from "./+types/product-search";

/** GET /admin/discounts/products?q=: at most 20 products by name or SKU, for the editor's product picker. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const q = new URL(request.url).searchParams.get("q") ?? "";
  return { products: await searchDiscountProducts(getDb(), q) };
}
