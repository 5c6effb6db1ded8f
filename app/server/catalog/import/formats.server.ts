import type { CsvRecord } from "./csv-reader.server";
import type { ProductDraft, ProductField } from "./product-draft.server";

/** The export layouts the importer understands, recognised from the header row alone. */
export type ImportFormat = "generic" | "woocommerce" | "shopify-legacy" | "shopify-2024";

export const FORMAT_LABELS: Record<ImportFormat, string> = {
  generic: "Generic CSV",
  woocommerce: "WooCommerce product export",
  "shopify-legacy": "Shopify product export (older layout)",
  "shopify-2024": "Shopify product export (current layout)",
};

const normalise = (name: string) =>
  name
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase()
    .replace(/[?()]/g, "")
    .replace(/[\s_\-/]+/g, "_")
    .replace(/^_|_$/g, "");

/** Columns by header name, never by position; unknown columns are simply never asked for. */
export class Header {
  readonly names: string[];
  private readonly exact = new Map<string, number>();
  private readonly loose = new Map<string, number>();

  constructor(names: string[]) {
    this.names = names.map((n) => n.replace(/^\uFEFF/, "").trim());
    this.names.forEach((n, i) => {
      if (!this.exact.has(n)) this.exact.set(n, i);
      const key = normalise(n);
      if (key && !this.loose.has(key)) this.loose.set(key, i);
    });
  }

  /** Indexes of the columns present, in the order asked: exact names first, then loose matches. */
  find(...names: string[]): number[] {
    const out: number[] = [];
    const add = (i: number | undefined) => {
      if (i !== undefined && !out.includes(i)) out.push(i);
    };
    for (const n of names) add(this.exact.get(n));
    for (const n of names) add(this.loose.get(normalise(n)));
    return out;
  }

  has(name: string): boolean {
    return this.exact.has(name) || this.loose.has(normalise(name));
  }
}

export function detectFormat(header: Header): ImportFormat {
  if (header.has("URL handle") && (header.has("Price") || header.has("Product image URL"))) return "shopify-2024";
  if (header.has("Handle") && (header.has("Variant Price") || header.has("Body (HTML)") || header.has("Image Src"))) {
    return "shopify-legacy";
  }
  if (header.has("Regular price") || (header.has("In stock?") && header.has("Parent"))) return "woocommerce";
  return "generic";
}

/** A WooCommerce variation row, merged into its parent product once the whole file is read. */
export type VariantMerge = {
  row: number;
  parentSku: string;
  priceCents: number | null;
  originalPriceCents: number | null;
  /** null: the shop does not count this variation's stock. */
  stockQuantity: number | null;
  inStock: boolean;
  /** The variation's own weight in grams; null: it has none (WooCommerce then uses the parent's). */
  weightGrams: number | null;
  colors: string[];
  options: { type: string; value: string }[];
};

export type Outcome =
  | { kind: "product"; draft: ProductDraft }
  | { kind: "merge"; merge: VariantMerge }
  /** The row was refused: "Row N: message". */
  | { kind: "error"; row: number; message: string }
  /** The row was deliberately not imported (a product type the shop does not sell). */
  | { kind: "skip"; row: number; message: string }
  /** The row was imported, with something the admin should know. */
  | { kind: "note"; row: number; message: string };

/** Turns records into products; formats with continuation rows hold a product until it is complete. */
export interface Assembler {
  /** The product columns this file carries; a re-import updates only these. */
  readonly provided: ProductField[];
  push(record: CsvRecord): Outcome[];
  end(): Outcome[];
}

/** What an imported product gets for every column the file does not have (docs/rules/catalogue-data.md, CSV import). */
export function defaultDraft(row: number, name: string): ProductDraft {
  return {
    row,
    name,
    description: `Product: ${name}`,
    category: "Imported",
    priceCents: 0,
    originalPriceCents: null,
    sku: "",
    imageUrl: "",
    featured: false,
    active: true,
    unlimitedStock: false,
    stockQuantity: 0,
    stockCountedAt: null,
    weightGrams: null,
    costCents: null,
    colors: [],
    tags: [],
    variations: [],
  };
}
