import { DEFAULT_BRANDING, DEFAULT_FOOTER, DEFAULT_THEME, type SettingKey, type SiteSettings } from "./site-settings";

/**
 * Every key's defaults (docs/rules/catalogue-data.md), for the admin, the seed and the server's
 * merge. Kept out of site-settings.ts, which every storefront page loads: the hero's and the
 * featured section's texts are read only here (the home page shows the stored settings, which the
 * server always merges over these).
 */
export const DEFAULT_SETTINGS = {
  site_branding: DEFAULT_BRANDING,
  theme_colors: DEFAULT_THEME,
  hero_section: {
    title: "Sleep Better, Live Better",
    subtitle: "Premium bedding and home essentials",
    description:
      "Discover breathable linens, cloud-soft duvets and thoughtfully made furniture and decor that turn your bedroom into a place to rest.",
    cta_primary: "Shop Now",
    cta_secondary: "Browse Collection",
    background_image: "",
  },
  featured_section: {
    title: "Featured Products",
    description: "Our most-loved pieces for a calmer, cosier home.",
  },
  footer_content: DEFAULT_FOOTER,
} as const satisfies { [K in SettingKey]: SiteSettings[K] };
