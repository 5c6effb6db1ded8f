import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { SETTING_KEYS } from "~/lib/site-settings";
import { DEFAULT_SETTINGS } from "~/lib/site-settings-defaults";
import { recordPrices } from "../catalog/index.server";
import { createOrPromoteAdmin } from "../people/index.server";
import { blogPosts, categories, type Db, getStorage, products, shopMeta, siteSettings } from "../platform/index.server";
import { demoPosts } from "./demo-posts";
import { demoProducts } from "./demo-products";
import { renderDemoHeroImage, renderDemoImage } from "./demo-images.server";

/** The base product categories (docs/rules/catalogue-data.md), seeded on every database (embedded or not). */
export const BASE_CATEGORIES = [
  { name: "Bedding", description: "Duvets, sheets, pillows and throws" },
  { name: "Furniture", description: "Beds, benches, nightstands and chairs" },
  { name: "Decor", description: "Lamps, vases, mirrors and wall art" },
  { name: "Accessories", description: "Baskets, candles, towels and small comforts" },
  { name: "Imported", description: "Products brought in by CSV import" },
];

const SEED_LOCK = 7_242_002;

async function markerSet(db: Db, key: string) {
  const [row] = await db.select({ key: shopMeta.key }).from(shopMeta).where(eq(shopMeta.key, key));
  return Boolean(row);
}

/** Runs `fn` once per database: guarded by an advisory lock and a marker row written in the same transaction. */
async function once(db: Db, key: string, fn: (tx: Db) => Promise<void>): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    if (await markerSet(tx, key)) return false;
    await fn(tx);
    await tx.insert(shopMeta).values({ key, value: { at: new Date().toISOString() } });
    return true;
  });
}

/** What every shop starts with: the fixed categories. Settings fall back to built-in defaults. */
export async function seedBase(db: Db) {
  return once(db, "base_seeded", async (tx) => {
    await tx.insert(categories).values(BASE_CATEGORIES).onConflictDoNothing();
  });
}

export type DemoSeedResult = { seeded: false } | { seeded: true; admin: { email: string; password: string } };

/**
 * The demo shop: catalogue with generated images, blog, settings and an admin whose password is
 * returned exactly once (the caller prints it). Running it again changes nothing.
 */
export async function seedDemo(db: Db, opts: { images?: boolean } = {}): Promise<DemoSeedResult> {
  await seedBase(db);
  const storage = getStorage();
  const withImages = opts.images ?? true;
  let admin: { email: string; password: string } | undefined;

  // Images are written before the transaction (files are not transactional); rewriting the
  // same keys on a retried first start is harmless.
  const imageUrls = new Map<string, string>();
  let heroUrl = "";
  if (withImages && !(await markerSet(db, "demo_seeded"))) {
    for (const p of demoProducts) {
      const body = await renderDemoImage({ ...p.image, width: 800, height: 800 });
      const { url } = await storage.put(`seed/${p.sku.toLowerCase()}.webp`, body, "image/webp");
      imageUrls.set(p.sku, url);
    }
    for (const post of demoPosts) {
      const body = await renderDemoImage({ ...post.image, width: 1200, height: 675 });
      const { url } = await storage.put(`seed/blog-${post.slug}.webp`, body, "image/webp");
      imageUrls.set(`post:${post.slug}`, url);
    }
    heroUrl = (await storage.put("seed/hero.webp", await renderDemoHeroImage(), "image/webp")).url;
  }

  const seeded = await once(db, "demo_seeded", async (tx) => {
    const now = Date.now();
    const seededProducts = await tx.insert(products).values(
      demoProducts.map((p, i) => ({
        name: p.name,
        description: p.description,
        category: p.category,
        priceCents: p.priceCents,
        originalPriceCents: p.originalPriceCents,
        sku: p.sku,
        imageUrl: imageUrls.get(p.sku) ?? "",
        featured: p.featured,
        active: p.active,
        unlimitedStock: p.unlimitedStock,
        stockQuantity: p.unlimitedStock ? 0 : p.stockQuantity,
        rating: p.rating,
        reviewCount: p.reviewCount,
        colors: p.colors,
        tags: p.tags,
        // Spread creation times so "newest" orders are stable and believable.
        createdAt: new Date(now - i * 3_600_000),
        updatedAt: new Date(now - i * 3_600_000),
      })),
    ).returning({ id: products.id });
    // Their prices start the price history, as every price write does.
    await recordPrices(tx, seededProducts.map((p) => p.id));
    await tx.insert(blogPosts).values(
      demoPosts.map((p) => ({
        title: p.title,
        slug: p.slug,
        excerpt: p.excerpt,
        content: p.content,
        featuredImageUrl: imageUrls.get(`post:${p.slug}`) ?? null,
        tags: p.tags,
        featured: p.featured,
        published: p.published,
        metaTitle: p.metaTitle,
        metaDescription: p.metaDescription,
        createdAt: new Date(now - p.daysAgo * 86_400_000),
        updatedAt: new Date(now - p.daysAgo * 86_400_000),
      })),
    );
    for (const key of SETTING_KEYS) {
      const value =
        key === "hero_section" ? { ...DEFAULT_SETTINGS.hero_section, background_image: heroUrl } : DEFAULT_SETTINGS[key];
      await tx.insert(siteSettings).values({ settingKey: key, settingValue: value }).onConflictDoNothing();
    }
    const password = randomBytes(12).toString("base64url");
    const email = "admin@linenandloft.test";
    await createOrPromoteAdmin(tx, { email, password, name: "Shop Admin" });
    admin = { email, password };
  });
  return seeded && admin ? { seeded: true, admin } : { seeded: false };
}
