import { MapPin, Pencil, Plus, Star, Trash2 } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { RegionOptions } from "~/components/region-options";
import { COUNTRY_NAMES } from "~/lib/countries";
import { regionMayBeBlank } from "~/lib/region-rules";
import { addressSummary, MAX_SAVED_ADDRESSES, type SavedAddress } from "~/lib/saved-address-view";
import { Field, FormAlert, useActionToast } from "./form-bits";

type Answer = { ok: boolean; intent?: string; message?: string; fieldErrors?: Partial<Record<string, string[]>> };

const COUNTRY_OPTIONS = Object.entries(COUNTRY_NAMES).sort((a, b) => a[1].localeCompare(b[1], "en"));

/**
 * The profile's Addresses tab (docs/rules/after-sale.md, Saved addresses): the shopper's saved
 * addresses, the default first; add, edit, delete, set default. Addresses they paid with are
 * added by the shop itself.
 */
export function AddressesTab({ addresses }: { addresses: SavedAddress[] }) {
  const [adding, setAdding] = useState(false);
  const full = addresses.length >= MAX_SAVED_ADDRESSES;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">Saved addresses</h2>
        {!adding && !full ? (
          <Button type="button" variant="outline" onClick={() => setAdding(true)}>
            <Plus aria-hidden />
            Add address
          </Button>
        ) : null}
      </div>
      {full ? (
        <p className="text-sm text-muted-foreground">
          You have {MAX_SAVED_ADDRESSES} addresses, the most you can keep. Delete one to add another.
        </p>
      ) : null}
      {adding ? <AddressEditor onDone={() => setAdding(false)} /> : null}
      {addresses.length === 0 && !adding ? (
        <div className="flex flex-col items-center gap-3 py-10 text-center">
          <MapPin className="size-10 text-muted-foreground" aria-hidden />
          <p className="text-muted-foreground">No saved addresses yet. The address of each order you pay for is kept here.</p>
        </div>
      ) : (
        <ul className="grid gap-3" aria-label="Your addresses">
          {addresses.map((a) => (
            <AddressItem key={a.id} address={a} />
          ))}
        </ul>
      )}
    </div>
  );
}

function AddressItem({ address }: { address: SavedAddress }) {
  const [editing, setEditing] = useState(false);
  const fetcher = useFetcher<Answer>();
  useActionToast(fetcher.data);
  const summary = addressSummary(address);
  const busy = fetcher.state !== "idle";
  if (editing) {
    return (
      <li>
        <AddressEditor address={address} onDone={() => setEditing(false)} />
      </li>
    );
  }
  return (
    <li className="grid gap-3 rounded-lg border p-4" aria-label={summary}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <address className="grid gap-0.5 text-sm not-italic">
          <span className="font-medium">{`${address.firstName} ${address.lastName}`.trim()}</span>
          <span>{address.address}</span>
          <span>
            {address.city}, {address.state} {address.zipCode}
          </span>
          <span>{COUNTRY_NAMES[address.country] ?? address.country}</span>
          {address.phone ? <span className="text-muted-foreground">{address.phone}</span> : null}
        </address>
        {address.isDefault ? <Badge variant="info">Default</Badge> : null}
      </div>
      {fetcher.data && !fetcher.data.ok ? <FormAlert title="Not changed">{fetcher.data.message}</FormAlert> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => setEditing(true)} aria-label={`Edit ${summary}`}>
          <Pencil aria-hidden />
          Edit
        </Button>
        {address.isDefault ? null : (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="address-default" />
            <input type="hidden" name="id" value={address.id} />
            <Button type="submit" variant="outline" size="sm" disabled={busy} aria-label={`Make ${summary} the default`}>
              <Star aria-hidden />
              Set as default
            </Button>
          </fetcher.Form>
        )}
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="address-delete" />
          <input type="hidden" name="id" value={address.id} />
          <Button type="submit" variant="outline" size="sm" disabled={busy} aria-label={`Delete ${summary}`}>
            <Trash2 aria-hidden />
            Delete
          </Button>
        </fetcher.Form>
      </div>
    </li>
  );
}

/** The add or edit form: the checkout's address fields, checked by the same rules on the server. */
function AddressEditor({ address, onDone }: { address?: SavedAddress; onDone: () => void }) {
  const fetcher = useFetcher<Answer>();
  useActionToast(fetcher.data);
  const prefix = useId();
  // The State field offers the chosen country's regions, as at checkout.
  const [country, setCountry] = useState(address?.country ?? "US");
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : undefined;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onDone();
  }, [fetcher.state, fetcher.data, onDone]);
  const field = (name: keyof Omit<SavedAddress, "id" | "isDefault" | "country">, label: string, autoComplete: string, extra: object = {}) => (
    <Field
      id={`${prefix}-${name}`}
      label={label}
      name={name}
      autoComplete={autoComplete}
      defaultValue={address?.[name] ?? ""}
      errors={errors?.[name]}
      {...extra}
    />
  );
  const title = address ? "Edit address" : "New address";
  return (
    <fetcher.Form method="post" className="grid gap-4 rounded-lg border p-4" aria-label={title}>
      <h3 className="font-semibold">{title}</h3>
      <input type="hidden" name="intent" value={address ? "address-update" : "address-add"} />
      {address ? <input type="hidden" name="id" value={address.id} /> : null}
      {fetcher.data && !fetcher.data.ok && !errors ? <FormAlert title="Not saved">{fetcher.data.message}</FormAlert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {field("firstName", "First Name", "given-name", { required: true, maxLength: 100 })}
        {field("lastName", "Last Name", "family-name", { required: true, maxLength: 100 })}
        {field("address", "Address", "street-address", { required: true, maxLength: 300, className: "sm:col-span-2" })}
        {field("city", "City", "address-level2", { required: true, maxLength: 100 })}
        {field("state", "State", "address-level1", { required: !regionMayBeBlank(country), maxLength: 100, list: `${prefix}-regions` })}
        {field("zipCode", "ZIP Code", "postal-code", { required: true, maxLength: 20 })}
        {field("phone", "Phone (optional)", "tel", { type: "tel", maxLength: 40 })}
        <div className="grid gap-2">
          <Label htmlFor={`${prefix}-country`}>Country</Label>
          <NativeSelect
            id={`${prefix}-country`}
            name="country"
            autoComplete="country"
            defaultValue={address?.country ?? "US"}
            wrapperClassName="w-full"
            onChange={(e) => setCountry(e.target.value)}
          >
            {COUNTRY_OPTIONS.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </NativeSelect>
          {errors?.country ? <p className="text-sm text-destructive">{errors.country.join(" ")}</p> : null}
        </div>
        <RegionOptions id={`${prefix}-regions`} country={country} />
      </div>
      {address?.isDefault ? null : (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="makeDefault" className="size-4 accent-primary" />
          Use as my default address
        </label>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle" ? "Saving..." : "Save address"}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </fetcher.Form>
  );
}
