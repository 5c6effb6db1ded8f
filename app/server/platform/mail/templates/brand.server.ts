import type { SiteSettings } from "~/lib/site-settings";
import { HSL_PATTERN } from "~/lib/site-settings-rules";

/**
 * How the shop looks in a mail: its name and logo (Site Settings → Branding) and its theme
 * colours, as hex, since many mail programs (Outlook among them) ignore hsl(). The neutral
 * colours are the storefront's (app/styles/app.css).
 */
export type MailBrand = {
  name: string;
  /** Absolute, or null: the name is shown as text instead. */
  logoUrl: string | null;
  /** The shop's address without a trailing slash: every link and image in a mail is absolute. */
  baseUrl: string;
  primary: string;
  /** Text on the primary colour: white or near-black, whichever reads better. */
  onPrimary: string;
  secondary: string;
  foreground: string;
  muted: string;
  mutedForeground: string;
  border: string;
  background: string;
};

/** hsl(h, s%, l%) → #rrggbb; null for anything else. */
export function hslToHex(value: string): string | null {
  const m = HSL_PATTERN.exec(value.trim());
  if (!m) return null;
  const h = (Number(m[1]) % 360) / 360;
  const s = Math.min(100, Number(m[2])) / 100;
  const l = Math.min(100, Number(m[3])) / 100;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const x = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    const v = x < 1 / 6 ? p + (q - p) * 6 * x : x < 1 / 2 ? q : x < 2 / 3 ? p + (q - p) * (2 / 3 - x) * 6 : p;
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(h + 1 / 3)}${channel(h)}${channel(h - 1 / 3)}`;
}

/** WCAG relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

const NEAR_BLACK = "#0f172a";

/** White on the colour when that reads at least as well as near-black (a pale theme gets dark text). */
export function readableOn(hex: string): string {
  const l = luminance(hex);
  return contrast(l, 1) >= contrast(l, luminance(NEAR_BLACK)) ? "#ffffff" : NEAR_BLACK;
}

function absolute(url: string, baseUrl: string): string | null {
  if (!url) return null;
  try {
    const u = new URL(url, `${baseUrl}/`);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

export function mailBrand(settings: SiteSettings, baseUrl: string): MailBrand {
  const primary = hslToHex(settings.theme_colors.primary) ?? "#2662d9";
  return {
    name: settings.site_branding.logo_text,
    logoUrl: absolute(settings.site_branding.logo_url, baseUrl),
    baseUrl,
    primary,
    onPrimary: readableOn(primary),
    secondary: hslToHex(settings.theme_colors.secondary) ?? "#e1e5ef",
    foreground: NEAR_BLACK,
    muted: "#f3f4f6",
    mutedForeground: "#4f5b6d",
    border: "#e0e3e9",
    background: "#ffffff",
  };
}

/** An image or link address made absolute against the shop (order lines store /media/… paths). */
export const absoluteUrl = absolute;
