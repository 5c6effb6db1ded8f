/**
 * What the browser sees of the catalogue: the admin products, categories and variations tables,
 * the product editor, and a page of storefront product cards. Plain types, safe to import
 * anywhere; the server modules that build these values (app/server/catalog/products) are annotated with
 * them, so a change on either side is a type error instead of a silent copy drifting apart.
 */
import type { ProductCardData } from "./product";

/** The admin products table's sortable columns (`?sort=`). */
export type AdminSort = "created" | "name" | "category" | "price" | "stock" | "rating" | "status";

/** The admin products table's search, sort and page, as read from the URL; `stock=low`: only products needing restock. */
export type AdminProductListQuery = { q: string; sort: AdminSort; dir: "asc" | "desc"; page: number; lowStock?: boolean };

export type AdminProductRow = {
  id: string;
  name: string;
  sku: string;
  category: string;
  priceCents: number;
  originalPriceCents: number | null;
  unlimitedStock: boolean;
  stockQuantity: number;
  active: boolean;
  featured: boolean;
  rating: number;
  reviewCount: number;
};

export type AdminProductPage = {
  rows: AdminProductRow[];
  /** Exact below the cap; `totalCapped` says the real number is larger. */
  total: number;
  totalCapped: boolean;
  page: number;
  pageSize: number;
};

/** The product editor's fields. */
export type ProductForEdit = {
  id: string;
  name: string;
  sku: string;
  description: string;
  imageUrl: string;
  priceCents: number;
  originalPriceCents: number | null;
  unlimitedStock: boolean;
  stockQuantity: number;
  /** Shipping weight in grams; null: not given. */
  weightGrams: number | null;
  /** The product's own low-stock threshold; null: the shop's default. */
  lowStockThreshold: number | null;
  /** What one unit costs the shop; null: not given. */
  costCents: number | null;
  category: string;
  active: boolean;
  featured: boolean;
  /** The row's updated_at to the microsecond: the editor sends it back to detect a newer save. */
  version: string;
};

export type AdminCategory = {
  id: string;
  name: string;
  description: string;
  active: boolean;
  /** ISO 8601. */
  createdAt: string;
};

/** An active category as offered in the product and bulk edit dialogs. */
export type CategoryOption = { id: string; name: string };

/** A variation value attached to a product, with its type's name. */
export type AttachedVariation = {
  id: string;
  variationValueId: string;
  typeName: string;
  value: string;
  priceAdjustmentCents: number;
  stockQuantity: number;
  skuSuffix: string;
};

export type AdminVariationValue = { id: string; variationTypeId: string; value: string; active: boolean };
export type AdminVariationType = { id: string; name: string; active: boolean; values: AdminVariationValue[] };

/** What the Edit Product dialog loads: the product (null for a new one), its variations and the choices. */
export type ProductEditorData =
  | { notFound: true }
  | {
      notFound: false;
      product: ProductForEdit | null;
      variations: AttachedVariation[];
      categories: CategoryOption[];
      choices: AdminVariationType[];
      /** The shop's default low-stock threshold, shown where the product has none of its own. */
      lowStockDefault?: number;
    };

/** One page of storefront product cards ('Load More'); `hasMore` while more follow. */
export type ProductCardPage = { items: ProductCardData[]; hasMore: boolean };
