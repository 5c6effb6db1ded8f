/**
 * The owner-edited pages (docs/rules/visitor-storage.md, The pages): their slugs, titles and the
 * editor's texts. Shared by the storefront route, the admin screen and the server.
 */
export const SHOP_PAGES = {
  privacy: { title: "Privacy policy", path: "/privacy", description: "What this shop keeps about you, why, and for how long." },
  accessibility: {
    title: "Accessibility statement",
    path: "/accessibility",
    description: "How accessible this shop is, how it is tested, and how to tell us about a barrier.",
  },
} as const;

export type ShopPageSlug = keyof typeof SHOP_PAGES;
export const SHOP_PAGE_SLUGS = Object.keys(SHOP_PAGES) as ShopPageSlug[];

export const isShopPageSlug = (value: unknown): value is ShopPageSlug =>
  typeof value === "string" && (SHOP_PAGE_SLUGS as string[]).includes(value);

/** Far above any page of text, far below anything that could hurt the server. */
export const SHOP_PAGE_MAX_BYTES = 512 * 1024;

export const SHOP_PAGE_MESSAGES = {
  saved: "Page saved.",
  reset: "The page shows its template again.",
  empty: "The page cannot be empty.",
  tooLarge: "The page is too long.",
  failed: "Failed to save the page. Please try again.",
} as const;
