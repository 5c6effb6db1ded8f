import fs from "node:fs";
import { once } from "node:events";
import { pgTextArray } from "./write-products.server";

/**
 * Generated product files for benchmarks and load tests: the same rows twice, once as the
 * import's CSV (dollars, lists) and once shaped like the products table for PostgreSQL COPY.
 */

const CATEGORIES = ["Bedding", "Furniture", "Decor", "Accessories", "Bath"];
const MATERIALS = ["Linen", "Cotton", "Wool", "Velvet", "Bamboo", "Oak", "Ceramic"];
const KINDS = ["Duvet Cover", "Pillowcase", "Throw", "Quilt", "Side Table", "Vase", "Lamp", "Towel Set"];
const COLOURS = ["White", "Sand", "Sage", "Charcoal", "Blush", "Navy"];

const csv = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export type SampleRow = {
  name: string;
  description: string;
  category: string;
  priceCents: number;
  originalPriceCents: number | null;
  sku: string;
  imageUrl: string;
  stock: number;
  weightGrams: number;
  colors: string[];
  tags: string[];
};

export function sampleRow(i: number, skuPrefix = "BENCH"): SampleRow {
  const material = MATERIALS[i % MATERIALS.length]!;
  const kind = KINDS[(i * 7) % KINDS.length]!;
  const priceCents = 1999 + ((i * 137) % 30000);
  return {
    name: `${material} ${kind} ${i}`,
    description: `A ${material.toLowerCase()} ${kind.toLowerCase()} made to last, washed soft and finished by hand. Item ${i}, from the Linen & Loft sample range.`,
    category: CATEGORIES[i % CATEGORIES.length]!,
    priceCents,
    originalPriceCents: i % 4 === 0 ? priceCents + 1000 : null,
    sku: `${skuPrefix}-${String(i).padStart(7, "0")}`,
    imageUrl: `https://images.example.com/products/${i}.jpg`,
    stock: (i * 31) % 200,
    weightGrams: 150 + ((i * 53) % 4000),
    colors: [COLOURS[i % COLOURS.length]!, COLOURS[(i + 2) % COLOURS.length]!],
    tags: [material.toLowerCase(), kind.toLowerCase()],
  };
}

const dollars = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

export const IMPORT_HEADER = "title,description,price,original_price,sku,stock_quantity,weight_grams,category,tags,colors,image_url";
export const COPY_COLUMNS = "name, description, category, price_cents, original_price_cents, sku, image_url, stock_quantity, weight_grams, colors, tags";

async function write(stream: fs.WriteStream, text: string) {
  if (!stream.write(text)) await once(stream, "drain");
}

/** Writes `rows` products to `importPath` (the import's CSV) and, if given, `copyPath` (COPY CSV). */
export async function writeSampleCsv(importPath: string, rows: number, opts: { copyPath?: string; skuPrefix?: string } = {}) {
  const out = fs.createWriteStream(importPath);
  const copy = opts.copyPath ? fs.createWriteStream(opts.copyPath) : undefined;
  await write(out, `${IMPORT_HEADER}\n`);
  let a = "";
  let b = "";
  for (let i = 1; i <= rows; i++) {
    const r = sampleRow(i, opts.skuPrefix);
    a += `${[
      csv(r.name),
      csv(r.description),
      dollars(r.priceCents),
      r.originalPriceCents === null ? "" : dollars(r.originalPriceCents),
      r.sku,
      String(r.stock),
      String(r.weightGrams),
      r.category,
      csv(r.tags.join(", ")),
      csv(r.colors.join(", ")),
      r.imageUrl,
    ].join(",")}\n`;
    if (copy) {
      b += `${[
        csv(r.name),
        csv(r.description),
        r.category,
        String(r.priceCents),
        r.originalPriceCents === null ? "" : String(r.originalPriceCents),
        r.sku,
        r.imageUrl,
        String(r.stock),
        String(r.weightGrams),
        csv(pgTextArray(r.colors)),
        csv(pgTextArray(r.tags)),
      ].join(",")}\n`;
    }
    if (a.length > 1 << 16) {
      await write(out, a);
      a = "";
      if (copy) await write(copy, b);
      b = "";
    }
  }
  await write(out, a);
  out.end();
  await once(out, "finish");
  if (copy) {
    await write(copy, b);
    copy.end();
    await once(copy, "finish");
  }
}
