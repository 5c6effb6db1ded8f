import { formatMoney } from "./money";

/**
 * The 30-day lowest price shown beside a reduction (docs/rules/lowest-price.md). Browser-safe: the
 * card, the product page and the admin's setting card read it.
 */

/** The site_settings row that holds the owner's choice; the catalogue decides what it means. */
export const LOWEST_PRICE_SETTING_KEY = "lowest_price";

/** How far back before a reduction the lowest price is looked for. */
export const LOWEST_PRICE_DAYS = 30;

/** The owner's choice: on unless they turned it off. */
export type LowestPriceSetting = { showBesideReductions: boolean };
export const DEFAULT_LOWEST_PRICE_SETTING: LowestPriceSetting = { showBesideReductions: true };

/** The setting's label in Site Settings, and the form field that carries it. */
export const LOWEST_PRICE_SETTING_LABEL = "Show the 30-day lowest price beside reductions";
export const LOWEST_PRICE_FIELD = "show_lowest_price";

/** A stored value in any shape reads as the default unless it says false. */
export function resolveLowestPriceSetting(stored: unknown): LowestPriceSetting {
  const value = (stored as { show_beside_reductions?: unknown } | null | undefined)?.show_beside_reductions;
  return { showBesideReductions: value !== false };
}

/** The line under a reduced price, exactly as shoppers read it. */
export function lowestPriceText(cents: number): string {
  return `Lowest price in the last ${LOWEST_PRICE_DAYS} days: ${formatMoney(cents)}`;
}

/** What the setting card's save answers (JSON). */
export type LowestPriceSettingAnswer = { ok: true; message: string; setting: LowestPriceSetting } | { ok: false; message: string };
