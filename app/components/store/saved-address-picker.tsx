import type { ChangeEvent } from "react";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { addressSummary, SAVED_ADDRESS_FIELDS, type SavedAddress } from "~/lib/saved-address-view";

/**
 * The checkout's choice of a signed-in shopper's saved addresses (docs/rules/after-sale.md, Saved
 * addresses): picking one fills the shipping fields of the surrounding form, which stay editable;
 * 'A new address' empties them. The form's own change handler then sees the new address (the
 * quote follows it), since this select's handler runs first.
 */
export function SavedAddressPicker({ addresses, selectedId }: { addresses: SavedAddress[]; selectedId?: string }) {
  function fill(event: ChangeEvent<HTMLSelectElement>) {
    const form = event.currentTarget.form;
    if (!form) return;
    const chosen = addresses.find((a) => a.id === event.currentTarget.value);
    for (const name of SAVED_ADDRESS_FIELDS) {
      const field = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
      if (!field) continue;
      field.value = chosen ? chosen[name] : name === "country" ? "US" : "";
    }
  }
  return (
    <div className="grid gap-1.5">
      <Label htmlFor="checkout-saved-address">Ship to</Label>
      <NativeSelect id="checkout-saved-address" defaultValue={selectedId ?? ""} onChange={fill} wrapperClassName="w-full">
        {addresses.map((a) => (
          <option key={a.id} value={a.id}>
            {a.isDefault ? `${addressSummary(a)} (default)` : addressSummary(a)}
          </option>
        ))}
        <option value="">A new address</option>
      </NativeSelect>
    </div>
  );
}
