/**
 * A product as an import reads it from the file, before it is written, and the product columns an
 * import can write. Shared by the format readers (formats.server.ts and the *-format modules) and
 * the writer (write-products.server.ts), so neither imports the other.
 */

/** The product columns an import can write; a re-import updates only those the file has. */
export const PRODUCT_FIELDS = [
  "name",
  "description",
  "category",
  "price_cents",
  "original_price_cents",
  "image_url",
  "featured",
  "active",
  "unlimited_stock",
  "stock_quantity",
  "weight_grams",
  "cost_cents",
  "colors",
  "tags",
] as const;
export type ProductField = (typeof PRODUCT_FIELDS)[number];

/** One value of a variation type attached to a product (Size: Large, Color: Red). */
export type ProductVariationDraft = { type: string; value: string; priceAdjustmentCents: number; stockQuantity: number };

export type ProductDraft = {
  /** The row the product starts on, for messages. */
  row: number;
  name: string;
  description: string;
  category: string;
  priceCents: number;
  originalPriceCents: number | null;
  sku: string;
  imageUrl: string;
  featured: boolean;
  active: boolean;
  unlimitedStock: boolean;
  stockQuantity: number;
  /**
   * When the file's stock was read from the shop (the shop's own export writes it); null: unknown,
   * as in other shops' files. Sales after it are subtracted on re-import (sales-since-export.server.ts).
   */
  stockCountedAt: Date | null;
  /** Whole grams; null: the file gives none. */
  weightGrams: number | null;
  /** What one unit costs the shop; null: the file gives none. */
  costCents: number | null;
  colors: string[];
  tags: string[];
  variations: ProductVariationDraft[];
};
