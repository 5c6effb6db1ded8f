/**
 * What the browser sees on the account page: the profile form and the person's own orders.
 * Plain types, safe to import anywhere; app/server/accounts builds these values and is
 * annotated with them.
 */

/** The profile form's values; the email is the account's and only shown. */
export type Profile = { firstName: string; lastName: string; phone: string; email: string };

/** One of the person's orders in the Orders tab; `createdAt` is ISO 8601. */
export type AccountOrder = { id: string; orderNumber: string; createdAt: string; totalAmountCents: number; status: string };
