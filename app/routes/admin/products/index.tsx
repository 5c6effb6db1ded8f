import { useEffect } from "react";
import { useLoaderData, useLocation, useNavigate, useNavigation, useSearchParams } from "react-router";
import { toast } from "sonner";
import { CategoriesTab } from "~/components/admin/categories-tab";
import { ImportProductsTab } from "~/components/admin/import-products-tab";
import { MigrateImagesTab } from "~/components/admin/migrate-images-tab";
import { ProductsTab } from "~/components/admin/products-tab";
import { TabSkeleton } from "~/components/admin/tab-skeleton";
import { VariationsTab } from "~/components/admin/variations-tab";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { ADMIN_TABS, tabFromSearch, type AdminTab } from "~/components/admin/admin-tabs";
import { runAdminAction, unknownIntent } from "~/routes/_edge/admin-action.server";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { bulkUpdateProducts, createProduct, deleteProduct, idFrom, listActiveCategories, listAdminProducts, listCategories, listVariationTypes, parseAdminProductQuery, readActionBody, setProductActive, updateProduct, VariationValuesUnavailable } from "~/server/catalog/index.server";
import { getDb, logger } from "~/server/platform/http/index.server";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => [
  { title: "Product Management — Admin" },
  { name: "description", content: "Manage the shop's products, categories, variations, imports and images." },
];

/** A failed read shows the specified toast and an empty tab instead of an error page. */
async function attempt<T>(what: string | ((err: unknown) => string), fn: () => Promise<T>): Promise<T | { failed: string }> {
  try {
    return await fn();
  } catch (err) {
    const message = typeof what === "string" ? what : what(err);
    logger.error({ err }, message);
    return { failed: message };
  }
}

const variationsFailure = (err: unknown) =>
  err instanceof VariationValuesUnavailable ? "Failed to fetch variation values" : "Failed to fetch variation types";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const tab = tabFromSearch(url.search);
  const db = getDb();
  const query = parseAdminProductQuery(url);
  const [products, activeCategories, categories, variationTypes] = await Promise.all([
    tab === "products" ? attempt("Failed to fetch products", () => listAdminProducts(db, query)) : null,
    tab === "products" ? attempt("Failed to fetch categories", () => listActiveCategories(db)) : null,
    tab === "categories" ? attempt("Failed to fetch categories", () => listCategories(db)) : null,
    tab === "variations" ? attempt(variationsFailure, () => listVariationTypes(db)) : null,
  ]);
  return { tab, query, products, activeCategories, categories, variationTypes };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const body = await readActionBody(request);
  const db = getDb();
  switch (body.intent) {
    case "create":
      return runAdminAction("Failed to create product", async () => {
        const { id } = await createProduct(db, body.product);
        return { message: "Product created successfully", id };
      });
    case "update":
      return runAdminAction("Failed to update product", async () => {
        const { version } = await updateProduct(db, idFrom(body.id, "Product"), body.product);
        return { message: "Product updated successfully", version };
      });
    case "set-active":
      return runAdminAction("Failed to update product status", async () => {
        const active = body.active === true || body.active === "true";
        await setProductActive(db, idFrom(body.id, "Product"), active);
        return { message: active ? "Product activated successfully" : "Product deactivated successfully" };
      });
    case "delete":
      return runAdminAction("Failed to delete product", async () => {
        await deleteProduct(db, idFrom(body.id, "Product"));
        return { message: "Product deleted successfully" };
      });
    case "bulk-update":
      return runAdminAction("Failed to update products", async () => {
        const { updated } = await bulkUpdateProducts(db, body.bulk);
        return { message: `${updated} ${updated === 1 ? "product" : "products"} updated successfully`, updated };
      });
    default:
      return unknownIntent();
  }
}

function failure(value: unknown): string | null {
  return value && typeof value === "object" && "failed" in value ? (value as { failed: string }).failed : null;
}

function ok<T>(value: T | { failed: string } | null): T | null {
  return value && !failure(value) ? (value as T) : null;
}

export default function ProductManagement() {
  const data = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  const navigate = useNavigate();

  // Switch tabs at once; the tab shows a skeleton until its data arrives.
  const pending = navigation.location?.pathname === location.pathname ? tabFromSearch(navigation.location.search) : null;
  const shown: AdminTab = pending ?? tabFromSearch(location.search);
  const loaded = pending && pending !== data.tab ? null : data.tab;

  useEffect(() => {
    for (const value of [data.products, data.activeCategories, data.categories, data.variationTypes]) {
      const what = failure(value);
      if (what) toast.error(what);
    }
  }, [data]);

  const selectTab = (value: string) => {
    const next = new URLSearchParams();
    if (value !== "products") next.set("tab", value);
    navigate({ search: next.toString() ? `?${next}` : "" }, { preventScrollReset: true });
  };

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6 p-4 md:p-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Product Management</h1>
        <p className="text-muted-foreground">Products, categories, variations, imports and images.</p>
      </div>
      <Tabs value={shown} onValueChange={selectTab}>
        <TabsList className="h-auto w-full flex-wrap justify-start md:w-fit">
          {ADMIN_TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value} className="flex-none">
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="products" className="mt-4">
          {loaded === "products" ? (
            <ProductsTab
              page={ok(data.products)}
              query={data.query}
              categories={ok(data.activeCategories) ?? []}
              openNew={params.get("new") === "1"}
            />
          ) : (
            <TabSkeleton />
          )}
        </TabsContent>
        <TabsContent value="categories" className="mt-4">
          {loaded === "categories" ? <CategoriesTab categories={ok(data.categories) ?? []} /> : <TabSkeleton />}
        </TabsContent>
        <TabsContent value="variations" className="mt-4">
          {loaded === "variations" ? <VariationsTab types={ok(data.variationTypes) ?? []} /> : <TabSkeleton />}
        </TabsContent>
        <TabsContent value="import" className="mt-4">
          <ImportProductsTab />
        </TabsContent>
        <TabsContent value="migrate" className="mt-4">
          <MigrateImagesTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
