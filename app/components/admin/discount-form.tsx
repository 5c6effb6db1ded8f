import { Search, X } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useFetcher, useNavigate } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { DiscountInput, discountToForm, type DiscountFormValues } from "~/lib/discount-input";
import { DISCOUNT_KIND_LABELS, type DiscountEditorData, type DiscountKind, type DiscountProductChoice } from "~/lib/discounts-view";
import { fieldErrors } from "~/lib/product-input";
import { useAdminAction } from "./use-admin-action";

type Loaded = Extract<DiscountEditorData, { notFound: false }>;

const KINDS: DiscountKind[] = ["percent", "fixed", "free_shipping"];

/** Finds products by name or SKU (20 at most) to limit the code to. */
function ProductPicker({
  chosen,
  onAdd,
  onRemove,
  error,
}: {
  chosen: DiscountProductChoice[];
  onAdd: (p: DiscountProductChoice) => void;
  onRemove: (id: string) => void;
  error?: string;
}) {
  const search = useFetcher<{ products: DiscountProductChoice[] }>();
  const [q, setQ] = useState("");
  useEffect(() => {
    const term = q.trim();
    if (!term) return;
    const timer = setTimeout(() => search.load(`/admin/discounts/products?q=${encodeURIComponent(term)}`), 250);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q]);
  const chosenIds = new Set(chosen.map((p) => p.id));
  const found = q.trim() ? (search.data?.products ?? []).filter((p) => !chosenIds.has(p.id)) : [];
  return (
    <fieldset className="space-y-2" aria-describedby={error ? "dc-products-error" : undefined}>
      <legend className="text-sm font-medium">Limit to products</legend>
      {chosen.length ? (
        <ul aria-label="Chosen products" className="flex flex-wrap gap-2">
          {chosen.map((p) => (
            <li key={p.id} className="flex items-center gap-1 rounded-md border px-2 py-1 text-sm">
              <span>{p.name}</span>
              {!p.active ? <span className="text-xs text-muted-foreground">(inactive)</span> : null}
              <Button type="button" variant="ghost" size="icon" className="size-6" onClick={() => onRemove(p.id)} aria-label={`Remove ${p.name}`}>
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="relative">
        <Search className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <Input
          type="search"
          className="pl-9"
          aria-label="Find products by name or SKU"
          placeholder="Find products by name or SKU"
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
      </div>
      {q.trim() && search.state === "idle" && search.data && found.length === 0 ? (
        <p className="text-sm text-muted-foreground" role="status">
          No other products match "{q.trim()}".
        </p>
      ) : null}
      {found.length ? (
        <ul aria-label="Matching products" className="max-h-56 divide-y overflow-y-auto rounded-md border">
          {found.map((p) => (
            <li key={p.id} className="flex items-center justify-between gap-2 px-3 py-1.5 text-sm">
              <span>
                {p.name}
                {p.sku ? <span className="ml-2 text-xs text-muted-foreground">SKU {p.sku}</span> : null}
                {!p.active ? <span className="ml-2 text-xs text-muted-foreground">(inactive)</span> : null}
              </span>
              <Button type="button" size="sm" variant="outline" onClick={() => onAdd(p)} aria-label={`Add ${p.name}`}>
                Add
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p id="dc-products-error" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The discount code editor (docs/rules/admin.md, Discounts): empty for a new code. */
export function DiscountForm({ data }: { data: Loaded }) {
  const navigate = useNavigate();
  const existing = data.discount;
  // Seeded once: a revalidation while the form is open must not overwrite what is being typed.
  // Ids of categories or products deleted since are left out (saving them would be refused).
  const [form, setForm] = useState<DiscountFormValues>(() => {
    const values = discountToForm(existing);
    const categoryIds = new Set(data.categories.map((c) => c.id));
    return { ...values, categoryIds: values.categoryIds.filter((id) => categoryIds.has(id)), productIds: data.chosenProducts.map((p) => p.id) };
  });
  const [chosenProducts, setChosenProducts] = useState<DiscountProductChoice[]>(data.chosenProducts);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useAdminAction({
    action: existing ? `/admin/discounts/${existing.id}` : "/admin/discounts/new",
    onSuccess: () => navigate("/admin/discounts"),
    onFailure: (result) => setErrors(result.errors ?? {}),
  });

  const change = <K extends keyof DiscountFormValues>(key: K, value: DiscountFormValues[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = DiscountInput.safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    save.submit({ intent: "save", discount: form });
  };

  const toggleCategory = (id: string, on: boolean) =>
    change("categoryIds", on ? [...form.categoryIds, id] : form.categoryIds.filter((c) => c !== id));

  const codeLocked = existing?.used === true;
  const usesHint = existing ? `${existing.usesCount} ${existing.usesCount === 1 ? "use" : "uses"} counted so far.` : undefined;

  return (
    <form onSubmit={submit} noValidate className="space-y-6" aria-label={existing ? `Edit ${existing.code}` : "New discount code"}>
      <Card>
        <CardHeader>
          <CardTitle>Code and discount</CardTitle>
          <CardDescription>Shoppers type the code in the cart; upper and lower case do not matter.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <FormField
            id="dc-code"
            label="Code"
            hint={codeLocked ? "This code has been used, so its text can no longer change." : "Letters, digits, - and _ only; 64 characters at most."}
            error={errors.code}
          >
            <Input
              id="dc-code"
              value={form.code}
              readOnly={codeLocked}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              onChange={(e) => change("code", e.target.value)}
              {...fieldAria("dc-code", errors.code, true)}
            />
          </FormField>
          <FormField id="dc-kind" label="Kind" error={errors.kind}>
            <NativeSelect
              id="dc-kind"
              wrapperClassName="w-full"
              value={form.kind}
              onChange={(e) => {
                change("kind", e.target.value as DiscountKind);
                setErrors(({ value: _v, ...rest }) => rest);
              }}
              {...fieldAria("dc-kind", errors.kind)}
            >
              {KINDS.map((k) => (
                <NativeSelectOption key={k} value={k}>
                  {DISCOUNT_KIND_LABELS[k]}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </FormField>
          {form.kind !== "free_shipping" ? (
            <FormField
              id="dc-value"
              label={form.kind === "percent" ? "Percentage off (%)" : "Amount off ($)"}
              hint={form.kind === "percent" ? "More than 0 and at most 100, up to 2 decimals." : "In dollars, like 5 or 5.50."}
              error={errors.value}
            >
              <Input
                id="dc-value"
                inputMode="decimal"
                value={form.value}
                onChange={(e) => change("value", e.target.value)}
                {...fieldAria("dc-value", errors.value, true)}
              />
            </FormField>
          ) : (
            <p className="self-end text-sm text-muted-foreground sm:col-span-1">Shipping becomes free for the whole order.</p>
          )}
          <FormField id="dc-minimum" label="Minimum subtotal ($, optional)" hint="Empty: any subtotal." error={errors.minSubtotal}>
            <Input
              id="dc-minimum"
              inputMode="decimal"
              value={form.minSubtotal}
              onChange={(e) => change("minSubtotal", e.target.value)}
              {...fieldAria("dc-minimum", errors.minSubtotal, true)}
            />
          </FormField>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>When and how often</CardTitle>
          <CardDescription>Times are in UTC, as everywhere in the admin.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <FormField id="dc-starts" label="Starts (UTC, optional)" hint="Empty: from now." error={errors.startsAt}>
            <Input
              id="dc-starts"
              type="datetime-local"
              value={form.startsAt}
              onChange={(e) => change("startsAt", e.target.value)}
              {...fieldAria("dc-starts", errors.startsAt, true)}
            />
          </FormField>
          <FormField id="dc-ends" label="Ends (UTC, optional)" hint="Empty: never ends." error={errors.endsAt}>
            <Input
              id="dc-ends"
              type="datetime-local"
              value={form.endsAt}
              onChange={(e) => change("endsAt", e.target.value)}
              {...fieldAria("dc-ends", errors.endsAt, true)}
            />
          </FormField>
          <FormField
            id="dc-limit"
            label="Total usage limit (optional)"
            hint={`Empty: no limit.${usesHint ? ` ${usesHint}` : ""}`}
            error={errors.usageLimit}
          >
            <Input
              id="dc-limit"
              inputMode="numeric"
              value={form.usageLimit}
              onChange={(e) => change("usageLimit", e.target.value)}
              {...fieldAria("dc-limit", errors.usageLimit, true)}
            />
          </FormField>
          <div className="space-y-3 self-end">
            <div className="flex items-center gap-2">
              <Checkbox id="dc-once" checked={form.oncePerEmail} onCheckedChange={(v) => change("oncePerEmail", v === true)} />
              <Label htmlFor="dc-once">Once per customer email</Label>
            </div>
            <div className="flex items-center gap-2">
              <Checkbox id="dc-active" checked={form.active} onCheckedChange={(v) => change("active", v === true)} />
              <Label htmlFor="dc-active">Active</Label>
            </div>
          </div>
        </CardContent>
      </Card>

      {form.kind !== "free_shipping" ? (
        <Card>
          <CardHeader>
            <CardTitle>Applies to</CardTitle>
            <CardDescription>Nothing chosen: the whole cart. Otherwise only lines in these categories or of these products.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6 md:grid-cols-2">
            <fieldset className="space-y-2" aria-describedby={errors.categoryIds ? "dc-categories-error" : undefined}>
              <legend className="text-sm font-medium">Limit to categories</legend>
              {data.categories.length === 0 ? <p className="text-sm text-muted-foreground">No categories yet.</p> : null}
              <ul className="max-h-56 space-y-2 overflow-y-auto">
                {data.categories.map((c) => (
                  <li key={c.id} className="flex items-center gap-2">
                    <Checkbox
                      id={`dc-category-${c.id}`}
                      checked={form.categoryIds.includes(c.id)}
                      onCheckedChange={(v) => toggleCategory(c.id, v === true)}
                    />
                    <Label htmlFor={`dc-category-${c.id}`} className="font-normal">
                      {c.name}
                      {!c.active ? <span className="text-xs text-muted-foreground">(inactive)</span> : null}
                    </Label>
                  </li>
                ))}
              </ul>
              {errors.categoryIds ? (
                <p id="dc-categories-error" className="text-sm text-destructive">
                  {errors.categoryIds}
                </p>
              ) : null}
            </fieldset>
            <ProductPicker
              chosen={chosenProducts}
              error={errors.productIds}
              onAdd={(p) => {
                setChosenProducts((list) => [...list, p]);
                change("productIds", [...form.productIds, p.id]);
              }}
              onRemove={(id) => {
                setChosenProducts((list) => list.filter((p) => p.id !== id));
                change(
                  "productIds",
                  form.productIds.filter((p) => p !== id),
                );
              }}
            />
          </CardContent>
        </Card>
      ) : null}

      {Object.keys(errors).length ? (
        <p role="alert" className="text-sm text-destructive">
          Nothing was saved: correct the fields marked above.
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button asChild variant="outline">
          <Link to="/admin/discounts">Cancel</Link>
        </Button>
        <Button type="submit" disabled={save.busy}>
          {save.busy ? "Saving..." : existing ? "Save Changes" : "Create Code"}
        </Button>
      </div>
    </form>
  );
}
