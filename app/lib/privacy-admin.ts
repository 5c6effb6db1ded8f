/** The owner's side of personal-data requests (docs/rules/personal-data.md, The owner's side): exact texts shared by the page, the server and the tests. */

export const ERASE_ACCOUNT_INTENT = "erase-account";
export const ERASE_GUEST_INTENT = "erase-guest";

export const EXPORT_LABEL = "Export data";
export const ERASE_LABEL = "Erase";
export const ERASE_DIALOG_TITLE = "Erase this customer's personal data?";
export const ERASE_CONFIRM = "Erase now";
export const ERASED_TOAST = "The customer's personal data has been erased.";
export const ERASE_FAILED = "Data not erased";
/** A form shown before the customer (or their account) was erased by someone else. */
export const ALREADY_ERASED = "This customer's data has already been erased. Reload the customer list.";

/** A form for a customer no longer in the list (erased meanwhile, with no orders to keep a row), or an id that never was one. */
export const CUSTOMER_GONE = "This customer is no longer in the list: their data may have been erased already.";

/** The admin's path to a customer's ZIP. */
export const customerDataPath = (customerId: string) => `/admin/customers/${customerId}/data.zip`;

export const PRIVACY_LOG_PATH = "/admin/privacy";
export const PRIVACY_LOG_TITLE = "Privacy log";

/** What a row of the audit log did, in words. */
export const AUDIT_KIND_TEXT: Record<string, string> = {
  export: "Data exported",
  "erase-account": "Account erased",
  "erase-guest": "Guest data erased",
  "erase-expired-orders": "Expired order data erased",
};

/** Who acted, when it was not an admin. */
export const AUDIT_ACTOR_TEXT: Record<string, string> = {
  customer: "The customer",
  guest: "A guest, by a mailed link",
  system: "The daily retention task",
};
