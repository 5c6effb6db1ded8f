import { Plus, Trash2 } from "lucide-react";
import { Button } from "~/components/ui/button";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Switch } from "~/components/ui/switch";
import { centsToText, EMPTY_RATE_FORM, RateInput, type BandFormValues, type RateFormValues } from "~/lib/shipping-settings-input";
import { RATE_KIND_LABELS, RATE_KINDS, type AdminRate, type AdminZone, type RateKind } from "~/lib/shipping-settings-view";
import { FormDialog } from "./form-dialog";
import { useShippingForm } from "./use-shipping-form";

function toForm(rate: AdminRate | null): RateFormValues {
  if (!rate) return EMPTY_RATE_FORM;
  return {
    name: rate.name,
    kind: rate.kind,
    price: rate.kind === "weight" ? "" : centsToText(rate.priceCents),
    freeOver: centsToText(rate.freeOverCents),
    bands: rate.weightBands.length
      ? rate.weightBands.map((b) => ({ from: String(b.fromGrams), to: b.toGrams === null ? "" : String(b.toGrams), price: centsToText(b.priceCents) }))
      : EMPTY_RATE_FORM.bands,
    estimate: rate.estimate,
    freeWithCode: rate.freeWithCode,
  };
}

function BandsEditor({
  bands,
  errors,
  onChange,
}: {
  bands: BandFormValues[];
  errors: Record<string, string>;
  onChange: (bands: BandFormValues[]) => void;
}) {
  const set = (i: number, key: keyof BandFormValues, value: string) => onChange(bands.map((b, j) => (j === i ? { ...b, [key]: value } : b)));
  const add = () => {
    const last = bands[bands.length - 1];
    onChange([...bands, { from: last?.to ?? "", to: "", price: "" }]);
  };
  return (
    <fieldset className="space-y-2" aria-describedby={errors.bands ? "rate-bands-error" : "rate-bands-hint"}>
      <legend className="text-sm font-medium">Weight Bands</legend>
      <p id="rate-bands-hint" className="text-xs text-muted-foreground">
        From (inclusive) and to (exclusive) in grams, lightest first. Leave the last band's To empty for no upper limit.
      </p>
      <div className="space-y-3">
        {bands.map((band, i) => {
          const n = i + 1;
          const cell = (key: keyof BandFormValues, label: string, extra: React.ComponentProps<typeof Input>) => {
            const id = `rate-band-${i}-${key}`;
            const error = errors[`bands.${i}.${key}`];
            return (
              <div className="min-w-0 flex-1 space-y-1">
                <label htmlFor={id} className="text-xs text-muted-foreground">
                  {label}
                </label>
                <Input
                  id={id}
                  aria-label={`Band ${n} ${label}`}
                  value={band[key]}
                  onChange={(e) => set(i, key, e.target.value)}
                  {...fieldAria(id, error)}
                  {...extra}
                />
                {error ? (
                  <p id={`${id}-error`} className="text-xs text-destructive">
                    {error}
                  </p>
                ) : null}
              </div>
            );
          };
          return (
            <div key={i} className="flex items-start gap-2" role="group" aria-label={`Band ${n}`}>
              {cell("from", "From (g)", { inputMode: "numeric" })}
              {cell("to", "To (g)", { inputMode: "numeric", placeholder: "No limit" })}
              {cell("price", "Price ($)", { inputMode: "decimal", placeholder: "0.00" })}
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="mt-5"
                aria-label={`Remove band ${n}`}
                disabled={bands.length === 1}
                onClick={() => onChange(bands.filter((_, j) => j !== i))}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </div>
          );
        })}
      </div>
      <Button type="button" variant="outline" size="sm" onClick={add} disabled={bands.length >= 50}>
        <Plus aria-hidden="true" />
        Add Band
      </Button>
      {errors.bands ? (
        <p id="rate-bands-error" className="text-sm text-destructive">
          {errors.bands}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Add Rate / Edit Rate for one zone (docs/rules/admin.md, Shipping & Tax). */
export function RateDialog({ zone, rate, onClose }: { zone: AdminZone; rate: AdminRate | null; onClose: () => void }) {
  const { form, errors, change, submit, busy } = useShippingForm<RateFormValues>({
    initial: () => toForm(rate),
    schema: RateInput,
    payload: (values) => (rate ? { intent: "update-rate", id: rate.id, values } : { intent: "create-rate", zoneId: zone.id, values }),
    onSaved: onClose,
  });

  return (
    <FormDialog
      title={rate ? "Edit Rate" : "Add Rate"}
      description={`A way to ship to ${zone.name}. Shoppers see its name, price and estimate at checkout.`}
      saveLabel="Save Rate"
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      className="sm:max-w-xl"
    >
      <FormField id="rate-name" label="Rate Name" error={errors.name}>
        <Input
          id="rate-name"
          value={form.name}
          maxLength={100}
          placeholder="Standard"
          onChange={(e) => change("name", e.target.value)}
          {...fieldAria("rate-name", errors.name)}
        />
      </FormField>
      <FormField id="rate-kind" label="Pricing" error={errors.kind}>
        <NativeSelect
          id="rate-kind"
          wrapperClassName="w-full"
          value={form.kind}
          onChange={(e) => change("kind", e.target.value as RateKind)}
          {...fieldAria("rate-kind", errors.kind)}
        >
          {RATE_KINDS.map((k) => (
            <NativeSelectOption key={k} value={k}>
              {RATE_KIND_LABELS[k]}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </FormField>
      {form.kind === "weight" ? (
        <BandsEditor bands={form.bands} errors={errors} onChange={(bands) => change("bands", bands)} />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            id="rate-price"
            label={form.kind === "free_over" ? "Price Below the Threshold ($)" : "Price ($)"}
            error={errors.price}
            hint="0 ships free."
          >
            <Input
              id="rate-price"
              inputMode="decimal"
              placeholder="0.00"
              value={form.price}
              onChange={(e) => change("price", e.target.value)}
              {...fieldAria("rate-price", errors.price, true)}
            />
          </FormField>
          {form.kind === "free_over" ? (
            <FormField id="rate-free-over" label="Free Over ($)" error={errors.freeOver} hint="Goods after discounts, at or above this amount.">
              <Input
                id="rate-free-over"
                inputMode="decimal"
                placeholder="75.00"
                value={form.freeOver}
                onChange={(e) => change("freeOver", e.target.value)}
                {...fieldAria("rate-free-over", errors.freeOver, true)}
              />
            </FormField>
          ) : null}
        </div>
      )}
      <FormField id="rate-estimate" label="Delivery Estimate (optional)" error={errors.estimate}>
        <Input
          id="rate-estimate"
          value={form.estimate}
          maxLength={200}
          placeholder="Delivered in 3–5 business days"
          onChange={(e) => change("estimate", e.target.value)}
          {...fieldAria("rate-estimate", errors.estimate)}
        />
      </FormField>
      <div className="space-y-1">
        <div className="flex items-center gap-3">
          <Switch id="rate-free-with-code" checked={form.freeWithCode} onCheckedChange={(v) => change("freeWithCode", v)} />
          <Label htmlFor="rate-free-with-code">Free with a free-shipping code</Label>
        </div>
        <p className="text-xs text-muted-foreground">When no rate of the zone is marked, a free-shipping code makes its cheapest rate free.</p>
      </div>
    </FormDialog>
  );
}
