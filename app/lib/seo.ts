import { BRAND_NAME } from "./site-settings";
import type { MetaDescriptor } from "react-router";

/** Browser-safe SEO helpers: every page's meta() builds its tags through seoMeta(). */

export type SeoInput = {
  title: string;
  description: string;
  /** Absolute URL (loaders build it with absoluteUrl() from PUBLIC_URL). */
  canonical?: string;
  /** Absolute image URL for link previews. */
  image?: string;
  type?: "website" | "product" | "article";
  siteName?: string;
  noindex?: boolean;
};

/** Cuts text at a word boundary for meta descriptions (search engines show about 160 characters). */
export function truncateText(text: string, max = 160): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, "")}…`;
}

/** Title, description, canonical link, Open Graph and Twitter card tags. */
export function seoMeta(input: SeoInput): MetaDescriptor[] {
  const description = truncateText(input.description);
  const tags: MetaDescriptor[] = [
    { title: input.title },
    { name: "description", content: description },
    { property: "og:title", content: input.title },
    { property: "og:description", content: description },
    { property: "og:type", content: input.type ?? "website" },
    { name: "twitter:card", content: input.image ? "summary_large_image" : "summary" },
  ];
  if (input.siteName) tags.push({ property: "og:site_name", content: input.siteName });
  if (input.canonical) {
    tags.push({ tagName: "link", rel: "canonical", href: input.canonical });
    tags.push({ property: "og:url", content: input.canonical });
  }
  if (input.image) tags.push({ property: "og:image", content: input.image });
  if (input.noindex) tags.push({ name: "robots", content: "noindex, follow" });
  return tags;
}

/**
 * JSON for a `<script type="application/ld+json">`: `<` is escaped so text from the database
 * (a product named `</script>...`) can never close the tag.
 */
export function jsonLd(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

type MetaMatch = { id: string; data?: unknown } | undefined;

/** The shop's name for titles: the logo text saved in settings (from the root loader), else the default. */
export function brandFrom(matches: readonly MetaMatch[]): string {
  const root = matches.find((m) => m?.id === "root")?.data as { settings?: { site_branding?: { logo_text?: string } } } | undefined;
  return root?.settings?.site_branding?.logo_text || BRAND_NAME;
}
