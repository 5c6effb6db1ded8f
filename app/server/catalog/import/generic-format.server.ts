import type { CsvRecord } from "./csv-reader.server";
import {
  categoryFrom,
  checkDraftLimits,
  firstImageUrl,
  firstNonEmpty,
  isError,
  parseFlag,
  parsePriceCents,
  parseStock,
  sanitizeDescription,
  splitList,
  stripTags,
} from "./fields.server";
import { defaultDraft, type Assembler, type Header, type Outcome } from "./formats.server";
import type { ProductField } from "./product-draft.server";
import { findWeightColumn, readWeight } from "./weight.server";

// In this order (docs/rules/catalogue-data.md, CSV import): the first non-empty of these is the title, and of the second the image.
export const TITLE_COLUMNS = ["title", "Title", "name", "Name", "product_title", "Product Title", "post_title"];
export const IMAGE_COLUMNS = ["images", "Images", "image", "Image", "image_url", "Image URL", "featured_image", "Featured Image"];

export const MISSING_TITLE = "Missing product title";

/** The column the shop's export writes beside the stock: when that stock was read. */
export const STOCK_COUNTED_AT = "stock_counted_at";

/** An ISO 8601 time with its zone, as the export writes it; empty: unknown. */
function parseCountedAt(raw: string): Date | null | { error: string } {
  if (raw === "") return null;
  const at = /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/.test(raw) ? new Date(raw) : null;
  if (!at || Number.isNaN(at.getTime())) return { error: `Invalid stock counted at '${raw.slice(0, 40)}': expected a time such as 2026-11-28T10:00:00Z` };
  return at;
}

/**
 * The shop's own (generic) CSV: one product per row, any of the named title and image columns,
 * plus the product's fields by their obvious names; the import defaults (docs/rules/catalogue-data.md) fill the rest.
 */
export function genericAssembler(header: Header): Assembler {
  const col = {
    title: header.find(...TITLE_COLUMNS),
    image: header.find(...IMAGE_COLUMNS),
    description: header.find("description", "body_html", "body", "content", "post_content", "short_description"),
    price: header.find("price"),
    sale: header.find("sale_price"),
    original: header.find("original_price", "compare_at_price", "regular_price", "list_price"),
    sku: header.find("sku"),
    stock: header.find("stock_quantity", "stock", "quantity", "inventory", "inventory_quantity"),
    unlimited: header.find("unlimited_stock"),
    category: header.find("category", "categories", "product_category", "product_type"),
    tags: header.find("tags"),
    colors: header.find("colors", "colours", "color", "colour"),
    featured: header.find("featured", "is_featured"),
    active: header.find("active", "status", "published"),
    // weight_grams, or a weight in kg, lbs or oz ('Weight (kg)'…): weight.server.ts.
    weight: findWeightColumn(header),
    cost: header.find("cost_per_item", "Cost per item", "cost_price", "cost"),
    // Written by the shop's own export: when its stock column was read (export-products.server.ts).
    countedAt: header.find(STOCK_COUNTED_AT),
  };
  const cell = (r: CsvRecord, idx: number[]) => firstNonEmpty(r.fields, idx).trim();
  const provided: ProductField[] = ["name"];
  const has = (...cols: number[][]) => cols.some((c) => c.length > 0);
  if (has(col.description)) provided.push("description");
  if (has(col.category)) provided.push("category");
  if (has(col.price, col.sale, col.original)) provided.push("price_cents", "original_price_cents");
  if (has(col.image)) provided.push("image_url");
  if (has(col.stock, col.unlimited)) provided.push("stock_quantity", "unlimited_stock");
  if (has(col.tags)) provided.push("tags");
  if (has(col.colors)) provided.push("colors");
  if (has(col.featured)) provided.push("featured");
  if (has(col.active)) provided.push("active");
  if (col.weight) provided.push("weight_grams");
  if (has(col.cost)) provided.push("cost_cents");

  return {
    provided,
    push(r) {
      const name = stripTags(cell(r, col.title));
      if (!name) return [{ kind: "error", row: r.row, message: MISSING_TITLE }];
      const d = defaultDraft(r.row, name);
      const out: Outcome[] = [];

      const price = parsePriceCents(cell(r, col.price), "Price");
      const sale = parsePriceCents(cell(r, col.sale), "Sale price");
      const original = parsePriceCents(cell(r, col.original), "Original price");
      const stock = parseStock(cell(r, col.stock), "Stock");
      const weight = readWeight(r, col.weight);
      const cost = parsePriceCents(cell(r, col.cost), "Cost per item");
      const countedAt = parseCountedAt(cell(r, col.countedAt));
      for (const v of [price, sale, original, stock, weight, cost, countedAt]) if (isError(v)) return [{ kind: "error", row: r.row, message: v.error }];
      const p = price as number | null;
      const s = sale as number | null;
      const o = original as number | null;
      if (s !== null && o !== null && s < o) {
        d.priceCents = s;
        d.originalPriceCents = o;
      } else {
        d.priceCents = p ?? s ?? o ?? 0;
        d.originalPriceCents = p !== null ? o : null;
      }

      d.sku = cell(r, col.sku);
      d.imageUrl = firstImageUrl(cell(r, col.image));
      const rawImage = cell(r, col.image);
      if (rawImage && !d.imageUrl) out.push({ kind: "note", row: r.row, message: `The image '${rawImage.slice(0, 60)}' is not a web address; imported without an image` });
      const description = sanitizeDescription(cell(r, col.description));
      if (description) d.description = description;
      const category = categoryFrom(cell(r, col.category));
      if (category) d.category = category;
      d.tags = splitList(cell(r, col.tags));
      d.colors = splitList(cell(r, col.colors));
      d.stockQuantity = (stock as number | null) ?? 0;
      d.stockCountedAt = stock === null ? null : (countedAt as Date | null);
      d.weightGrams = weight as number | null;
      d.costCents = cost as number | null;
      d.unlimitedStock = parseFlag(cell(r, col.unlimited)) ?? false;
      if (d.unlimitedStock) d.stockQuantity = 0;
      d.featured = parseFlag(cell(r, col.featured)) ?? false;
      d.active = parseFlag(cell(r, col.active)) ?? true;

      const limits = checkDraftLimits(d);
      if (limits.error) return [{ kind: "error", row: r.row, message: limits.error }];
      if (limits.note) out.push({ kind: "note", row: r.row, message: limits.note });
      return [{ kind: "product", draft: d }, ...out];
    },
    end: () => [],
  };
}
