/**
 * Site settings: five keys, each an object (docs/rules/catalogue-data.md). Browser-safe and free of zod, because every
 * page loads it (root, storefront layout): the admin's input schema is in site-settings-input.ts, and the rules a
 * stored value must pass (colours, image addresses) with the merge over these defaults in site-settings-rules.ts.
 */
export const SETTING_KEYS = ["site_branding", "theme_colors", "hero_section", "featured_section", "footer_content"] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const BRAND_NAME = "Linen & Loft";

export const DEFAULT_SETTINGS = {
  site_branding: { logo_text: BRAND_NAME, logo_url: "" },
  theme_colors: { primary: "hsl(220, 70%, 50%)", secondary: "hsl(220, 20%, 90%)" },
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
  footer_content: {
    brand_description: "Premium bedding, furniture and home goods, made to last and chosen for better sleep.",
    newsletter_title: "Stay in the loop",
    newsletter_description: "Sleep tips, new arrivals and members-only offers. No spam, unsubscribe any time.",
    copyright: `© ${new Date().getUTCFullYear()} ${BRAND_NAME}. All rights reserved.`,
  },
} as const satisfies Record<SettingKey, Record<string, string>>;

export type SiteSettings = { [K in SettingKey]: { [F in keyof (typeof DEFAULT_SETTINGS)[K]]: string } };
