import { Plus } from "lucide-react";
import { RegionOptions } from "~/components/region-options";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Switch } from "~/components/ui/switch";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { COUNTRY_CODES, countryName } from "~/lib/countries";
import { formatRate } from "~/lib/pricing-view";
import {
  basisPointsToText,
  EMPTY_TAX_RATE_FORM,
  TaxRateInput,
  TaxSettingsInput,
  type TaxRateFormValues,
  type TaxSettingsFormValues,
} from "~/lib/shipping-settings-input";
import { taxPlace, type AdminTaxRate, type AdminTaxSettings } from "~/lib/shipping-settings-view";
import { FormDialog } from "./form-dialog";
import { RowActions } from "./row-actions";
import { useShippingForm } from "./use-shipping-form";

/** Countries by name for the tax rate's picker. */
const COUNTRY_OPTIONS = [...COUNTRY_CODES].sort((a, b) => countryName(a).localeCompare(countryName(b), "en"));

function SwitchRow({
  id,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <div className="flex items-start gap-3">
      <Switch id={id} checked={checked} onCheckedChange={onChange} className="mt-0.5" aria-describedby={`${id}-hint`} />
      <div className="space-y-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
    </div>
  );
}

/** The tax settings form: the tax's name, whether prices include it, whether shipping is taxed. */
function TaxSettingsForm({ settings }: { settings: AdminTaxSettings }) {
  const { form, errors, change, submit, busy } = useShippingForm<TaxSettingsFormValues>({
    initial: settings,
    schema: TaxSettingsInput,
    payload: (values) => ({ intent: "save-tax-settings", values }),
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="tax-settings-title">
      <h3 id="tax-settings-title" className="font-semibold">
        Tax Settings
      </h3>
      <FormField id="tax-name" label="Tax Name" error={errors.taxName} hint="Shown at checkout: Tax, VAT, GST, Sales tax.">
        <Input
          id="tax-name"
          className="max-w-xs"
          value={form.taxName}
          maxLength={40}
          onChange={(e) => change("taxName", e.target.value)}
          {...fieldAria("tax-name", errors.taxName, true)}
        />
      </FormField>
      <SwitchRow
        id="tax-prices-include"
        label="Prices include tax"
        hint="On: catalogue prices already contain the tax, which checkout shows as included. Off: tax is added on top."
        checked={form.pricesIncludeTax}
        onChange={(v) => change("pricesIncludeTax", v)}
      />
      <SwitchRow
        id="tax-shipping"
        label="Charge tax on shipping"
        hint="On: the shipping price is taxed at the same rate as the goods."
        checked={form.shippingTaxable}
        onChange={(v) => change("shippingTaxable", v)}
      />
      <Button type="submit" disabled={busy}>
        {busy ? "Saving..." : "Save Tax Settings"}
      </Button>
    </form>
  );
}

/** Add Tax Rate / Edit Tax Rate. */
export function TaxRateDialog({ rate, onClose }: { rate: AdminTaxRate | null; onClose: () => void }) {
  const { form, errors, change, submit, busy } = useShippingForm<TaxRateFormValues>({
    initial: () => (rate ? { country: rate.country, region: rate.region, rate: basisPointsToText(rate.rateBasisPoints) } : EMPTY_TAX_RATE_FORM),
    schema: TaxRateInput,
    payload: (values) => (rate ? { intent: "update-tax-rate", id: rate.id, values } : { intent: "create-tax-rate", values }),
    onSaved: onClose,
  });
  return (
    <FormDialog
      title={rate ? "Edit Tax Rate" : "Add Tax Rate"}
      description="The rate for a country, or for one region of it. A region's rate comes before its country's."
      saveLabel="Save Tax Rate"
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
    >
      <FormField id="tax-country" label="Country" error={errors.country}>
        <NativeSelect
          id="tax-country"
          wrapperClassName="w-full"
          value={form.country}
          onChange={(e) => change("country", e.target.value)}
          {...fieldAria("tax-country", errors.country)}
        >
          <NativeSelectOption value="">Choose a country</NativeSelectOption>
          {COUNTRY_OPTIONS.map((code) => (
            <NativeSelectOption key={code} value={code}>
              {countryName(code)} ({code})
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </FormField>
      <FormField
        id="tax-region"
        label="Region or State (optional)"
        error={errors.region}
        hint="One of the country's regions from the list (ISO 3166-2), by name or code. Empty: the whole country."
      >
        <Input
          id="tax-region"
          list="tax-region-options"
          autoComplete="off"
          value={form.region}
          maxLength={100}
          placeholder="CA"
          onChange={(e) => change("region", e.target.value)}
          {...fieldAria("tax-region", errors.region, true)}
        />
        <RegionOptions id="tax-region-options" country={form.country} />
      </FormField>
      <FormField id="tax-rate" label="Rate (%)" error={errors.rate} hint="A percentage like 20 or 7.25.">
        <Input
          id="tax-rate"
          className="max-w-40"
          inputMode="decimal"
          value={form.rate}
          onChange={(e) => change("rate", e.target.value)}
          {...fieldAria("tax-rate", errors.rate, true)}
        />
      </FormField>
    </FormDialog>
  );
}

/** The Tax section: settings, then the rates table. */
export function TaxSection({
  settings,
  rates,
  onAddRate,
  onEditRate,
  onDeleteRate,
}: {
  settings: AdminTaxSettings;
  rates: AdminTaxRate[];
  onAddRate: () => void;
  onEditRate: (rate: AdminTaxRate) => void;
  onDeleteRate: (rate: AdminTaxRate) => void;
}) {
  return (
    <section aria-labelledby="tax-title" className="space-y-4">
      <h2 id="tax-title" className="text-xl font-semibold">
        Tax
      </h2>
      <Card>
        <CardContent>
          <TaxSettingsForm settings={settings} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
          <div className="space-y-1.5">
            <CardTitle>
              <h3>Tax Rates</h3>
            </CardTitle>
            <CardDescription>By country, or by region within one. Places without a rate pay no tax.</CardDescription>
          </div>
          <Button size="sm" onClick={onAddRate}>
            <Plus aria-hidden="true" />
            Add Tax Rate
          </Button>
        </CardHeader>
        <CardContent>
          {rates.length === 0 ? (
            <p className="text-sm text-muted-foreground">No tax rates yet: the shop charges no tax.</p>
          ) : (
            <Table aria-label="Tax rates">
              <TableHeader>
                <TableRow>
                  <TableHead>Country</TableHead>
                  <TableHead>Region</TableHead>
                  <TableHead>Rate</TableHead>
                  <TableHead className="text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rates.map((r) => (
                  <TableRow key={r.id}>
                    <TableCell>
                      {countryName(r.country)} <span className="text-muted-foreground">({r.country})</span>
                    </TableCell>
                    <TableCell>{r.region || <span className="text-muted-foreground">Whole country</span>}</TableCell>
                    <TableCell>{formatRate(r.rateBasisPoints)}</TableCell>
                    <TableCell className="text-right">
                      <RowActions
                        editLabel={`Edit tax rate for ${taxPlace(r)}`}
                        deleteLabel={`Delete tax rate for ${taxPlace(r)}`}
                        onEdit={() => onEditRate(r)}
                        onDelete={() => onDeleteRate(r)}
                      />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
