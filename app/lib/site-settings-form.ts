import { SETTING_KEYS, type SettingKey } from "./site-settings";
import { DEFAULT_SETTINGS } from "./site-settings-defaults";
import { SiteSettingsInput } from "./site-settings-input";

/** The settings editor's tabs and labels (docs/rules/admin.md, Site settings), shared by the page and its action. */
export const SETTINGS_TABS: { value: string; label: string; key: SettingKey }[] = [
  { value: "branding", label: "Branding", key: "site_branding" },
  { value: "theme", label: "Theme", key: "theme_colors" },
  { value: "hero", label: "Hero Section", key: "hero_section" },
  { value: "featured", label: "Featured Section", key: "featured_section" },
  { value: "footer", label: "Footer", key: "footer_content" },
];

export const FIELD_LABELS: { [K in SettingKey]: Record<keyof (typeof DEFAULT_SETTINGS)[K], string> } = {
  site_branding: { logo_text: "Logo Text", logo_url: "Logo Image" },
  theme_colors: { primary: "Primary Color (HSL)", secondary: "Secondary Color (HSL)" },
  hero_section: {
    title: "Hero Title",
    subtitle: "Hero Subtitle",
    description: "Hero Description",
    cta_primary: "Primary Button Text",
    cta_secondary: "Secondary Button Text",
    background_image: "Background Image",
  },
  featured_section: { title: "Section Title", description: "Section Description" },
  footer_content: {
    brand_description: "Brand Description",
    newsletter_title: "Newsletter Title",
    newsletter_description: "Newsletter Description",
    copyright: "Copyright Text",
  },
};

/** Form field names are `<setting key>.<field>`, e.g. `theme_colors.primary`. */
export const fieldName = (key: SettingKey, field: string) => `${key}.${field}`;

export type SettingsFormResult =
  | { ok: true; value: import("zod").output<typeof SiteSettingsInput> }
  | { ok: false; fieldErrors: Record<string, string>; summary: string };

/** Reads every field of the five keys from a submitted form and validates them together. */
export function parseSettingsForm(form: FormData): SettingsFormResult {
  const raw: Record<string, Record<string, unknown>> = {};
  for (const key of SETTING_KEYS) {
    raw[key] = {};
    for (const field of Object.keys(DEFAULT_SETTINGS[key])) {
      const v = form.get(fieldName(key, field));
      raw[key][field] = typeof v === "string" ? v : "";
    }
  }
  const parsed = SiteSettingsInput.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const fieldErrors: Record<string, string> = {};
  const lines: string[] = [];
  for (const issue of parsed.error.issues) {
    const [key, field] = issue.path.map(String) as [SettingKey, string];
    const name = fieldName(key, field);
    if (fieldErrors[name]) continue;
    const label = (FIELD_LABELS[key] as Record<string, string>)[field] ?? field;
    fieldErrors[name] = `${label} ${issue.message}`;
    const tab = SETTINGS_TABS.find((t) => t.key === key)?.label ?? key;
    lines.push(`${tab}: ${label} ${issue.message}`);
  }
  return { ok: false, fieldErrors, summary: lines.join(". ") };
}
