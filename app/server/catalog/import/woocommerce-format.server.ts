import type { CsvRecord } from "./csv-reader.server";
import {
  categoryFrom,
  detach,
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
import { defaultDraft, type Assembler, type Header, type Outcome, type VariantMerge } from "./formats.server";
import { MISSING_TITLE } from "./generic-format.server";
import { PRODUCT_FIELDS } from "./product-draft.server";
import { findWeightColumn, readWeight } from "./weight.server";

const COLOUR_ATTRIBUTE = /^(pa_)?colou?rs?$/i;

/** What the shop does with WooCommerce product types it cannot sell: skipped, with the reason. */
const NOT_SOLD: [type: string, reason: string][] = [
  ["grouped", "a grouped product only bundles other products, which are imported from their own rows"],
  ["external", "an external product is sold on another website"],
  ["downloadable", "a downloadable product cannot be shipped; this shop sells physical goods"],
  ["virtual", "a virtual product cannot be shipped; this shop sells physical goods"],
];

/**
 * WooCommerce's exporter writes a line break inside Description and Short description as the two
 * characters `\n`, and a backslash-n that really is in the text as `\\n`; its importer turns
 * both back (WC_Product_CSV_Importer::parse_description_field). So do we, before the description
 * is cleaned. Only this format: in the generic CSV a backslash is just a backslash.
 */
export function unescapeWooLineBreaks(raw: string): string {
  if (!raw.includes("\\")) return raw;
  return raw
    .split("\\\\n")
    .map((part) => part.replaceAll("\\n", "\n"))
    .join("\\n");
}

/**
 * WooCommerce's product export. Simple and variable products become products; a variation row
 * points at its parent (by SKU or "id:N") and is merged into it after the whole file is read, so
 * the order of rows does not matter.
 */
export function wooCommerceAssembler(header: Header): Assembler {
  const col = {
    id: header.find("ID"),
    type: header.find("Type"),
    sku: header.find("SKU"),
    name: header.find("Name"),
    published: header.find("Published"),
    featured: header.find("Is featured?"),
    visibility: header.find("Visibility in catalog"),
    description: header.find("Description"),
    short: header.find("Short description"),
    inStock: header.find("In stock?"),
    stock: header.find("Stock"),
    sale: header.find("Sale price"),
    regular: header.find("Regular price"),
    categories: header.find("Categories"),
    tags: header.find("Tags"),
    images: header.find("Images"),
    parent: header.find("Parent"),
    // 'Weight (kg)', 'Weight (g)', 'Weight (lbs)' or 'Weight (oz)', as the shop's unit setting says.
    weight: findWeightColumn(header),
  };
  const attributes: { name: number[]; values: number[] }[] = [];
  for (let n = 1; header.has(`Attribute ${n} name`); n++) {
    attributes.push({ name: header.find(`Attribute ${n} name`), values: header.find(`Attribute ${n} value(s)`) });
  }
  const cell = (r: CsvRecord, idx: number[]) => firstNonEmpty(r.fields, idx).trim();
  const skuById = new Map<string, string>();
  const pending: VariantMerge[] = [];

  function prices(r: CsvRecord) {
    const regular = parsePriceCents(cell(r, col.regular), "Regular price");
    const sale = parsePriceCents(cell(r, col.sale), "Sale price");
    if (isError(regular)) return regular;
    if (isError(sale)) return sale;
    if (sale !== null && regular !== null && sale < regular) return { price: sale, original: regular as number | null };
    return { price: regular ?? sale, original: null };
  }

  function options(r: CsvRecord) {
    const out: { type: string; values: string[] }[] = [];
    for (const a of attributes) {
      const type = stripTags(cell(r, a.name));
      const values = splitList(cell(r, a.values), /,|\|/);
      if (type && values.length) out.push({ type, values });
    }
    return out;
  }

  /** Empty Stock means WooCommerce does not count it: in stock then is always available. */
  function stockOf(r: CsvRecord) {
    const stock = parseStock(cell(r, col.stock), "Stock");
    if (isError(stock)) return stock;
    const inStockRaw = cell(r, col.inStock).toLowerCase();
    const inStock = inStockRaw === "backorder" || (parseFlag(inStockRaw) ?? true);
    return { stock, inStock };
  }

  return {
    // Without a weight column, a re-import leaves the weights alone. WooCommerce exports no cost:
    // a re-import leaves the shop's own costs alone.
    provided: PRODUCT_FIELDS.filter((f) => (f !== "weight_grams" || col.weight !== null) && f !== "cost_cents"),
    push(r) {
      const types = splitList(cell(r, col.type).toLowerCase());
      const id = cell(r, col.id);
      const sku = cell(r, col.sku);
      if (id && sku) skuById.set(detach(id), detach(sku));
      const name = stripTags(cell(r, col.name));

      if (types.includes("variation")) {
        const p = prices(r);
        if (isError(p)) return [{ kind: "error", row: r.row, message: p.error }];
        const s = stockOf(r);
        if (isError(s)) return [{ kind: "error", row: r.row, message: s.error }];
        const weight = readWeight(r, col.weight);
        if (isError(weight)) return [{ kind: "error", row: r.row, message: weight.error }];
        const opts = options(r);
        pending.push({
          row: r.row,
          parentSku: detach(cell(r, col.parent)),
          priceCents: p.price,
          originalPriceCents: p.original,
          stockQuantity: s.stock,
          inStock: s.inStock,
          weightGrams: weight,
          colors: opts.filter((o) => COLOUR_ATTRIBUTE.test(o.type)).flatMap((o) => o.values.map(detach)),
          options: opts.map((o) => ({ type: detach(o.type), value: detach(o.values[0]!) })),
        });
        return [];
      }
      const notSold = NOT_SOLD.find(([t]) => types.includes(t));
      if (notSold) {
        const label = name ? ` '${name}'` : "";
        return [{ kind: "skip", row: r.row, message: `Skipped ${notSold[0]} product${label}: ${notSold[1]}` }];
      }
      if (!name) return [{ kind: "error", row: r.row, message: MISSING_TITLE }];

      const d = defaultDraft(r.row, name);
      const p = prices(r);
      if (isError(p)) return [{ kind: "error", row: r.row, message: p.error }];
      const s = stockOf(r);
      if (isError(s)) return [{ kind: "error", row: r.row, message: s.error }];
      const weight = readWeight(r, col.weight);
      if (isError(weight)) return [{ kind: "error", row: r.row, message: weight.error }];
      d.weightGrams = weight;
      d.priceCents = p.price ?? 0;
      d.originalPriceCents = p.original;
      d.sku = sku;
      const description = sanitizeDescription(unescapeWooLineBreaks(cell(r, col.description) || cell(r, col.short)));
      if (description) d.description = description;
      d.category = categoryFrom(cell(r, col.categories)) || d.category;
      d.tags = splitList(cell(r, col.tags));
      d.imageUrl = firstImageUrl(cell(r, col.images));
      d.colors = options(r)
        .filter((o) => COLOUR_ATTRIBUTE.test(o.type))
        .flatMap((o) => o.values);
      d.featured = parseFlag(cell(r, col.featured)) ?? false;
      const hidden = cell(r, col.visibility).toLowerCase() === "hidden";
      d.active = (parseFlag(cell(r, col.published)) ?? true) && !hidden;
      if (s.stock !== null) d.stockQuantity = s.stock;
      else d.unlimitedStock = s.inStock;

      const out: Outcome[] = [];
      const limits = checkDraftLimits(d);
      if (limits.error) return [{ kind: "error", row: r.row, message: limits.error }];
      if (limits.note) out.push({ kind: "note", row: r.row, message: limits.note });
      if (types.includes("variable") && !d.sku) {
        out.push({ kind: "note", row: r.row, message: `'${name}' has no SKU, so its variations cannot be merged into it` });
      }
      return [{ kind: "product", draft: d }, ...out];
    },

    end() {
      const out: Outcome[] = [];
      for (const m of pending) {
        const ref = m.parentSku;
        const parentSku = ref.startsWith("id:") ? skuById.get(ref.slice(3)) : ref;
        if (!parentSku) {
          out.push({ kind: "error", row: m.row, message: ref ? `The parent product '${ref}' of this variation is not in the file or has no SKU` : "This variation names no parent product" });
        } else {
          out.push({ kind: "merge", merge: { ...m, parentSku } });
        }
      }
      pending.length = 0;
      return out;
    },
  };
}
