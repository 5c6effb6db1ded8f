/**
 * Every column that holds something about a person, and what the shop does with it when that
 * person asks (docs/rules/personal-data.md). One list, so nothing is forgotten:
 * - `export`: the section of the download (data.json and its CSV) the column appears in, or why not;
 * - `erase.account`: what erasing an account does (eraseAccount);
 * - `erase.guest`: what a guest's erasure by email does now (eraseGuestData);
 * - `erase.retention`: what happens when an order's retention period ends (eraseExpiredOrderData).
 * tests/integration/personal-data-registry.test.ts reads the live schema and fails on a column whose
 * name suggests personal data and that is neither here nor in NOT_PERSONAL with a reason.
 */

import { ERASED_EMAIL, ERASED_NAME, ERASED_TEXT } from "../../platform/index.server";

export { ERASED_EMAIL, ERASED_NAME, ERASED_TEXT };

/**
 * - `delete-row`: the row goes (a database cascade from `users` counts: the row goes in the same transaction);
 * - `set-null`: the link to the person is cut, the row stays;
 * - `replace`: the value becomes `with` (a fixed text);
 * - `keep`: this step leaves it, `why` says until when (orders: until the retention period ends);
 * - `derived`: a roll-up the database keeps from other columns: it follows them (no code writes it);
 * - `expires`: a short-lived row that removes itself (rate-limit windows, one-time links).
 */
export type Erasure =
  | { do: "delete-row" }
  | { do: "set-null" }
  | { do: "replace"; with: string }
  | { do: "keep"; why: string }
  | { do: "derived"; from: string }
  | { do: "expires"; within: string }
  | { do: "choice"; options: string };

export type ExportSection =
  | "account"
  | "sessions"
  | "addresses"
  | "orders"
  | "order_lines"
  | "returns"
  | "reviews"
  | "newsletter"
  | "saved_cart"
  | "contact_messages"
  | "consents";

export type PersonalColumn = {
  table: string;
  column: string;
  /** What it holds, in a few words. */
  holds: string;
  export: { section: ExportSection } | { no: string };
  erase: { account: Erasure; guest: Erasure; retention?: Erasure };
};

const KEEP_ORDER: Erasure = { do: "keep", why: "the order is the shop's record until the retention period ends" };
const NOT_GUEST: Erasure = { do: "keep", why: "belongs to an account; only the account's erasure removes it" };
const CASCADE: Erasure = { do: "delete-row" };

const account = (column: string, holds: string, exported: PersonalColumn["export"] = { section: "account" }): PersonalColumn => ({
  table: "users",
  column,
  holds,
  export: exported,
  erase: { account: CASCADE, guest: NOT_GUEST },
});

const order = (column: string, holds: string, replaceWith: string): PersonalColumn => ({
  table: "orders",
  column,
  holds,
  export: { section: "orders" },
  erase: { account: KEEP_ORDER, guest: KEEP_ORDER, retention: { do: "replace", with: replaceWith } },
});

const address = (column: string, holds: string): PersonalColumn => ({
  table: "saved_addresses",
  column,
  holds,
  export: { section: "addresses" },
  erase: { account: CASCADE, guest: NOT_GUEST },
});

const profile = (column: string, holds: string): PersonalColumn => ({
  table: "profiles",
  column,
  holds,
  export: { section: "account" },
  erase: { account: CASCADE, guest: NOT_GUEST },
});

const secret = (table: string, column: string, holds: string): PersonalColumn => ({
  table,
  column,
  holds,
  export: { no: "a secret or a credential: giving it out would let anyone who sees the file sign in" },
  erase: { account: CASCADE, guest: NOT_GUEST },
});

export const PERSONAL_DATA: readonly PersonalColumn[] = [
  // The account (better-auth's tables): every row goes with the account, by cascade from users.
  account("id", "the account's id (links the rest)"),
  account("name", "the account holder's name"),
  account("email", "the sign-in address"),
  account("email_verified", "whether the sign-in address was confirmed"),
  account("image", "a profile picture's address, when one was given"),
  account("created_at", "when the account was made"),
  profile("first_name", "first name"),
  profile("last_name", "last name"),
  profile("email", "contact address"),
  profile("phone", "phone number"),
  secret("accounts", "password", "the password's hash"),
  secret("accounts", "access_token", "a sign-in provider's token"),
  secret("accounts", "refresh_token", "a sign-in provider's token"),
  secret("accounts", "id_token", "a sign-in provider's token"),
  secret("accounts", "account_id", "the id at the sign-in provider"),
  secret("sessions", "token", "the session's token"),
  {
    table: "sessions",
    column: "ip_address",
    holds: "the address a session signed in from",
    export: { section: "sessions" },
    erase: { account: CASCADE, guest: NOT_GUEST },
  },
  {
    table: "sessions",
    column: "user_agent",
    holds: "the browser a session signed in with",
    export: { section: "sessions" },
    erase: { account: CASCADE, guest: NOT_GUEST },
  },
  secret("two_factors", "secret", "the two-factor secret"),
  secret("two_factors", "backup_codes", "the two-factor backup codes"),
  {
    table: "verifications",
    column: "identifier",
    holds: "whom a one-time link or code is for (an address, or a hash of a token)",
    export: { no: "a pending one-time link: a credential" },
    erase: { account: { do: "delete-row" }, guest: { do: "delete-row" } },
  },
  {
    table: "verifications",
    column: "value",
    holds: "what a one-time link carries (may name the account or the address)",
    export: { no: "a pending one-time link: a credential" },
    erase: { account: { do: "delete-row" }, guest: { do: "delete-row" } },
  },
  // Saved addresses: the account's, gone with it (cascade).
  address("first_name", "first name"),
  address("last_name", "last name"),
  address("phone", "phone number"),
  address("address", "street address"),
  address("city", "city"),
  address("state", "state or region"),
  address("zip_code", "postcode"),
  address("country", "country"),
  // The saved cart (cascade from users).
  {
    table: "cart_lines",
    column: "quantity",
    holds: "what the account keeps in its cart",
    export: { section: "saved_cart" },
    erase: { account: CASCADE, guest: NOT_GUEST },
  },
  // Orders: the owner's records. Detached from an erased account (user_id set null by the foreign key),
  // their personal fields kept until the retention period ends, then replaced.
  {
    table: "orders",
    column: "user_id",
    holds: "the account that placed the order",
    export: { no: "the account's own id, given in the account section" },
    erase: { account: { do: "set-null" }, guest: KEEP_ORDER, retention: { do: "keep", why: "already empty for a detached order" } },
  },
  order("email", "the buyer's address", ERASED_EMAIL),
  order("first_name", "the buyer's first name", ERASED_NAME),
  order("last_name", "the buyer's last name", ERASED_TEXT),
  order("phone", "the buyer's phone number", ERASED_TEXT),
  order("address", "the delivery street address", ERASED_TEXT),
  order("city", "the delivery city", ERASED_TEXT),
  order("state", "the delivery state or region", ERASED_TEXT),
  order("zip_code", "the delivery postcode", ERASED_TEXT),
  {
    table: "orders",
    column: "country",
    holds: "the delivery country (tax and shipping were worked out from it)",
    export: { section: "orders" },
    erase: { account: KEEP_ORDER, guest: KEEP_ORDER, retention: { do: "keep", why: "the tax record needs the country, which names nobody" } },
  },
  {
    table: "order_items",
    column: "quantity",
    holds: "what the person bought (lines of their orders)",
    export: { section: "order_lines" },
    erase: { account: KEEP_ORDER, guest: KEEP_ORDER, retention: { do: "keep", why: "the sale's lines name nobody once the order's fields are erased" } },
  },
  {
    table: "order_events",
    column: "note",
    holds: "notes on an order's history (the owner's words; may quote the buyer)",
    export: { no: "the owner's working notes" },
    erase: { account: KEEP_ORDER, guest: KEEP_ORDER, retention: { do: "replace", with: ERASED_TEXT } },
  },
  {
    table: "order_returns",
    column: "reason_text",
    holds: "the buyer's own words on why they return",
    export: { section: "returns" },
    erase: { account: KEEP_ORDER, guest: KEEP_ORDER, retention: { do: "replace", with: ERASED_TEXT } },
  },
  {
    table: "order_returns",
    column: "shopper_message",
    holds: "the buyer's message with a return",
    export: { section: "returns" },
    erase: { account: KEEP_ORDER, guest: KEEP_ORDER, retention: { do: "replace", with: ERASED_TEXT } },
  },
  {
    table: "order_returns",
    column: "requested_by_user_id",
    holds: "the account that asked for the return",
    export: { no: "the account's own id" },
    erase: { account: { do: "set-null" }, guest: KEEP_ORDER },
  },
  {
    table: "test_payment_sessions",
    column: "customer_email",
    holds: "the address the (test) payment page was opened for",
    export: { no: "a copy of the order's address, which the orders section gives" },
    erase: { account: KEEP_ORDER, guest: KEEP_ORDER, retention: { do: "replace", with: ERASED_EMAIL } },
  },
  {
    table: "test_payment_sessions",
    column: "card_last4",
    holds: "the last four digits of the (test) card",
    export: { no: "a payment detail of the provider" },
    erase: { account: KEEP_ORDER, guest: KEEP_ORDER, retention: { do: "set-null" } },
  },
  {
    table: "discount_uses",
    column: "email_key",
    holds: "the buyer's address, lower-cased, for once-per-customer codes",
    export: { no: "a copy of the order's address" },
    erase: { account: KEEP_ORDER, guest: KEEP_ORDER, retention: { do: "set-null" } },
  },
  {
    table: "mail_opt_outs",
    column: "email_key",
    holds: "an address that asked for no reminder mails",
    export: { section: "consents" },
    erase: { account: { do: "keep", why: "the refusal of mail must outlive the data, or the shop would write again" }, guest: { do: "keep", why: "the refusal of mail must outlive the data" } },
  },
  // Reviews: the person chooses.
  {
    table: "reviews",
    column: "author_name",
    holds: "the name a review is signed with",
    export: { section: "reviews" },
    erase: { account: { do: "choice", options: `delete the review, or keep it signed '${ERASED_NAME}'` }, guest: NOT_GUEST },
  },
  {
    table: "reviews",
    column: "body",
    holds: "what the person wrote",
    export: { section: "reviews" },
    erase: { account: { do: "choice", options: "deleted with the review, or kept unsigned" }, guest: NOT_GUEST },
  },
  {
    table: "reviews",
    column: "user_id",
    holds: "the account that wrote the review",
    export: { no: "the account's own id" },
    erase: { account: { do: "set-null" }, guest: NOT_GUEST },
  },
  // Newsletter and contact messages: by address, for accounts and guests alike.
  {
    table: "newsletter_subscriptions",
    column: "email",
    holds: "a newsletter subscriber's address",
    export: { section: "newsletter" },
    erase: { account: { do: "delete-row" }, guest: { do: "delete-row" } },
  },
  {
    table: "newsletter_subscriptions",
    column: "confirmed_at",
    holds: "when the subscriber confirmed (their consent)",
    export: { section: "newsletter" },
    erase: { account: { do: "delete-row" }, guest: { do: "delete-row" } },
  },
  ...(["name", "email", "subject", "message"] as const).map(
    (column): PersonalColumn => ({
      table: "contact_messages",
      column,
      holds: `a contact message's ${column}`,
      export: { section: "contact_messages" },
      erase: { account: { do: "delete-row" }, guest: { do: "delete-row" } },
    }),
  ),
  // Mails the shop sent: the outbox keeps that a mail went, not to whom or what it said.
  ...(
    [
      ["to", ERASED_EMAIL],
      ["subject", ERASED_TEXT],
      ["text", ERASED_TEXT],
      ["html", ERASED_TEXT],
    ] as const
  ).map(
    ([column, replaceWith]): PersonalColumn => ({
      table: "mail_outbox",
      column,
      holds: `a sent mail's ${column} (addresses, names, orders, links)`,
      export: { no: "copies of mails the person received already" },
      erase: { account: { do: "replace", with: replaceWith }, guest: { do: "replace", with: replaceWith } },
    }),
  ),
  // Roll-ups the database keeps from the rows above (drizzle/0013_customers_rollup.sql, 0018).
  {
    table: "customers",
    column: "email",
    holds: "the customer list's address",
    export: { no: "a copy of the account's or the orders' address" },
    erase: { account: { do: "derived", from: "users.email, orders.email" }, guest: { do: "derived", from: "orders.email" } },
  },
  {
    table: "customers",
    column: "name",
    holds: "the customer list's name",
    export: { no: "a copy of the account's or the orders' name" },
    erase: { account: { do: "derived", from: "users.name, orders.first_name/last_name" }, guest: { do: "derived", from: "orders" } },
  },
  {
    table: "customers",
    column: "email_key",
    holds: "the customer list's lower-cased address",
    export: { no: "a copy of the address" },
    erase: { account: { do: "derived", from: "users.email, orders.email" }, guest: { do: "derived", from: "orders.email" } },
  },
  {
    table: "sales_counted_orders",
    column: "email_key",
    holds: "a counted order's lower-cased address (repeat-customer figures)",
    export: { no: "a copy of the order's address" },
    erase: { account: { do: "derived", from: "orders.email" }, guest: { do: "derived", from: "orders.email" } },
  },
  // Short-lived rows.
  {
    table: "rate_limits",
    column: "key",
    holds: "a client address or an address asked about, while a rate-limit window lasts",
    export: { no: "a counter that ends within the hour" },
    erase: { account: { do: "expires", within: "the window (at most an hour)" }, guest: { do: "expires", within: "the window (at most an hour)" } },
  },
];

/**
 * Columns whose names sound personal but hold nothing about a person. The registry test accepts
 * them only from here, each with its reason.
 */
export const NOT_PERSONAL: Readonly<Record<string, string>> = {
  "categories.name": "a category's name",
  "products.name": "a product's name",
  "variation_types.name": "a variation type's name (Size, Colour)",
  "order_items.name": "the product's name as sold",
  "sales_daily_products.name": "the product's name in a roll-up",
  "sales_monthly_products.name": "the product's name in a roll-up",
  "shipping_rates.name": "a shipping rate's name",
  "shipping_zones.name": "a shipping zone's name",
  "orders.shipping_name": "the shipping rate's name on the order",
  "orders.tax_name": "the tax's name on the order (VAT)",
  "tax_settings.tax_name": "the tax's name",
  "orders.email_about_order": "whether the order mails are wanted (a flag)",
  "discount_codes.once_per_email": "a discount code's rule (a flag)",
  "shipping_zones.postcode_prefixes": "the postcodes a shipping zone covers",
  "payment_tasks.note": "the shop's own note on a refund or provider call",
};

/** Names that suggest a person's data; the registry test checks every column matching one. */
export const PERSONAL_NAME_PATTERN =
  /(^|_)(e?mail|name|first_name|last_name|phone|mobile|address|line1|line2|city|postcode|postal|zip|zip_code|ip|ip_address|user_agent|note|notes|message|birth|birthday|dob|ssn|iban|card_last4)(_|$)/i;

export const registryKey = (table: string, column: string) => `${table}.${column}`;

/** The registered columns of one export section. */
export const exportedColumns = (section: ExportSection) =>
  PERSONAL_DATA.filter((c) => "section" in c.export && c.export.section === section).map((c) => c.column);
