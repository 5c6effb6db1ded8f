import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    // The category is stored as its name; renaming a category renames it here too (docs/rules/catalogue-data.md).
    category: text("category").notNull().default("Imported"),
    priceCents: integer("price_cents").notNull().default(0),
    originalPriceCents: integer("original_price_cents"),
    /** What one unit costs the shop; null: not given. For the stock report's value at cost. */
    costCents: integer("cost_cents"),
    sku: text("sku").notNull().default(""),
    imageUrl: text("image_url").notNull().default(""),
    featured: boolean("featured").notNull().default(false),
    active: boolean("active").notNull().default(true),
    unlimitedStock: boolean("unlimited_stock").notNull().default(false),
    stockQuantity: integer("stock_quantity").notNull().default(0),
    /** Shipping weight in grams; null: not given (counts as 0 for weight rates). */
    weightGrams: integer("weight_grams"),
    /** At or below this stock the product needs attention; null: the shop's default (docs/rules/analytics.md). */
    lowStockThreshold: integer("low_stock_threshold"),
    /** When the low-stock mail for the current crossing went out; cleared when stock rises above the threshold. */
    lowStockAlertedAt: timestamp("low_stock_alerted_at", { withTimezone: true }),
    /**
     * What a storefront or admin search reads (storefront-search.server.ts): name, category and
     * description, lower-cased, kept by PostgreSQL. Stored, so a search that looks at thousands of
     * rows compares this text as it is instead of building it again for each row.
     */
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(sql`lower(name || ' ' || category || ' ' || description)`),
    rating: real("rating").notNull().default(0),
    reviewCount: integer("review_count").notNull().default(0),
    colors: text("colors").array().notNull().default(sql`'{}'::text[]`),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    check("products_price_nonnegative", sql`${t.priceCents} >= 0`),
    check("products_original_price_nonnegative", sql`${t.originalPriceCents} is null or ${t.originalPriceCents} >= 0`),
    check("products_stock_nonnegative", sql`${t.stockQuantity} >= 0`),
    check("products_cost_nonnegative", sql`${t.costCents} is null or ${t.costCents} >= 0`),
    check("products_low_stock_threshold_nonnegative", sql`${t.lowStockThreshold} is null or ${t.lowStockThreshold} >= 0`),
    check("products_weight_nonnegative", sql`${t.weightGrams} is null or ${t.weightGrams} >= 0`),
    check("products_rating_range", sql`${t.rating} >= 0 and ${t.rating} <= 5`),
    // The storefront's default order: active, featured first, newest first.
    index("products_storefront_idx").on(t.active, t.featured.desc(), t.createdAt.desc()),
    index("products_category_idx").on(t.category, t.active),
    index("products_name_idx").on(t.active, t.name),
    index("products_created_idx").on(t.createdAt.desc()),
    // Storefront listings page through active products in a total order (the id breaks ties), so
    // each sort has an index that matches its ORDER BY exactly and LIMIT stops after one page.
    // (These replaced (active, price) and (active, rating) indexes no query used; every index
    // here is paid for on each imported row.)
    index("products_active_featured_idx")
      .on(t.featured.desc(), t.createdAt.desc(), t.id.desc())
      .where(sql`${t.active}`),
    index("products_active_name_idx").on(t.name, t.id).where(sql`${t.active}`),
    index("products_active_price_idx").on(t.priceCents, t.id).where(sql`${t.active}`),
    index("products_active_rating_idx")
      .on(t.rating.desc(), t.reviewCount.desc(), t.id.desc())
      .where(sql`${t.active}`),
    // Re-imports match products by SKU; empty SKUs are allowed many times.
    uniqueIndex("products_sku_unique").on(t.sku).where(sql`${t.sku} <> ''`),
    // Case-insensitive substring and typo-tolerant search (pg_trgm).
    // Products that need restocking (app/server/catalog/products/low-stock.server.ts): those following the
    // shop's default, searched by stock <= the default, and those with their own threshold at or
    // below it; each index holds only its own few rows. And the latest low-stock crossings.
    index("products_low_stock_default_idx")
      .on(t.stockQuantity)
      .where(sql`${t.active} and not ${t.unlimitedStock} and ${t.lowStockThreshold} is null`),
    index("products_low_stock_own_idx")
      .on(t.stockQuantity)
      .where(sql`${t.active} and not ${t.unlimitedStock} and ${t.lowStockThreshold} is not null and ${t.stockQuantity} <= ${t.lowStockThreshold}`),
    index("products_low_stock_alerted_idx").on(t.lowStockAlertedAt.desc()).where(sql`${t.lowStockAlertedAt} is not null`),
    index("products_name_trgm_idx").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
    index("products_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
  ],
);

/**
 * Active products per category, kept exact by statement-level triggers on products (migration
 * 0005), so /shop's "N products found" is one small read instead of counting every product.
 */
export const productCounts = pgTable("product_counts", {
  category: text("category").primaryKey(),
  activeCount: integer("active_count").notNull().default(0),
});

export const categories = pgTable(
  "categories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [uniqueIndex("categories_name_unique").on(sql`lower(${t.name})`)],
);

export const variationTypes = pgTable(
  "variation_types",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [uniqueIndex("variation_types_name_unique").on(sql`lower(${t.name})`)],
);

export const variationValues = pgTable(
  "variation_values",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    variationTypeId: uuid("variation_type_id")
      .notNull()
      .references(() => variationTypes.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [uniqueIndex("variation_values_type_value_unique").on(t.variationTypeId, sql`lower(${t.value})`)],
);

export const productVariations = pgTable(
  "product_variations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    variationValueId: uuid("variation_value_id")
      .notNull()
      .references(() => variationValues.id, { onDelete: "cascade" }),
    priceAdjustmentCents: integer("price_adjustment_cents").notNull().default(0),
    stockQuantity: integer("stock_quantity").notNull().default(0),
    skuSuffix: text("sku_suffix").notNull().default(""),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    check("product_variations_stock_nonnegative", sql`${t.stockQuantity} >= 0`),
    uniqueIndex("product_variations_product_value_unique").on(t.productId, t.variationValueId),
  ],
);

/**
 * Every price a product and each of its variations has had, from when (docs/rules/lowest-price.md):
 * a row is added, in the writing transaction, whenever a write changes a price or compare-at price
 * (catalog/products/price-history.server.ts). A variation's row holds its own price, the product's
 * plus its adjustment. The storefront's 'Lowest price in the last 30 days' is read from here.
 */
export const priceHistory = pgTable(
  "price_history",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    variationId: uuid("variation_id").references(() => productVariations.id, { onDelete: "cascade" }),
    priceCents: integer("price_cents").notNull(),
    /** The struck-through original price then; null: none. */
    originalPriceCents: integer("original_price_cents"),
    /** When this price began to apply; it ends where the next row of the same product (and variation) begins. */
    fromAt: timestamp("from_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [index("price_history_product_idx").on(t.productId, t.variationId, t.fromAt, t.id)],
);
