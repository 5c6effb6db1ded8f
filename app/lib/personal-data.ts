/**
 * The shopper's side of their personal data (docs/rules/personal-data.md, The shopper's side):
 * the texts the profile, the footer's 'Your data' page and the confirmation pages show, and the
 * owner's retention setting. Browser-safe: the pages, the admin's card and the server read it.
 */

/** The site_settings row holding how long order records are kept; the people area decides what it means. */
export const ORDER_RETENTION_SETTING_KEY = "order_retention";

/** Years an order is kept as the shop's record after it was placed (the law's usual ten; never under one). */
export const DEFAULT_RETENTION_YEARS = 10;
export const MIN_RETENTION_YEARS = 1;
export const MAX_RETENTION_YEARS = 30;

export type RetentionSetting = { years: number };
export const DEFAULT_RETENTION_SETTING: RetentionSetting = { years: DEFAULT_RETENTION_YEARS };

/** The setting's label in Site Settings, and the form field that carries it. */
export const RETENTION_SETTING_LABEL = "Keep order records for (years)";
export const RETENTION_FIELD = "retention_years";

/** A stored value in any other shape than a whole number in range reads as the default. */
export function resolveRetentionSetting(stored: unknown): RetentionSetting {
  const years = (stored as { years?: unknown } | null | undefined)?.years;
  return typeof years === "number" && Number.isInteger(years) && years >= MIN_RETENTION_YEARS && years <= MAX_RETENTION_YEARS
    ? { years }
    : DEFAULT_RETENTION_SETTING;
}

/** The form's value, or the refusal shown beside the field. */
export function parseRetentionYears(raw: unknown): { ok: true; years: number } | { ok: false; message: string } {
  const text = typeof raw === "string" ? raw.trim() : "";
  const n = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < MIN_RETENTION_YEARS || n > MAX_RETENTION_YEARS) {
    return { ok: false, message: `Enter a whole number of years from ${MIN_RETENTION_YEARS} to ${MAX_RETENTION_YEARS}.` };
  }
  return { ok: true, years: n };
}

/** What the setting card's save answers (JSON). */
export type RetentionSettingAnswer =
  | { ok: true; message: string; setting: RetentionSetting }
  | { ok: false; message: string; fieldErrors?: Record<string, string> };

/** What a mailed confirmation link is for. */
export type DataRequestPurpose = "delete-account" | "export" | "erase";

/** The one answer of the 'Your data' page, whether or not the shop knows the address. */
export const DATA_REQUEST_SENT =
  "If we hold data about this email address, we have sent it a link to confirm. The link works once, within one hour.";

/** The account page's answer when the account has no password to type. */
export const DELETION_LINK_SENT = "We sent you a link to confirm. It works once, within one hour.";

/** The profile's confirmation: what goes and what stays. */
export const DELETION_GOES =
  "Your account, sign-in sessions, saved addresses, saved cart, two-factor settings and newsletter entry are erased at once.";
export const DELETION_STAYS =
  "Your orders stay with us as the shop's records for the period the law requires, then their personal details are erased too.";

/** The profile form's intent for 'Delete my account'. */
export const DELETE_INTENT = "delete-account";

/** The signed-in person's own data as a ZIP. */
export const PROFILE_DATA_ZIP_PATH = "/profile/data.zip";

/** Where a deleted account's visitor lands, signed out. */
export const ACCOUNT_DELETED_PATH = "/account-deleted";
