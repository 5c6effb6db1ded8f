import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { CategoryInput } from "~/lib/product-input";
import type { AdminCategory } from "~/lib/catalog-view";
import { DeleteCategoryDialog } from "./delete-category-dialog";
import { InlineEdit } from "./inline-edit";
import { useAdminAction } from "./use-admin-action";

const ACTION = "/admin/products/categories";
/** Dates read like 'MMM d, yyyy' (docs/rules/admin.md, Categories tab). UTC, so the server and the browser print the same day. */
const created = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

export function CategoriesTab({ categories }: { categories: AdminCategory[] }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AdminCategory | null>(null);
  const add = useAdminAction({
    action: ACTION,
    onSuccess: () => {
      setName("");
      setDescription("");
    },
    onFailure: (r) => setError(r.errors?.name ?? null),
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = CategoryInput.safeParse({ name, description });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? "Category name is required";
      setError(message);
      toast.error(message);
      return;
    }
    setError(null);
    add.submit({ intent: "create", name, description });
  };

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="h-fit">
        <CardHeader>
          <CardTitle>
            <h2>Add Category</h2>
          </CardTitle>
          <CardDescription>Categories group products in the shop.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} noValidate className="space-y-4">
            <div className="space-y-2">
              <Label htmlFor="cat-name">Name</Label>
              <Input
                id="cat-name"
                value={name}
                maxLength={100}
                required
                placeholder="e.g. Bedding"
                onChange={(e) => {
                  setName(e.target.value);
                  setError(null);
                }}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? "cat-name-error" : undefined}
              />
              {error && (
                <p id="cat-name-error" className="text-sm text-destructive">
                  {error}
                </p>
              )}
            </div>
            <div className="space-y-2">
              <Label htmlFor="cat-description">Description</Label>
              <Input id="cat-description" value={description} maxLength={500} onChange={(e) => setDescription(e.target.value)} />
            </div>
            <Button type="submit" disabled={add.busy} className="w-full">
              <Plus aria-hidden="true" /> Add Category
            </Button>
          </form>
        </CardContent>
      </Card>
      <Card className="lg:col-span-2">
        <CardHeader>
          <CardTitle>
            <h2>Categories ({categories.length})</h2>
          </CardTitle>
        </CardHeader>
        <CardContent className="px-0 sm:px-6">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Description</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Created</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {categories.map((c) => (
                <CategoryRow key={c.id} category={c} onDelete={() => setDeleting(c)} />
              ))}
              {categories.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5} className="py-10 text-center text-muted-foreground">
                    No categories yet. Add the first one.
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
      <DeleteCategoryDialog category={deleting} others={categories} action={ACTION} onClose={() => setDeleting(null)} />
    </div>
  );
}

function CategoryRow({ category, onDelete }: { category: AdminCategory; onDelete: () => void }) {
  const rename = useAdminAction({ action: ACTION });
  const status = useAdminAction({ action: ACTION });
  const active = typeof status.pending?.active === "boolean" ? status.pending.active : category.active;
  return (
    <TableRow>
      <TableCell className="font-medium">
        <InlineEdit
          value={category.name}
          label={`category ${category.name}`}
          emptyMessage="Category name is required"
          busy={rename.busy}
          onSave={(next) => rename.submit({ intent: "rename", id: category.id, name: next })}
        />
      </TableCell>
      <TableCell className="max-w-64 whitespace-normal text-muted-foreground">{category.description || "-"}</TableCell>
      <TableCell>
        <Badge variant={active ? "success" : "outline"}>{active ? "Active" : "Inactive"}</Badge>
      </TableCell>
      <TableCell className="whitespace-nowrap">{created.format(new Date(category.createdAt))}</TableCell>
      <TableCell>
        <div className="flex items-center justify-end gap-1">
          <Button
            variant="outline"
            size="sm"
            disabled={status.busy}
            onClick={() => status.submit({ intent: "set-active", id: category.id, active: !active })}
            aria-label={`${active ? "Deactivate" : "Activate"} ${category.name}`}
          >
            {active ? "Deactivate" : "Activate"}
          </Button>
          <Button variant="ghost" size="icon" className="size-8 text-destructive" onClick={onDelete} aria-label={`Delete ${category.name}`}>
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}
