import type { OrderMoney } from "./order-money";

/**
 * What the browser sees on the account page: the profile form and the person's own orders.
 * Plain types, safe to import anywhere; app/server/people/accounts builds these values and is
 * annotated with them.
 */

/** The profile form's values; the email is the account's and only shown. */
export type Profile = { firstName: string; lastName: string; phone: string; email: string };

/** One of the person's orders in the Orders tab, with the money lines it was placed at; `createdAt` is ISO 8601. */
export type AccountOrder = OrderMoney & { id: string; orderNumber: string; createdAt: string; status: string };
