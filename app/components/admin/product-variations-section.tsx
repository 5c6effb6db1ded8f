import { Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOptGroup, NativeSelectOption } from "~/components/ui/native-select";
import { centsToInput, ProductVariationField } from "~/lib/product-input";
import type { AdminVariationType, AttachedVariation } from "~/lib/catalog-view";
import { useAdminAction } from "./use-admin-action";

/** The 'Product Variations' section (docs/rules/admin.md): attach values; edit each one's price adjustment, stock and SKU suffix; remove. */
export function ProductVariationsSection({
  productId,
  variations,
  choices,
}: {
  productId: string;
  variations: AttachedVariation[];
  choices: AdminVariationType[];
}) {
  const action = `/admin/products/${productId}/editor`;
  const attach = useAdminAction({ action, onSuccess: () => setChoice("") });
  // Here, not in the row: the row is gone by the time the answer (and its toast) arrives.
  const remove = useAdminAction({ action });
  const [choice, setChoice] = useState("");
  const attached = new Set(variations.map((v) => v.variationValueId));
  const available = choices
    .map((t) => ({ ...t, values: t.values.filter((v) => !attached.has(v.id)) }))
    .filter((t) => t.values.length > 0);

  return (
    <section aria-labelledby="pv-heading" className="space-y-3 border-t pt-4">
      <h3 id="pv-heading" className="font-semibold">
        Product Variations
      </h3>
      {variations.length === 0 ? (
        <p className="text-sm text-muted-foreground">No variations attached yet.</p>
      ) : (
        <ul className="space-y-3">
          {variations.map((v) => (
            <VariationRow
              key={v.id}
              action={action}
              variation={v}
              removing={remove.pending?.id === v.id}
              onRemove={() => remove.submit({ intent: "remove-variation", id: v.id })}
            />
          ))}
        </ul>
      )}
      {choices.length === 0 ? (
        <p className="text-sm text-muted-foreground">Create variation types and values in the Variations tab to attach them here.</p>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1 space-y-2">
            <Label htmlFor="pv-choice">Add a variation</Label>
            <NativeSelect id="pv-choice" wrapperClassName="w-full" value={choice} onChange={(e) => setChoice(e.target.value)}>
              <NativeSelectOption value="">{available.length ? "Choose a value" : "Every value is attached"}</NativeSelectOption>
              {available.map((t) => (
                <NativeSelectOptGroup key={t.id} label={t.name}>
                  {t.values.map((value) => (
                    <NativeSelectOption key={value.id} value={value.id}>
                      {t.name}: {value.value}
                    </NativeSelectOption>
                  ))}
                </NativeSelectOptGroup>
              ))}
            </NativeSelect>
          </div>
          <Button
            type="button"
            variant="outline"
            disabled={attach.busy}
            onClick={() => {
              if (!choice) return void toast.error("Choose a variation value to add");
              attach.submit({ intent: "attach-variation", variationValueId: choice });
            }}
          >
            Add Variation
          </Button>
        </div>
      )}
    </section>
  );
}

type FieldName = "priceAdjustment" | "stockQuantity" | "skuSuffix";

function VariationRow({
  action,
  variation,
  removing,
  onRemove,
}: {
  action: string;
  variation: AttachedVariation;
  removing: boolean;
  onRemove: () => void;
}) {
  const label = `${variation.typeName}: ${variation.value}`;
  const saved: Record<FieldName, string> = {
    priceAdjustment: centsToInput(variation.priceAdjustmentCents),
    stockQuantity: String(variation.stockQuantity),
    skuSuffix: variation.skuSuffix,
  };
  const [draft, setDraft] = useState(saved);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const lastField = useRef<FieldName | null>(null);
  const update = useAdminAction({
    action,
    onFailure: (r) => {
      const field = lastField.current;
      if (field) setErrors((e) => ({ ...e, [field]: r.message }));
    },
  });

  // Saved when the field loses focus, one field at a time (docs/rules/admin.md, Edit Product dialog).
  const commit = (field: FieldName) => {
    if (draft[field] === saved[field]) return;
    const parsed = ProductVariationField.safeParse({ field, value: draft[field] });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? "Invalid value";
      setErrors((e) => ({ ...e, [field]: message }));
      toast.error("Failed to update variation", { description: message });
      return;
    }
    setErrors(({ [field]: _gone, ...rest }) => rest);
    lastField.current = field;
    update.submit({ intent: "update-variation", id: variation.id, field, value: draft[field] });
  };

  const input = (field: FieldName, text: string, props: React.ComponentProps<typeof Input>) => {
    const id = `pv-${variation.id}-${field}`;
    return (
      <div className="space-y-1">
        <Label htmlFor={id} className="text-xs text-muted-foreground">
          {text}
          <span className="sr-only"> for {label}</span>
        </Label>
        <Input
          id={id}
          value={draft[field]}
          onChange={(e) => setDraft((d) => ({ ...d, [field]: e.target.value }))}
          onBlur={() => commit(field)}
          aria-invalid={errors[field] ? true : undefined}
          aria-describedby={errors[field] ? `${id}-error` : undefined}
          className="h-8"
          {...props}
        />
        {errors[field] && (
          <p id={`${id}-error`} className="text-xs text-destructive">
            {errors[field]}
          </p>
        )}
      </div>
    );
  };

  return (
    <li className="rounded-md border p-3" aria-busy={removing || undefined}>
      <div className="mb-2 flex items-center justify-between gap-2">
        <span className="font-medium">{label}</span>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="text-destructive"
          disabled={removing}
          onClick={onRemove}
          aria-label={`Remove ${label}`}
        >
          <Trash2 aria-hidden="true" /> Remove
        </Button>
      </div>
      <div className="grid gap-2 sm:grid-cols-3">
        {input("priceAdjustment", "Price adjustment ($)", { type: "number", step: "0.01", inputMode: "decimal" })}
        {input("stockQuantity", "Stock", { type: "number", step: "1", min: "0", inputMode: "numeric" })}
        {input("skuSuffix", "SKU suffix", { maxLength: 32 })}
      </div>
    </li>
  );
}
