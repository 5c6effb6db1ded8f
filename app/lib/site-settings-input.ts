import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { isValidHsl, safeUrl } from "./site-settings-rules";

// Apart from site-settings.ts so the storefront, which only reads settings, ships without zod.
const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
/** Texts the storefront cannot do without: the logo's and the hero's names, the two buttons. */
const required = (max: number) => text(max).min(1, "is required");
const url = z
  .string()
  .trim()
  .max(2000)
  .refine(safeUrl, "must be an http(s) address or a path on this site, without spaces, quotes or brackets");
const hsl = z.string().trim().refine(isValidHsl, "must be a colour like hsl(220, 70%, 50%)");

/** What the admin may save (the settings issue uses it in the editor's action). */
export const SiteSettingsInput = z.object({
  site_branding: z.object({ logo_text: required(80), logo_url: url }),
  theme_colors: z.object({ primary: hsl, secondary: hsl }),
  hero_section: z.object({
    title: required(120),
    subtitle: text(200),
    description: text(600),
    cta_primary: required(40),
    cta_secondary: required(40),
    background_image: url,
  }),
  featured_section: z.object({ title: text(120), description: text(400) }),
  footer_content: z.object({
    brand_description: text(400),
    newsletter_title: text(120),
    newsletter_description: text(400),
    copyright: text(200),
  }),
});
