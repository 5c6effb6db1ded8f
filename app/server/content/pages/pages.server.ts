import { eq } from "drizzle-orm";
import { htmlHasContent } from "~/lib/blog";
import { SHOP_PAGE_MESSAGES, type ShopPageSlug } from "~/lib/shop-pages";
import { type Db, DomainError, getEnv, getSiteSettings, shopPages } from "../../platform/index.server";
import { sanitizePostHtml } from "../blog/sanitize.server";
import { TEMPLATES, type TemplateFacts } from "./templates.server";

/**
 * The owner-edited pages, /privacy and /accessibility (docs/rules/visitor-storage.md). A page the
 * owner never saved shows its template, built from the code when read; a saved page is the owner's
 * text, sanitized like a blog post's body on the way in and again on the way out.
 */

export class PageInputError extends DomainError<"bad_input"> {
  constructor(message: string) {
    super(message, "bad_input");
  }
}

async function templateFacts(db: Db): Promise<TemplateFacts> {
  const settings = await getSiteSettings(db);
  return { shopName: settings.site_branding.logo_text, shopEmail: getEnv().SHOP_EMAIL };
}

export type ShopPage = { slug: ShopPageSlug; content: string; fromTemplate: boolean; updatedAt: Date | null };

/** The page as the storefront shows it and the admin edits it. */
export async function getShopPage(db: Db, slug: ShopPageSlug): Promise<ShopPage> {
  const [row] = await db.select().from(shopPages).where(eq(shopPages.slug, slug)).limit(1);
  if (row) return { slug, content: sanitizePostHtml(row.content), fromTemplate: false, updatedAt: row.updatedAt };
  return { slug, content: sanitizePostHtml(TEMPLATES[slug](await templateFacts(db))), fromTemplate: true, updatedAt: null };
}

/** Saves the owner's text (sanitized); an empty page is refused. */
export async function saveShopPage(db: Db, slug: ShopPageSlug, html: unknown, adminId: string): Promise<ShopPage> {
  const content = sanitizePostHtml(typeof html === "string" ? html : "");
  if (!htmlHasContent(content)) throw new PageInputError(SHOP_PAGE_MESSAGES.empty);
  const [row] = await db
    .insert(shopPages)
    .values({ slug, content, updatedBy: adminId })
    .onConflictDoUpdate({ target: shopPages.slug, set: { content, updatedBy: adminId, updatedAt: new Date() } })
    .returning();
  return { slug, content: row!.content, fromTemplate: false, updatedAt: row!.updatedAt };
}

/** Drops the owner's text: the page shows its (current) template again. */
export async function resetShopPage(db: Db, slug: ShopPageSlug): Promise<void> {
  await db.delete(shopPages).where(eq(shopPages.slug, slug));
}
