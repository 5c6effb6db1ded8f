import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Skeleton } from "~/components/ui/skeleton";
import { centsToInput, fieldErrors, ProductInput, EMPTY_PRODUCT_FORM, type ProductFormValues } from "~/lib/product-input";
import type { ProductEditorData, ProductForEdit } from "~/lib/catalog-view";
import { ProductFormFields } from "./product-form-fields";
import { ProductVariationsSection } from "./product-variations-section";
import { useAdminAction } from "./use-admin-action";

type Loaded = Extract<ProductEditorData, { notFound: false }>;

function toForm(p: ProductForEdit | null): ProductFormValues {
  if (!p) return EMPTY_PRODUCT_FORM;
  return {
    name: p.name,
    sku: p.sku,
    description: p.description,
    imageUrl: p.imageUrl,
    price: centsToInput(p.priceCents),
    originalPrice: centsToInput(p.originalPriceCents),
    unlimitedStock: p.unlimitedStock,
    stockQuantity: String(p.stockQuantity),
    weightGrams: p.weightGrams === null ? "" : String(p.weightGrams),
    lowStockThreshold: p.lowStockThreshold === null ? "" : String(p.lowStockThreshold),
    cost: centsToInput(p.costCents),
    category: p.category,
    active: p.active,
    featured: p.featured,
  };
}

/** The Edit Product dialog (docs/rules/admin.md); for "new" the same dialog, empty, creates a product. */
export function ProductDialog({ productId, onClose }: { productId: string; onClose: () => void }) {
  const editor = useFetcher<ProductEditorData>();
  // Bumped to start the form again from the server's latest version (after a conflict).
  const [generation, setGeneration] = useState(0);
  const isNew = productId === "new";

  useEffect(() => {
    editor.load(`/admin/products/${productId}/editor`);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [productId]);

  // After "Load latest version": the data that was stale, until fresh data replaces it.
  const [staleData, setStaleData] = useState<ProductEditorData | null>(null);
  useEffect(() => {
    if (staleData && editor.state === "idle" && editor.data !== staleData) {
      setStaleData(null);
      setGeneration((g) => g + 1);
    }
  }, [staleData, editor.state, editor.data]);

  const data = staleData ? undefined : editor.data;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[92vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{isNew ? "Add Product" : "Edit Product"}</DialogTitle>
          <DialogDescription>
            {isNew ? "Fill in the new product's details." : "Change the product's details, stock and variations."}
          </DialogDescription>
        </DialogHeader>
        {!data ? (
          <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading product">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} className="h-9 w-full" />
            ))}
          </div>
        ) : data.notFound ? (
          <div className="space-y-4">
            <p role="alert">This product no longer exists. Another admin may have deleted it.</p>
            <DialogFooter>
              <Button variant="outline" onClick={onClose}>
                Close
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <ProductEditor
            key={generation}
            data={data}
            isNew={isNew}
            onClose={onClose}
            onReload={() => {
              setStaleData(editor.data ?? null);
              editor.load(`/admin/products/${productId}/editor`);
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function ProductEditor({ data, isNew, onClose, onReload }: { data: Loaded; isNew: boolean; onClose: () => void; onReload: () => void }) {
  // Seeded once: revalidations while the dialog is open must not overwrite what is being typed.
  const [form, setForm] = useState<ProductFormValues>(() => toForm(data.product));
  const [version] = useState(() => data.product?.version);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const save = useAdminAction({
    action: "/admin/products",
    onSuccess: onClose,
    onFailure: (result) => {
      setErrors(result.errors ?? {});
      if (result.code === "stale") setStale(true);
    },
  });

  // The product's own category stays offered even if it is inactive or came from an import.
  const categoryNames = data.categories.map((c) => c.name);
  if (form.category && !categoryNames.includes(form.category)) categoryNames.unshift(form.category);

  const change = <K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = ProductInput.safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    save.submit(
      isNew
        ? { intent: "create", product: form }
        : { intent: "update", id: data.product!.id, product: { ...form, version } },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {stale && (
        <div role="alert" className="flex flex-col gap-2 rounded-md border border-warning bg-warning/10 p-3 text-sm sm:flex-row sm:items-center">
          <p className="flex-1">Someone else saved this product while you were editing it. Your changes were not saved.</p>
          <Button type="button" size="sm" variant="outline" onClick={onReload}>
            Load latest version
          </Button>
        </div>
      )}
      <ProductFormFields form={form} errors={errors} categories={categoryNames} onChange={change} lowStockDefault={data.lowStockDefault} />
      {data.product ? (
        <ProductVariationsSection productId={data.product.id} variations={data.variations} choices={data.choices} />
      ) : (
        <section aria-labelledby="pv-heading" className="space-y-1">
          <h3 id="pv-heading" className="font-semibold">
            Product Variations
          </h3>
          <p className="text-sm text-muted-foreground">Save the product first, then add its variations.</p>
        </section>
      )}
      <DialogFooter className="sticky bottom-0 -mx-6 -mb-6 border-t bg-background px-6 py-4">
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.busy}>
          {save.busy ? "Saving..." : "Save Changes"}
        </Button>
      </DialogFooter>
    </form>
  );
}
