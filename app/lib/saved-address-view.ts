/**
 * A signed-in shopper's saved address as the profile's Addresses tab and the checkout see it
 * (docs/rules/after-sale.md, Saved addresses). Plain types and helpers, no zod: the checkout
 * page imports this.
 */

export type SavedAddress = {
  id: string;
  firstName: string;
  lastName: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  isDefault: boolean;
};

/** The fields a shopper types, in the checkout's names (app/lib/checkout.ts). */
export const SAVED_ADDRESS_FIELDS = ["firstName", "lastName", "phone", "address", "city", "state", "zipCode", "country"] as const;
export type SavedAddressField = (typeof SAVED_ADDRESS_FIELDS)[number];

/** The most addresses one shopper keeps; an order's address is not kept past it. */
export const MAX_SAVED_ADDRESSES = 20;

/** One line, for a list or a select: 'Casey Customer, 1 Test Street, Springfield, IL 62701, US'. */
export function addressSummary(a: Omit<SavedAddress, "id" | "isDefault">): string {
  return [`${a.firstName} ${a.lastName}`.trim(), a.address, a.city, `${a.state} ${a.zipCode}`.trim(), a.country].filter(Boolean).join(", ");
}
