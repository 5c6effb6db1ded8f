import { useState } from "react";
import { Button } from "~/components/ui/button";
import { fieldAria, FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Switch } from "~/components/ui/switch";
import { Textarea } from "~/components/ui/textarea";
import { RegionOptions } from "~/components/region-options";
import { countryName, isCountryCode } from "~/lib/countries";
import { EMPTY_ZONE_FORM, ZoneInput, type ZoneFormValues } from "~/lib/shipping-settings-input";
import type { AdminZone } from "~/lib/shipping-settings-view";
import { FormDialog } from "./form-dialog";
import { useShippingForm } from "./use-shipping-form";

function toForm(zone: AdminZone | null): ZoneFormValues {
  if (!zone) return EMPTY_ZONE_FORM;
  return {
    name: zone.name,
    countries: zone.countries.join(", "),
    regions: zone.regions.join(", "),
    postcodePrefixes: zone.postcodePrefixes.join(", "),
    restOfWorld: zone.restOfWorld,
  };
}

/** The countries typed so far, by name, so a wrong code shows before saving. */
function CountryPreview({ typed }: { typed: string }) {
  const codes = typed
    .split(/[\s,;]+/)
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  if (!codes.length) return null;
  return (
    <p className="text-xs" aria-live="polite">
      {codes.map((c, i) => (
        <span key={`${c}-${i}`} className={isCountryCode(c) ? "text-muted-foreground" : "text-destructive"}>
          {i ? ", " : ""}
          {isCountryCode(c) ? countryName(c) : `${c} (unknown)`}
        </span>
      ))}
    </p>
  );
}

/** A field offering the first typed country's regions; 'Add' (or Enter) adds the one picked to the zone's regions. */
function RegionPicker({ countries, onPick }: { countries: string; onPick: (name: string) => void }) {
  const [picked, setPicked] = useState("");
  const country = countries.split(/[\s,;]+/).map((c) => c.trim().toUpperCase()).find(isCountryCode) ?? "";
  if (!country) return null;
  const add = () => {
    if (picked.trim()) onPick(picked.trim());
    setPicked("");
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Label htmlFor="zone-region-pick" className="text-xs font-normal text-muted-foreground">
        Add a region of {countryName(country)}
      </Label>
      <Input
        id="zone-region-pick"
        list="zone-region-options"
        autoComplete="off"
        className="h-8 max-w-56"
        value={picked}
        onChange={(e) => setPicked(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter") return;
          e.preventDefault();
          add();
        }}
      />
      <Button type="button" variant="outline" size="sm" onClick={add}>
        Add
      </Button>
      <RegionOptions id="zone-region-options" country={country} />
    </div>
  );
}

/** Add Zone / Edit Zone (docs/rules/admin.md, Shipping & Tax). */
export function ZoneDialog({ zone, onClose }: { zone: AdminZone | null; onClose: () => void }) {
  const { form, errors, change, submit, busy } = useShippingForm<ZoneFormValues>({
    initial: () => toForm(zone),
    schema: ZoneInput,
    // The rest-of-world zone names no places: what was typed in the hidden boxes is not sent.
    prepare: (form) => (form.restOfWorld ? { ...form, countries: "", regions: "", postcodePrefixes: "" } : form),
    payload: (values) => (zone ? { intent: "update-zone", id: zone.id, values } : { intent: "create-zone", values }),
    onSaved: onClose,
  });

  return (
    <FormDialog
      title={zone ? "Edit Zone" : "Add Zone"}
      description="A zone is where a set of rates applies: countries, and within them optionally some regions or postcodes."
      saveLabel="Save Zone"
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
    >
      <FormField id="zone-name" label="Zone Name" error={errors.name}>
        <Input
          id="zone-name"
          value={form.name}
          maxLength={100}
          placeholder="Europe"
          onChange={(e) => change("name", e.target.value)}
          {...fieldAria("zone-name", errors.name)}
        />
      </FormField>
      <div className="space-y-2">
        <div className="flex items-center gap-3">
          <Switch
            id="zone-rest-of-world"
            checked={form.restOfWorld}
            onCheckedChange={(v) => change("restOfWorld", v)}
            {...fieldAria("zone-rest-of-world", errors.restOfWorld, true)}
          />
          <Label htmlFor="zone-rest-of-world">Rest of the world</Label>
        </div>
        <p id="zone-rest-of-world-hint" className="text-xs text-muted-foreground">
          Takes every address no other zone covers. A shop has at most one such zone.
        </p>
        {errors.restOfWorld ? (
          <p id="zone-rest-of-world-error" className="text-sm text-destructive">
            {errors.restOfWorld}
          </p>
        ) : null}
      </div>
      {form.restOfWorld ? null : (
        <>
          <FormField
            id="zone-countries"
            label="Countries"
            error={errors.countries}
            hint="Two-letter ISO codes separated by commas, for example US, CA, GB."
          >
            <Input
              id="zone-countries"
              value={form.countries}
              placeholder="US, CA"
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => change("countries", e.target.value)}
              {...fieldAria("zone-countries", errors.countries, true)}
            />
            <CountryPreview typed={form.countries} />
          </FormField>
          <FormField
            id="zone-regions"
            label="Regions or States (optional)"
            error={errors.regions}
            hint="Regions of the zone's countries from the list (ISO 3166-2), by name or code, separated by commas (CA, New York). Empty: the whole countries."
          >
            <Textarea
              id="zone-regions"
              rows={2}
              value={form.regions}
              onChange={(e) => change("regions", e.target.value)}
              {...fieldAria("zone-regions", errors.regions, true)}
            />
            <RegionPicker countries={form.countries} onPick={(name) => change("regions", form.regions.trim() ? `${form.regions.trim().replace(/,$/, "")}, ${name}` : name)} />
          </FormField>
          <FormField
            id="zone-postcodes"
            label="Postcode Prefixes (optional)"
            error={errors.postcodePrefixes}
            hint="Separated by commas (75, 92, SW1A). Empty: every postcode. UK postcodes match by their first part as a whole: PA2 is PA2 only, not PA20; letters alone (IV) are the whole area."
          >
            <Textarea
              id="zone-postcodes"
              rows={2}
              value={form.postcodePrefixes}
              onChange={(e) => change("postcodePrefixes", e.target.value)}
              {...fieldAria("zone-postcodes", errors.postcodePrefixes, true)}
            />
          </FormField>
        </>
      )}
    </FormDialog>
  );
}
