import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { VariationValueName } from "~/lib/product-input";
import type { AdminVariationType, AdminVariationValue } from "~/lib/catalog-view";
import { ConfirmDelete } from "./confirm-delete";
import { InlineEdit } from "./inline-edit";
import { useAdminAction } from "./use-admin-action";

const ACTION = "/admin/products/variations";

/** Manage Values: per type, an add-value input and its values with rename and delete. */
export function VariationValuesPanel({ types }: { types: AdminVariationType[] }) {
  if (types.length === 0) {
    return (
      <Card>
        <CardContent className="py-10 text-center text-muted-foreground">Create variation types first to manage their values</CardContent>
      </Card>
    );
  }
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {types.map((t) => (
        <TypeValues key={t.id} type={t} />
      ))}
    </div>
  );
}

function TypeValues({ type }: { type: AdminVariationType }) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  // Here, not in the item: the item is gone by the time the answer (and its toast) arrives.
  const remove = useAdminAction({ action: ACTION });
  const add = useAdminAction({
    action: ACTION,
    onSuccess: () => setValue(""),
    onFailure: (r) => setError(r.errors?.value ?? null),
  });
  const inputId = `vv-new-${type.id}`;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = VariationValueName.safeParse(value);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? "Please enter a value";
      setError(message);
      toast.error(message);
      return;
    }
    setError(null);
    add.submit({ intent: "add-value", typeId: type.id, value: parsed.data });
  };

  return (
    <Card role="region" aria-label={`${type.name} values`}>
      <CardHeader>
        <CardTitle>
          <h3>{type.name}</h3>
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <form onSubmit={submit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <div className="flex-1 space-y-1">
            <Label htmlFor={inputId} className="sr-only">
              New value for {type.name}
            </Label>
            <Input
              id={inputId}
              placeholder="e.g. Large, Blue, Linen"
              value={value}
              maxLength={60}
              onChange={(e) => {
                setValue(e.target.value);
                setError(null);
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
            />
            {error && (
              <p id={`${inputId}-error`} className="text-sm text-destructive">
                {error}
              </p>
            )}
          </div>
          <Button type="submit" variant="outline" disabled={add.busy}>
            <Plus aria-hidden="true" /> Add Value
          </Button>
        </form>
        {type.values.length === 0 ? (
          <p className="text-sm text-muted-foreground">No values added yet</p>
        ) : (
          <ul className="divide-y rounded-md border">
            {type.values.map((v) => (
              <ValueItem
                key={v.id}
                value={v}
                typeName={type.name}
                deleting={remove.pending?.id === v.id}
                onDelete={() => remove.submit({ intent: "delete-value", id: v.id })}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function ValueItem({
  value,
  typeName,
  deleting,
  onDelete,
}: {
  value: AdminVariationValue;
  typeName: string;
  deleting: boolean;
  onDelete: () => void;
}) {
  const rename = useAdminAction({ action: ACTION });
  return (
    <li className="flex items-center justify-between gap-2 px-3 py-1.5" aria-busy={deleting || undefined}>
      <InlineEdit
        value={value.value}
        label={`${typeName} value ${value.value}`}
        emptyMessage="Value cannot be empty"
        busy={rename.busy}
        onSave={(next) => rename.submit({ intent: "rename-value", id: value.id, value: next })}
      />
      <ConfirmDelete
        title="Delete Value"
        description={`Are you sure you want to delete "${value.value}" from ${typeName}? Products that offer it will lose it. This action cannot be undone.`}
        onConfirm={onDelete}
      >
        <Button variant="ghost" size="icon" className="size-8 text-destructive" disabled={deleting} aria-label={`Delete ${value.value}`}>
          <Trash2 aria-hidden="true" />
        </Button>
      </ConfirmDelete>
    </li>
  );
}
