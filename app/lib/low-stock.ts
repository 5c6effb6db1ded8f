/**
 * Low stock (docs/rules/analytics.md, Low stock): the shop's default threshold and how a typed
 * threshold is read. Browser-safe: the product form and the site settings form check the same way
 * as the server.
 */

/** The shop's default when the owner never set one. The database function shop_low_stock_threshold() (migration 0017) falls back to the same number. */
export const DEFAULT_LOW_STOCK_THRESHOLD = 5;
export const MAX_LOW_STOCK_THRESHOLD = 1_000_000;

/** The site_settings row that holds the default, apart from the five storefront keys (the storefront never reads it). */
export const INVENTORY_SETTING_KEY = "inventory";
/** The settings form's field name. */
export const LOW_STOCK_FIELD = "inventory.low_stock_threshold";

/**
 * A typed threshold: blank is "not given" (null: the shop's default for a product); a whole number
 * 0–1,000,000; otherwise the message a person should see.
 */
export function parseLowStockThreshold(raw: string, label = "Low-stock threshold"): number | null | string {
  const s = raw.trim();
  if (s === "") return null;
  if (!/^[-+]?\d+(\.\d+)?$/.test(s)) return `${label} must be a whole number`;
  const n = Number(s);
  if (n < 0) return `${label} cannot be negative`;
  if (!Number.isInteger(n)) return `${label} must be a whole number`;
  if (n > MAX_LOW_STOCK_THRESHOLD) return `${label} must be at most 1,000,000`;
  return n;
}

/** A product's own threshold, or the shop's default. */
export function effectiveThreshold(own: number | null, shopDefault: number): number {
  return own ?? shopDefault;
}

export type InventoryFormResult =
  | { ok: true; lowStockThreshold: number | undefined }
  | { ok: false; fieldErrors: Record<string, string>; summary: string };

/** The settings form's Inventory tab. A form without the field (an older page) leaves the setting alone. */
export function parseInventoryForm(form: FormData): InventoryFormResult {
  const raw = form.get(LOW_STOCK_FIELD);
  if (typeof raw !== "string") return { ok: true, lowStockThreshold: undefined };
  const n = parseLowStockThreshold(raw);
  const message = n === null ? "Low-stock threshold is required" : typeof n === "string" ? n : null;
  if (message === null) return { ok: true, lowStockThreshold: n as number };
  return { ok: false, fieldErrors: { [LOW_STOCK_FIELD]: message }, summary: `Inventory: ${message}` };
}
