import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { useState } from "react";
import { COUNTRIES, type CheckoutForm, type CheckoutFormField } from "~/lib/checkout";
import { RegionOptions } from "~/components/region-options";
import { regionMayBeBlank } from "~/lib/region-rules";
import { cn } from "~/lib/utils";

type Errors = Partial<Record<CheckoutFormField, string>>;

type FieldSpec = {
  name: Exclude<CheckoutFormField, "country">;
  label: string;
  type?: string;
  autoComplete: string;
  required: boolean;
  wide?: boolean;
};

const FIELDS: FieldSpec[] = [
  { name: "firstName", label: "First Name", autoComplete: "given-name", required: true },
  { name: "lastName", label: "Last Name", autoComplete: "family-name", required: true },
  { name: "email", label: "Email", type: "email", autoComplete: "email", required: true },
  { name: "phone", label: "Phone", type: "tel", autoComplete: "tel", required: false },
  { name: "address", label: "Address", autoComplete: "street-address", required: true, wide: true },
  { name: "city", label: "City", autoComplete: "address-level2", required: true },
  { name: "state", label: "State", autoComplete: "address-level1", required: true },
  { name: "zipCode", label: "ZIP Code", autoComplete: "postal-code", required: true },
];

/** The shipping form's fields (docs/rules/cart-and-checkout.md, The form); errors sit beside their field. */
export function CheckoutFormFields({ defaults, errors }: { defaults: Partial<CheckoutForm>; errors: Errors }) {
  // The State field offers the country's ISO 3166-2 regions (loaded once the page is up); what is
  // typed is read as one on the server.
  const [country, setCountry] = useState(defaults.country ?? "US");
  // UK addresses may leave the county out (docs/money-path.md, Regions).
  const fields = regionMayBeBlank(country) ? FIELDS.map((f) => (f.name === "state" ? { ...f, required: false } : f)) : FIELDS;
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      {fields.map((f) => (
        <div key={f.name} className={cn("grid gap-1.5", f.wide && "sm:col-span-2")}>
          <Label htmlFor={`checkout-${f.name}`}>
            {f.label}
            {f.required ? (
              <span className="text-destructive" aria-hidden>
                *
              </span>
            ) : (
              <span className="font-normal text-muted-foreground">(optional)</span>
            )}
          </Label>
          <Input
            id={`checkout-${f.name}`}
            name={f.name}
            type={f.type ?? "text"}
            autoComplete={f.autoComplete}
            defaultValue={defaults[f.name] ?? ""}
            aria-required={f.required || undefined}
            aria-invalid={errors[f.name] ? true : undefined}
            aria-describedby={errors[f.name] ? `checkout-${f.name}-error` : undefined}
            list={f.name === "state" ? "checkout-state-regions" : undefined}
          />
          {errors[f.name] ? (
            <p id={`checkout-${f.name}-error`} className="text-sm text-destructive">
              {errors[f.name]}
            </p>
          ) : null}
        </div>
      ))}
      <div className="grid gap-1.5">
        <Label htmlFor="checkout-country">Country</Label>
        <NativeSelect
          id="checkout-country"
          name="country"
          autoComplete="country"
          defaultValue={defaults.country ?? "US"}
          wrapperClassName="w-full"
          aria-invalid={errors.country ? true : undefined}
          onChange={(e) => setCountry(e.target.value)}
        >
          {COUNTRIES.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </NativeSelect>
        {errors.country ? <p className="text-sm text-destructive">{errors.country}</p> : null}
      </div>
      <RegionOptions id="checkout-state-regions" country={country} />
    </div>
  );
}
