import { SETTING_KEYS, type SettingKey, type SiteSettings } from "./site-settings";
import { DEFAULT_SETTINGS } from "./site-settings-defaults";

/**
 * What a stored site setting must be, and the merge of stored rows over the defaults. Apart from
 * ./site-settings, which every storefront page loads, because only the server and the admin's
 * settings screen use these.
 */

/**
 * A CSS colour in hsl() notation, e.g. `hsl(220, 70%, 50%)` or `hsl(220 70% 50%)`. Nothing else
 * is accepted, so a theme value can never carry other CSS into the page.
 */
export const HSL_PATTERN =
  /^hsl\(\s*(\d{1,3}(?:\.\d+)?)(?:deg)?\s*(?:,\s*|\s+)(\d{1,3}(?:\.\d+)?)%\s*(?:,\s*|\s+)(\d{1,3}(?:\.\d+)?)%\s*\)$/i;

export function isValidHsl(value: string): boolean {
  const m = HSL_PATTERN.exec(value.trim());
  if (!m) return false;
  const [h, s, l] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return h <= 360 && s <= 100 && l <= 100;
}

/**
 * An image address: a path on this site or an http(s) URL, without whitespace, quotes,
 * parentheses, backslashes, semicolons or braces, so it can sit inside CSS `url(...)` or an
 * attribute without closing it. Protocol-relative `//host` addresses are refused.
 */
export const safeUrl = (v: string) => v === "" || /^(?:\/(?!\/)|https?:\/\/)[^\s"'()\\<>;{}`]*$/i.test(v);

function fieldValidator(key: SettingKey, field: string): (v: string) => boolean {
  if (key === "theme_colors") return isValidHsl;
  if (field === "logo_url" || field === "background_image") return safeUrl;
  return () => true;
}

/**
 * Fields a saved blank really empties: no logo or hero image, no hero subtitle or description.
 * Any other blank text falls back (an empty logo text or button would leave a nameless link).
 */
const MAY_BE_BLANK = new Set(["site_branding.logo_url", "hero_section.background_image", "hero_section.subtitle", "hero_section.description"]);

/**
 * Merges stored rows over the defaults field by field: a missing, non-string or invalid field
 * falls back for that field only (docs/rules/catalogue-data.md, Site settings).
 */
export function resolveSiteSettings(rows: { settingKey: string; settingValue: unknown }[]): SiteSettings {
  const out = structuredClone(DEFAULT_SETTINGS) as unknown as Record<SettingKey, Record<string, string>>;
  for (const row of rows) {
    if (!(SETTING_KEYS as readonly string[]).includes(row.settingKey)) continue;
    const key = row.settingKey as SettingKey;
    const value = row.settingValue;
    if (!value || typeof value !== "object" || Array.isArray(value)) continue;
    for (const field of Object.keys(DEFAULT_SETTINGS[key])) {
      const v = (value as Record<string, unknown>)[field];
      if (typeof v !== "string") continue;
      const trimmed = v.trim();
      if (trimmed === "" && !MAY_BE_BLANK.has(`${key}.${field}`)) continue;
      if (fieldValidator(key, field)(trimmed)) out[key][field] = trimmed;
    }
  }
  return out as unknown as SiteSettings;
}
