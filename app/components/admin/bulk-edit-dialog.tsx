import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Switch } from "~/components/ui/switch";
import { BulkEditInput, fieldErrors, NO_FIELDS_SELECTED, NO_PRODUCTS_SELECTED } from "~/lib/product-input";
import { useAdminAction } from "./use-admin-action";

type Form = {
  category: { on: boolean; value: string };
  priceAdjustment: { on: boolean; type: "amount" | "percentage"; value: string };
  exactPrice: { on: boolean; value: string };
  originalPrice: { on: boolean; value: string };
  stockQuantity: { on: boolean; value: string };
  weightGrams: { on: boolean; value: string };
  unlimitedStock: { on: boolean; value: boolean };
  active: { on: boolean; value: boolean };
  featured: { on: boolean; value: boolean };
};

/** The fields typed into a text box, and the on/off ones. */
type TextKey = "exactPrice" | "originalPrice" | "stockQuantity" | "weightGrams";
type FlagKey = "unlimitedStock" | "active" | "featured";

const EMPTY: Form = {
  category: { on: false, value: "" },
  priceAdjustment: { on: false, type: "percentage", value: "" },
  exactPrice: { on: false, value: "" },
  originalPrice: { on: false, value: "" },
  stockQuantity: { on: false, value: "" },
  weightGrams: { on: false, value: "" },
  unlimitedStock: { on: false, value: true },
  active: { on: false, value: true },
  featured: { on: false, value: false },
};

/** Only the checked fields are sent, so only they change (docs/rules/admin.md, Bulk Edit dialog). */
function payloadOf(form: Form) {
  const out: Record<string, unknown> = {};
  if (form.category.on) out.category = form.category.value;
  if (form.priceAdjustment.on) out.priceAdjustment = { type: form.priceAdjustment.type, value: form.priceAdjustment.value };
  for (const key of ["exactPrice", "originalPrice", "stockQuantity", "weightGrams", "unlimitedStock", "active", "featured"] as const) {
    if (form[key].on) out[key] = form[key].value;
  }
  return out;
}

function toastMessage(message: string) {
  const [title, description] = message.split(": ");
  toast.error(title!, { description });
}

export function BulkEditDialog(props: {
  open: boolean;
  ids: string[];
  /** Each selected product's stock as the list shows it (null: unlimited), so sales made since are not overwritten. */
  stockSeen: Record<string, number | null>;
  categories: { id: string; name: string }[];
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
}) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent className="max-h-[92vh] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Bulk Edit</DialogTitle>
          <DialogDescription>
            Check the fields to change on the {props.ids.length} selected {props.ids.length === 1 ? "product" : "products"}.
          </DialogDescription>
        </DialogHeader>
        {props.open && <BulkEditForm {...props} />}
      </DialogContent>
    </Dialog>
  );
}

function BulkEditForm({ ids, stockSeen, categories, onOpenChange, onDone }: Parameters<typeof BulkEditDialog>[0]) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useAdminAction({ action: "/admin/products", onSuccess: onDone, onFailure: (r) => setErrors(r.errors ?? {}) });

  // Typing into a field checks its box: what is edited is what is applied.
  const set = <K extends keyof Form>(key: K, patch: Partial<Form[K]>) => {
    setForm((f) => ({ ...f, [key]: { ...f[key], on: true, ...patch } }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith(key))));
  };
  const toggle = (key: keyof Form, on: boolean) => setForm((f) => ({ ...f, [key]: { ...f[key], on } }));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (ids.length === 0) return toastMessage(NO_PRODUCTS_SELECTED);
    const payload = payloadOf(form);
    if (Object.keys(payload).length === 0) return toastMessage(NO_FIELDS_SELECTED);
    const parsed = BulkEditInput.safeParse({ ids, ...payload });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    // A stock change goes with the stock the owner saw: the server refuses it when some sold since.
    const seen = "stockQuantity" in payload || "unlimitedStock" in payload ? { stockSeen: Object.fromEntries(ids.filter((id) => id in stockSeen).map((id) => [id, stockSeen[id]])) } : {};
    save.submit({ intent: "bulk-update", bulk: { ids, ...payload, ...seen } });
  };

  const error = (key: string) => {
    const message = Object.entries(errors).find(([k]) => k === key || k.startsWith(`${key}.`))?.[1];
    return message ? <p className="text-sm text-destructive">{message}</p> : null;
  };
  // A Row's box, its toggle and its message; a text field's value, typed into it; a SwitchRow's field.
  const row = (key: keyof Form) => ({ on: form[key].on, onToggle: (on: boolean) => toggle(key, on), error: error(key) });
  const text = (key: TextKey) => ({ value: form[key].value, onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(key, { value: e.target.value }) });
  const flag = (key: FlagKey) => ({ field: form[key], onToggle: (on: boolean) => toggle(key, on), onChange: (v: boolean) => set(key, { value: v }) });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Row id="be-category" label="Category" {...row("category")}>
        <NativeSelect aria-label="New category" wrapperClassName="w-full" value={form.category.value} onChange={(e) => set("category", { value: e.target.value })}>
          <NativeSelectOption value="">Choose a category</NativeSelectOption>
          {categories.map((c) => (
            <NativeSelectOption key={c.id} value={c.name}>
              {c.name}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </Row>
      <Row id="be-adjust" label="Price Adjustment" {...row("priceAdjustment")}>
        <div className="flex gap-2">
          <NativeSelect
            aria-label="Adjustment type"
            value={form.priceAdjustment.type}
            onChange={(e) => set("priceAdjustment", { type: e.target.value as "amount" | "percentage" })}
          >
            <NativeSelectOption value="percentage">Percentage (%)</NativeSelectOption>
            <NativeSelectOption value="amount">Amount ($)</NativeSelectOption>
          </NativeSelect>
          <Input
            aria-label="Adjustment value"
            type="number"
            step="0.01"
            inputMode="decimal"
            placeholder={form.priceAdjustment.type === "percentage" ? "e.g. 10 or -15" : "e.g. 5.00 or -2.50"}
            value={form.priceAdjustment.value}
            onChange={(e) => set("priceAdjustment", { value: e.target.value })}
          />
        </div>
      </Row>
      <Row id="be-exact" label="Set Exact Price" {...row("exactPrice")}>
        <Input aria-label="Exact price" type="number" step="0.01" min="0" inputMode="decimal" {...text("exactPrice")} />
      </Row>
      <Row id="be-original" label="Original Price" {...row("originalPrice")}>
        <Input
          aria-label="New original price"
          type="number"
          step="0.01"
          min="0"
          inputMode="decimal"
          placeholder="Empty removes it"
          {...text("originalPrice")}
        />
      </Row>
      <Row id="be-stock" label="Stock Quantity" {...row("stockQuantity")}>
        <Input aria-label="New stock quantity" type="number" step="1" min="0" inputMode="numeric" {...text("stockQuantity")} />
      </Row>
      <Row id="be-weight" label="Weight (g)" {...row("weightGrams")}>
        <Input
          aria-label="New weight in grams"
          type="number"
          step="1"
          min="0"
          max="1000000"
          inputMode="numeric"
          placeholder="Empty removes it"
          {...text("weightGrams")}
        />
      </Row>
      <SwitchRow id="be-unlimited" label="Unlimited Stock" {...flag("unlimitedStock")} />
      <SwitchRow id="be-active" label="Active Status" {...flag("active")} />
      <SwitchRow id="be-featured" label="Featured Product" {...flag("featured")} />
      {error("ids")}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.busy}>
          {save.busy ? "Saving..." : `Update ${ids.length} Products`}
        </Button>
      </DialogFooter>
    </form>
  );
}

function Row({ id, label, on, onToggle, error, children }: { id: string; label: string; on: boolean; onToggle: (on: boolean) => void; error: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="space-y-2 rounded-md border p-3">
      <div className="flex items-center gap-2">
        <Checkbox id={id} checked={on} onCheckedChange={(v) => onToggle(v === true)} />
        <Label htmlFor={id}>{label}</Label>
      </div>
      <div className={on ? undefined : "opacity-60"}>{children}</div>
      {error}
    </fieldset>
  );
}

function SwitchRow({ id, label, field, onToggle, onChange }: { id: string; label: string; field: { on: boolean; value: boolean }; onToggle: (on: boolean) => void; onChange: (v: boolean) => void }) {
  return (
    <fieldset className="flex items-center justify-between gap-2 rounded-md border p-3">
      <div className="flex items-center gap-2">
        <Checkbox id={id} checked={field.on} onCheckedChange={(v) => onToggle(v === true)} />
        <Label htmlFor={id}>{label}</Label>
      </div>
      <div className="flex items-center gap-2">
        <Switch id={`${id}-value`} checked={field.value} onCheckedChange={onChange} aria-label={`${label} value`} />
        <span className="w-8 text-sm text-muted-foreground" aria-hidden="true">{field.value ? "On" : "Off"}</span>
      </div>
    </fieldset>
  );
}
