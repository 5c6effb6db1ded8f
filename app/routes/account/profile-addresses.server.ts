import { data } from "react-router";
import { failed } from "~/routes/_edge/auth-responses.server";
import { addSavedAddress, deleteSavedAddress, parseForm, SavedAddressError, SavedAddressInput, setDefaultSavedAddress, updateSavedAddress } from "~/server/people/index.server";
import { getDb } from "~/server/platform/http/index.server";

/**
 * The profile's Addresses tab posts here (through the profile's action): add, edit, delete, set
 * default. Not a route of its own. The shopper is the session's; the address id comes from the
 * browser and is only ever looked up among that shopper's own addresses.
 */

export const ADDRESS_INTENTS = ["address-add", "address-update", "address-delete", "address-default"] as const;
export type AddressIntent = (typeof ADDRESS_INTENTS)[number];

export const isAddressIntent = (intent: string): intent is AddressIntent => (ADDRESS_INTENTS as readonly string[]).includes(intent);

const TITLES: Record<AddressIntent, [ok: string, failed: string]> = {
  "address-add": ["Address saved", "Address not saved"],
  "address-update": ["Address updated", "Address not updated"],
  "address-delete": ["Address deleted", "Address not deleted"],
  "address-default": ["Default address changed", "Default address not changed"],
};

export async function addressAction(userId: string, intent: AddressIntent, form: FormData) {
  const [okTitle, failTitle] = TITLES[intent];
  const id = String(form.get("id") ?? "");
  const makeDefault = form.get("makeDefault") === "on";
  const db = getDb();
  try {
    if (intent === "address-add" || intent === "address-update") {
      const input = parseForm(SavedAddressInput, form);
      if (!input.ok) return failed(input, failTitle, input.message, { intent, id, fieldErrors: input.fieldErrors });
      if (intent === "address-add") await addSavedAddress(db, userId, input.data, { makeDefault });
      else await updateSavedAddress(db, userId, id, input.data, { makeDefault });
    } else if (intent === "address-delete") {
      await deleteSavedAddress(db, userId, id);
    } else {
      await setDefaultSavedAddress(db, userId, id);
    }
  } catch (err) {
    if (!(err instanceof SavedAddressError)) throw err;
    return failed(err, failTitle, err.message, { intent, id });
  }
  return data({ ok: true as const, intent, id, toast: { kind: "success" as const, title: okTitle } });
}
