/**
 * The mails whose subject and opening paragraph the owner edits in Site Settings → Emails
 * (docs/rules/after-sale.md, Mails and the send log). Browser-safe and free of zod: the admin's
 * editor and the server's templates both read it; the input schema is in mail-templates-input.ts.
 */

export const EDITABLE_MAILS = [
  "email-verification",
  "password-reset",
  "order-confirmation",
  "order-shipped",
  "order-cancelled",
  "abandoned-checkout",
  "return-requested",
  "withdrawal-received",
  "refund-issued",
  "account-deletion",
  "data-export",
  "data-erasure",
] as const;
export type EditableMail = (typeof EDITABLE_MAILS)[number];

export const isEditableMail = (v: unknown): v is EditableMail => typeof v === "string" && (EDITABLE_MAILS as readonly string[]).includes(v);

/** The words a subject or intro may carry in braces; each mail lists the ones it fills. */
export const PLACEHOLDERS = {
  shopName: "the shop's name (Site Settings → Branding)",
  name: "the customer's first name",
  orderNumber: "the order's number",
} as const;
export type Placeholder = keyof typeof PLACEHOLDERS;

export type MailTemplateText = { subject: string; intro: string };

type MailDefinition = MailTemplateText & { label: string; description: string; placeholders: readonly Placeholder[] };

/** Today's subjects are kept as the defaults: shoppers' mail filters and the tests know them. */
export const MAIL_DEFINITIONS: Record<EditableMail, MailDefinition> = {
  "email-verification": {
    label: "Account confirmation",
    description: "Sent when someone creates an account; its button confirms the address.",
    subject: "Confirm your {shopName} account",
    intro: "Welcome to {shopName}! Confirm your email address to finish creating your account.",
    placeholders: ["shopName", "name"],
  },
  "password-reset": {
    label: "Password reset",
    description: "Sent when someone asks for a new password.",
    subject: "Reset your {shopName} password",
    intro: "Someone asked to reset the password of your {shopName} account.",
    placeholders: ["shopName", "name"],
  },
  "order-confirmation": {
    label: "Order confirmation",
    description: "Sent when an order is paid: its lines, every amount, the address and a link to the order.",
    subject: "Order {orderNumber} confirmed",
    intro: "Thank you for your order, {name}! We are getting it ready.",
    placeholders: ["shopName", "name", "orderNumber"],
  },
  "order-shipped": {
    label: "Order shipped",
    description: "Sent when you mark an order shipped, with the carrier and the tracking link.",
    subject: "Order {orderNumber} has shipped",
    intro: "Good news, {name}: your order is on its way.",
    placeholders: ["shopName", "name", "orderNumber"],
  },
  "order-cancelled": {
    label: "Order cancelled",
    description: "Sent when you cancel an order; it says whether the payment was refunded.",
    subject: "Order {orderNumber} cancelled",
    intro: "Hello {name}, your order has been cancelled.",
    placeholders: ["shopName", "name", "orderNumber"],
  },
  "abandoned-checkout": {
    label: "Abandoned-checkout reminder",
    description: "Sent once, some hours after a checkout that was never paid, when the reminder is on (below): the items and a link back to a cart holding them.",
    subject: "Your {shopName} cart is waiting",
    intro: "Hello {name}, you left a few things at checkout. We kept them for you: your cart is one click away.",
    placeholders: ["shopName", "name"],
  },
  "return-requested": {
    label: "Return requested",
    description: "Sent when a shopper asks to return items: the return number, the items and how to send them back (write your instructions here).",
    subject: "Your return for order {orderNumber}",
    intro: "Hello {name}, we have your return request. Pack the items safely and send them to the address on our contact page.",
    placeholders: ["shopName", "name", "orderNumber"],
  },
  "withdrawal-received": {
    label: "Withdrawal received",
    description: "Sent at once when a shopper withdraws from the contract: when, and what was withdrawn.",
    subject: "We received your withdrawal from order {orderNumber}",
    intro: "Hello {name}, this confirms that we received your withdrawal from the contract.",
    placeholders: ["shopName", "name", "orderNumber"],
  },
  "refund-issued": {
    label: "Refund issued",
    description: "Sent once a refund went through at the payment provider: the amount, what it was for and that the money goes back to the card used.",
    subject: "Your refund for order {orderNumber}",
    intro: "Hello {name}, we have refunded part or all of your order.",
    placeholders: ["shopName", "name", "orderNumber"],
  },
  "account-deletion": {
    label: "Account deletion",
    description: "Sent when a shopper without a password asks to delete their account: its link confirms the deletion (once, within an hour).",
    subject: "Confirm deleting your {shopName} account",
    intro: "Hello {name}, someone, hopefully you, asked to delete your {shopName} account.",
    placeholders: ["shopName", "name"],
  },
  "data-export": {
    label: "Data copy (guests)",
    description: "Sent when a guest asks for their data from the footer's 'Your data' page, to an address the shop knows: its link downloads the copy (once, within an hour).",
    subject: "Your data at {shopName}",
    intro: "Someone, hopefully you, asked for a copy of the data {shopName} keeps about this email address.",
    placeholders: ["shopName"],
  },
  "data-erasure": {
    label: "Data erasure (guests)",
    description: "Sent when a guest asks to erase their data from the footer's 'Your data' page, to an address the shop knows: its link confirms the erasure (once, within an hour).",
    subject: "Confirm erasing your data at {shopName}",
    intro: "Someone, hopefully you, asked us to erase the data {shopName} keeps about this email address.",
    placeholders: ["shopName"],
  },
};

export const SUBJECT_MAX = 150;
export const INTRO_MAX = 1000;

/** What the owner changed, per mail; a blank or missing field means the default. */
export type MailTemplateOverrides = Partial<Record<EditableMail, Partial<MailTemplateText>>>;
export type MailTemplates = Record<EditableMail, MailTemplateText>;

/** One line, within the limit: anything else stored by hand is ignored (the default stands). */
const usableSubject = (v: unknown): v is string => typeof v === "string" && v.trim() !== "" && v.length <= SUBJECT_MAX && !/[\r\n]/.test(v);
const usableIntro = (v: unknown): v is string => typeof v === "string" && v.trim() !== "" && v.length <= INTRO_MAX;

/** The stored value over the defaults, field by field (as the site settings are resolved). */
export function resolveMailTemplates(stored: unknown): MailTemplates {
  const value = stored && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  const out = {} as MailTemplates;
  for (const kind of EDITABLE_MAILS) {
    const own = value[kind] && typeof value[kind] === "object" ? (value[kind] as Record<string, unknown>) : {};
    out[kind] = {
      subject: usableSubject(own.subject) ? own.subject.trim() : MAIL_DEFINITIONS[kind].subject,
      intro: usableIntro(own.intro) ? own.intro.trim() : MAIL_DEFINITIONS[kind].intro,
    };
  }
  return out;
}

/**
 * Fills `{shopName}`, `{name}`, `{orderNumber}`; any other braces stay as typed. The result is
 * plain text: the mail puts it in React text nodes (escaped) and the subject through headerSafe.
 */
export function fillPlaceholders(template: string, values: Partial<Record<Placeholder, string>>): string {
  return template.replace(/\{(shopName|name|orderNumber)\}/g, (whole, key: Placeholder) => values[key] ?? whole);
}
