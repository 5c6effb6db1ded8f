import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { VariationTypeName } from "~/lib/product-input";
import type { AdminVariationType } from "~/lib/catalog-view";
import { ConfirmDelete } from "./confirm-delete";
import { InlineEdit } from "./inline-edit";
import { useAdminAction } from "./use-admin-action";
import { VariationValuesPanel } from "./variation-values-panel";

export const VARIATIONS_ACTION = "/admin/products/variations";

/** The Variations tab: two subtabs, Variation Types and Manage Values (docs/rules/admin.md). */
export function VariationsTab({ types }: { types: AdminVariationType[] }) {
  return (
    <Tabs defaultValue="types">
      <TabsList>
        <TabsTrigger value="types">Variation Types</TabsTrigger>
        <TabsTrigger value="values">Manage Values</TabsTrigger>
      </TabsList>
      <TabsContent value="types" className="mt-4">
        <VariationTypesPanel types={types} />
      </TabsContent>
      <TabsContent value="values" className="mt-4">
        <VariationValuesPanel types={types} />
      </TabsContent>
    </Tabs>
  );
}

function VariationTypesPanel({ types }: { types: AdminVariationType[] }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  // Here, not in the item: the item is gone by the time the answer (and its toast) arrives.
  const remove = useAdminAction({ action: VARIATIONS_ACTION });
  const create = useAdminAction({
    action: VARIATIONS_ACTION,
    onSuccess: () => setName(""),
    onFailure: (r) => setError(r.errors?.name ?? null),
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = VariationTypeName.safeParse(name);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? "Please enter a variation type name";
      setError(message);
      toast.error(message);
      return;
    }
    setError(null);
    create.submit({ intent: "create-type", name: parsed.data });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Variation Types ({types.length})</h2>
        </CardTitle>
        <CardDescription>Kinds of choice a product can offer, such as size or colour.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <form onSubmit={submit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <div className="flex-1 space-y-1">
            <Label htmlFor="vt-name" className="sr-only">
              Variation type name
            </Label>
            <Input
              id="vt-name"
              placeholder="e.g. Size, Color, Material"
              value={name}
              maxLength={60}
              onChange={(e) => {
                setName(e.target.value);
                setError(null);
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "vt-name-error" : undefined}
            />
            {error && (
              <p id="vt-name-error" className="text-sm text-destructive">
                {error}
              </p>
            )}
          </div>
          <Button type="submit" disabled={create.busy}>
            <Plus aria-hidden="true" /> Add Type
          </Button>
        </form>
        {types.length === 0 ? (
          <p className="py-6 text-center text-muted-foreground">No variation types found</p>
        ) : (
          <ul className="divide-y rounded-md border">
            {types.map((t) => (
              <VariationTypeItem
                key={t.id}
                type={t}
                deleting={remove.pending?.id === t.id}
                onDelete={() => remove.submit({ intent: "delete-type", id: t.id })}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function VariationTypeItem({ type, deleting, onDelete }: { type: AdminVariationType; deleting: boolean; onDelete: () => void }) {
  const rename = useAdminAction({ action: VARIATIONS_ACTION });
  const count = type.values.length;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-3 py-2" aria-busy={deleting || undefined}>
      <div className="flex flex-wrap items-center gap-3">
        <InlineEdit
          value={type.name}
          label={`variation type ${type.name}`}
          emptyMessage="Name cannot be empty"
          busy={rename.busy}
          onSave={(next) => rename.submit({ intent: "rename-type", id: type.id, name: next })}
        />
        <span className="text-sm text-muted-foreground">
          {count} {count === 1 ? "value" : "values"}
        </span>
      </div>
      <ConfirmDelete
        title="Delete Variation Type"
        description={`Are you sure you want to delete "${type.name}"? Its ${count} ${count === 1 ? "value" : "values"} will be deleted too, and removed from every product. This action cannot be undone.`}
        onConfirm={onDelete}
      >
        <Button variant="ghost" size="icon" className="size-8 text-destructive" disabled={deleting} aria-label={`Delete ${type.name}`}>
          <Trash2 aria-hidden="true" />
        </Button>
      </ConfirmDelete>
    </li>
  );
}
