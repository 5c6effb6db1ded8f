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
  unionLists,
} from "./fields.server";
import { defaultDraft, type Assembler, type Header, type Outcome } from "./formats.server";
import { MISSING_TITLE } from "./generic-format.server";
import { PRODUCT_FIELDS, type ProductVariationDraft } from "./product-draft.server";
import { heaviest, shopifyWeightReader } from "./weight.server";

const COLOUR_OPTION = /^colou?rs?$/i;

type Variant = {
  row: number;
  values: string[];
  priceCents: number | null;
  compareCents: number | null;
  costCents: number | null;
  stock: number | null;
  unlimited: boolean;
  ships: boolean;
  weightGrams: number | null;
};

type Group = { handle: string; first: CsvRecord; variants: Variant[]; images: { url: string; position: number }[]; out: Outcome[] };

/**
 * Shopify's product export, both layouts: the older one (Handle, Body (HTML), Variant Price, Image
 * Src) and the current one (URL handle, Description, Price, Product image URL). Rows with the same
 * handle are one product: the first carries the product, the others add variants and images.
 */
export function shopifyAssembler(header: Header): Assembler {
  const col = {
    handle: header.find("Handle", "URL handle"),
    title: header.find("Title"),
    body: header.find("Body (HTML)", "Description"),
    category: header.find("Product Category", "Product category"),
    type: header.find("Type"),
    tags: header.find("Tags"),
    published: header.find("Published", "Published on online store"),
    status: header.find("Status"),
    giftCard: header.find("Gift Card", "Gift card"),
    sku: header.find("Variant SKU", "SKU"),
    price: header.find("Variant Price", "Price"),
    compare: header.find("Variant Compare At Price", "Compare-at price"),
    cost: header.find("Cost per item", "Variant Cost"),
    qty: header.find("Variant Inventory Qty", "Inventory quantity"),
    tracker: header.find("Variant Inventory Tracker", "Inventory tracker"),
    policy: header.find("Variant Inventory Policy", "Continue selling when out of stock"),
    ships: header.find("Variant Requires Shipping", "Requires shipping"),
    image: header.find("Image Src", "Product image URL"),
    imagePosition: header.find("Image Position", "Image position"),
  };
  const weight = shopifyWeightReader(header);
  const optionCols = [1, 2, 3].map((n) => ({ name: header.find(`Option${n} Name`), value: header.find(`Option${n} Value`) }));
  const cell = (r: CsvRecord, idx: number[]) => firstNonEmpty(r.fields, idx).trim();
  const done = new Set<string>();
  let group: Group | undefined;

  function variantOf(r: CsvRecord, g: Group): Variant | undefined {
    const values = optionCols.map((o) => stripTags(cell(r, o.value)));
    const isVariant = values.some(Boolean) || cell(r, col.price) !== "" || cell(r, col.sku) !== "";
    if (!isVariant) return undefined;
    const price = parsePriceCents(cell(r, col.price), "Price");
    const compare = parsePriceCents(cell(r, col.compare), "Compare-at price");
    const cost = parsePriceCents(cell(r, col.cost), "Cost per item");
    const stock = parseStock(cell(r, col.qty), "Inventory quantity");
    const grams = weight.read(r);
    for (const v of [price, compare, cost, stock, grams]) {
      if (isError(v)) {
        g.out.push({ kind: "error", row: r.row, message: v.error });
        return undefined;
      }
    }
    const policy = cell(r, col.policy).toLowerCase();
    // No inventory tracker: Shopify does not count this variant, so it never runs out.
    const untracked = col.tracker.length > 0 && cell(r, col.tracker) === "";
    return {
      row: r.row,
      values,
      priceCents: price as number | null,
      compareCents: compare as number | null,
      costCents: cost as number | null,
      stock: stock as number | null,
      unlimited: untracked || policy === "continue" || policy === "true",
      ships: parseFlag(cell(r, col.ships)) ?? true,
      weightGrams: grams as number | null,
    };
  }

  function finish(g: Group): Outcome[] {
    const r = g.first;
    const out = g.out;
    const name = stripTags(cell(r, col.title));
    if (!name) return [{ kind: "error", row: r.row, message: MISSING_TITLE }, ...out];
    if (parseFlag(cell(r, col.giftCard)) === true) {
      return [{ kind: "skip", row: r.row, message: `Skipped gift card '${name}': gift cards are not sold in this shop` }, ...out];
    }
    if (g.variants.length > 0 && g.variants.every((v) => !v.ships)) {
      return [{ kind: "skip", row: r.row, message: `Skipped digital product '${name}': it needs no shipping; this shop sells physical goods` }, ...out];
    }
    const d = defaultDraft(r.row, name);
    d.sku = g.handle; // Variants carry SKUs; the handle is the product's stable identity on re-import.
    const description = sanitizeDescription(cell(r, col.body));
    if (description) d.description = description;
    d.category = categoryFrom(cell(r, col.type)) || categoryFrom(cell(r, col.category).replace(/,/g, " ")) || d.category;
    d.tags = splitList(cell(r, col.tags));
    const status = cell(r, col.status).toLowerCase();
    d.active = (status === "" || status === "active") && (parseFlag(cell(r, col.published)) ?? true);
    g.images.sort((a, b) => a.position - b.position);
    d.imageUrl = g.images[0]?.url ?? "";

    const priced = g.variants.filter((v) => v.priceCents !== null);
    const cheapest = priced.reduce<Variant | undefined>((a, v) => (!a || v.priceCents! < a.priceCents! ? v : a), undefined);
    d.priceCents = cheapest?.priceCents ?? 0;
    const compare = cheapest?.compareCents ?? null;
    if (compare !== null && compare > d.priceCents) d.originalPriceCents = compare;
    else if (compare !== null && compare < d.priceCents) {
      out.push({ kind: "note", row: cheapest!.row, message: `The compare-at price of '${name}' is below its price and was ignored` });
    }
    // The cost of the variant whose price the product takes (the cheapest), else the first one given.
    d.costCents = cheapest?.costCents ?? g.variants.find((v) => v.costCents !== null)?.costCents ?? null;
    d.unlimitedStock = g.variants.length > 0 && g.variants.some((v) => v.unlimited);
    d.stockQuantity = d.unlimitedStock ? 0 : g.variants.reduce((sum, v) => sum + (v.stock ?? 0), 0);
    if (d.stockQuantity > 1_000_000) d.stockQuantity = 1_000_000;
    // One weight per product: the heaviest variant's, so weight-based shipping never charges too little.
    d.weightGrams = heaviest(g.variants.map((v) => v.weightGrams));

    const names = optionCols.map((o) => stripTags(cell(r, o.name)));
    const byValue = new Map<string, ProductVariationDraft>();
    names.forEach((type, i) => {
      // Shopify's placeholder for a product without options.
      if (!type || (type === "Title" && g.variants.every((v) => !v.values[i] || v.values[i] === "Default Title"))) return;
      for (const v of g.variants) {
        const value = v.values[i];
        if (!value) continue;
        const key = `${type.toLowerCase()}\u0000${value.toLowerCase()}`;
        const adjustment = (v.priceCents ?? d.priceCents) - d.priceCents;
        const existing = byValue.get(key);
        if (!existing) byValue.set(key, { type, value, priceAdjustmentCents: adjustment, stockQuantity: v.stock ?? 0 });
        else {
          existing.priceAdjustmentCents = Math.min(existing.priceAdjustmentCents, adjustment);
          existing.stockQuantity = Math.min(existing.stockQuantity + (v.stock ?? 0), 1_000_000);
        }
      }
      if (COLOUR_OPTION.test(type)) d.colors = unionLists(d.colors, g.variants.map((v) => v.values[i] ?? ""));
    });
    d.variations = [...byValue.values()];

    const limits = checkDraftLimits(d);
    if (limits.error) return [{ kind: "error", row: r.row, message: limits.error }, ...out];
    if (limits.note) out.push({ kind: "note", row: r.row, message: limits.note });
    return [{ kind: "product", draft: d }, ...out];
  }

  function add(r: CsvRecord, g: Group) {
    const url = firstImageUrl(cell(r, col.image));
    if (url) {
      const position = Number(cell(r, col.imagePosition)) || (r === g.first ? 0 : 1000 + g.images.length);
      g.images.push({ url, position });
    }
    const v = variantOf(r, g);
    if (v) g.variants.push(v);
  }

  return {
    // Shopify has no "featured" flag: a re-import leaves the shop's own choice alone.
    // Without a weight column, a re-import leaves the weights alone.
    // Without a 'Cost per item' column, a re-import leaves the costs alone.
    provided: PRODUCT_FIELDS.filter(
      (f) => f !== "featured" && (f !== "weight_grams" || weight.present) && (f !== "cost_cents" || col.cost.length > 0),
    ),
    push(r) {
      const handle = cell(r, col.handle);
      if (group && handle === group.handle) {
        add(r, group);
        return [];
      }
      const out = group ? finish(group) : [];
      group = undefined;
      if (!handle) return [...out, { kind: "error", row: r.row, message: "Missing handle: every Shopify row needs its product's handle" }];
      if (done.has(handle)) {
        return [...out, { kind: "error", row: r.row, message: `The rows of '${handle}' must follow each other; this row was not imported` }];
      }
      done.add(detach(handle));
      group = { handle, first: r, variants: [], images: [], out: [] };
      add(r, group);
      return out;
    },
    end() {
      const out = group ? finish(group) : [];
      group = undefined;
      return out;
    },
  };
}
