/**
 * Site settings: five keys, each an object (docs/rules/catalogue-data.md). Browser-safe and free of zod, because every
 * page loads it (root, storefront layout): the admin's input schema is in site-settings-input.ts, and the rules a
 * stored value must pass (colours, image addresses) with the merge over these defaults in site-settings-rules.ts.
 */
export const SETTING_KEYS = ["site_branding", "theme_colors", "hero_section", "featured_section", "footer_content"] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const BRAND_NAME = "Linen & Loft";

/**
 * The defaults of the keys the layout and the root fall back on (branding, theme, footer), which
 * every page's browser code carries. The other keys' defaults and the whole set, which only the
 * admin, the seed and the server read (DEFAULT_SETTINGS), are in site-settings-defaults.ts, so they stay out of the
 * storefront chunk (docs/decisions/0022-storefront-first-load-on-every-page.md).
 */
export const DEFAULT_BRANDING = { logo_text: BRAND_NAME, logo_url: "" } as const;
export const DEFAULT_THEME = { primary: "hsl(220, 70%, 50%)", secondary: "hsl(220, 20%, 90%)" } as const;
export const DEFAULT_FOOTER = {
  brand_description: "Premium bedding, furniture and home goods, made to last and chosen for better sleep.",
  newsletter_title: "Stay in the loop",
  newsletter_description: "Sleep tips, new arrivals and members-only offers. No spam, unsubscribe any time.",
  copyright: `© ${new Date().getUTCFullYear()} ${BRAND_NAME}. All rights reserved.`,
} as const;

type Texts<T> = { [F in keyof T]: string };

/** Each key's fields, all strings; DEFAULT_SETTINGS (site-settings-defaults.ts) fills every one. */
export type SiteSettings = {
  site_branding: Texts<typeof DEFAULT_BRANDING>;
  theme_colors: Texts<typeof DEFAULT_THEME>;
  hero_section: Record<"title" | "subtitle" | "description" | "cta_primary" | "cta_secondary" | "background_image", string>;
  featured_section: Record<"title" | "description", string>;
  footer_content: Texts<typeof DEFAULT_FOOTER>;
};
