import { useState } from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import type { AdminCategory } from "~/lib/catalog-view";
import { useAdminAction } from "./use-admin-action";

/**
 * Delete after a confirmation. When products still use the category, the server says how many and
 * the dialog asks where to move them before deleting (no product is left without a category).
 * One dialog for the whole table, so its answer (and toast) outlives the deleted row.
 */
export function DeleteCategoryDialog({
  category,
  others,
  action,
  onClose,
}: {
  category: AdminCategory | null;
  others: AdminCategory[];
  action: string;
  onClose: () => void;
}) {
  const [inUse, setInUse] = useState<{ count: number; message: string } | null>(null);
  const [moveTo, setMoveTo] = useState("");
  const remove = useAdminAction({
    action,
    onSuccess: () => close(),
    toastFailure: (r) => r.code !== "category_in_use",
    onFailure: (r) => {
      if (r.code === "category_in_use") setInUse({ count: Number(r.productCount ?? 0), message: r.message });
    },
  });
  function close() {
    setInUse(null);
    setMoveTo("");
    onClose();
  }

  return (
    <AlertDialog open={category !== null} onOpenChange={(o) => !o && close()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete Category</AlertDialogTitle>
          <AlertDialogDescription>
            Are you sure you want to delete "{category?.name}"? This action cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {inUse && category && (
          <div className="space-y-2" role="alert">
            <p className="text-sm font-medium">{inUse.message}</p>
            <Label htmlFor="move-products-to">Move its products to</Label>
            <NativeSelect id="move-products-to" wrapperClassName="w-full" value={moveTo} onChange={(e) => setMoveTo(e.target.value)}>
              <NativeSelectOption value="">Choose a category</NativeSelectOption>
              {others
                .filter((c) => c.id !== category.id)
                .map((c) => (
                  <NativeSelectOption key={c.id} value={c.id}>
                    {c.name}
                  </NativeSelectOption>
                ))}
            </NativeSelect>
          </div>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={remove.busy || (inUse !== null && !moveTo)}
            onClick={() =>
              category && remove.submit({ intent: "delete", id: category.id, ...(inUse ? { moveProductsTo: moveTo } : {}) })
            }
          >
            {inUse ? "Move Products and Delete" : "Delete"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
