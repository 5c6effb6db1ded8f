import { sql } from "drizzle-orm";
import type { Db } from "../../platform/index.server";
import { unionLists } from "./fields.server";
import type { VariantMerge } from "./formats.server";
import type { ProductVariationDraft } from "./product-draft.server";
import { heaviest } from "./weight.server";
import { recordPrices } from "../products/price-history.server";
import { attachVariations, pgTextArray } from "./write-products.server";

type Parent = { id: string; sku: string; colors: string[] };

/** Groups variation rows by their parent's SKU. */
export function groupMerges(merges: VariantMerge[]): Map<string, VariantMerge[]> {
  const byParent = new Map<string, VariantMerge[]>();
  for (const m of merges) {
    const list = byParent.get(m.parentSku);
    if (list) list.push(m);
    else byParent.set(m.parentSku, [m]);
  }
  return byParent;
}

/**
 * What the variations say about their parent: a variable product costs what its cheapest
 * variation costs, holds the sum of the stock its variations count (or never runs out when one
 * is not counted and in stock), and comes in every colour they come in.
 */
export function mergedParent(list: VariantMerge[]) {
  const priced = list.filter((m) => m.priceCents !== null);
  const cheapest = priced.reduce<VariantMerge | undefined>((a, m) => (!a || m.priceCents! < a.priceCents! ? m : a), undefined);
  const counted = list.filter((m) => m.stockQuantity !== null);
  const unlimited = list.some((m) => m.stockQuantity === null && m.inStock);
  const base = cheapest?.priceCents ?? null;
  const variations: ProductVariationDraft[] = list.flatMap((m) =>
    m.options.map((o) => ({
      type: o.type,
      value: o.value,
      priceAdjustmentCents: base !== null && m.priceCents !== null ? m.priceCents - base : 0,
      stockQuantity: m.stockQuantity ?? 0,
    })),
  );
  return {
    priceCents: base,
    originalPriceCents: cheapest?.originalPriceCents ?? null,
    stockQuantity: counted.length ? Math.min(counted.reduce((s, m) => s + m.stockQuantity!, 0), 1_000_000) : null,
    unlimitedStock: counted.length ? unlimited : null,
    colors: unionLists(...list.map((m) => m.colors)),
    /** The heaviest variation's weight (null: none has one); the parent keeps its own if heavier. */
    weightGrams: heaviest(list.map((m) => m.weightGrams)),
    variations,
  };
}

/**
 * Applies WooCommerce variations to their parents (found by SKU, in this file or already in the
 * shop). Returns the rows whose parent was not found.
 */
export async function applyMerges(db: Db, byParent: Map<string, VariantMerge[]>) {
  const skus = [...byParent.keys()];
  const parents = (
    (await db.execute(sql`select id, sku, colors from products where sku = any(${sql.param(skus)}::text[])`)) as unknown as {
      rows: Parent[];
    }
  ).rows;
  const found = new Map(parents.map((p) => [p.sku, p]));
  const missing: VariantMerge[] = [];
  let merged = 0;
  const links: { productId: string; variation: ProductVariationDraft }[] = [];
  const updates: {
    id: string;
    colors: string;
    price: number | null;
    original: number | null;
    stock: number | null;
    unlimited: boolean | null;
    weight: number | null;
  }[] = [];
  for (const [sku, list] of byParent) {
    const parent = found.get(sku);
    if (!parent) {
      missing.push(...list);
      continue;
    }
    const m = mergedParent(list);
    updates.push({
      id: parent.id,
      colors: pgTextArray(unionLists(parent.colors, m.colors)),
      price: m.priceCents,
      original: m.originalPriceCents,
      stock: m.stockQuantity,
      unlimited: m.unlimitedStock,
      weight: m.weightGrams,
    });
    for (const variation of m.variations) links.push({ productId: parent.id, variation });
    merged += list.length;
  }
  if (updates.length) {
    const a = <T>(f: (u: (typeof updates)[number]) => T) => sql.param(updates.map(f));
    await db.execute(sql`
      update products p set
        colors = u.colors::text[],
        price_cents = coalesce(u.price, p.price_cents),
        original_price_cents = case when u.price is null then p.original_price_cents else u.original end,
        stock_quantity = case when u.unlimited then 0 else coalesce(u.stock, p.stock_quantity) end,
        unlimited_stock = coalesce(u.unlimited, p.unlimited_stock),
        weight_grams = greatest(p.weight_grams, u.weight),
        updated_at = now()
      from unnest(${a((u) => u.id)}::uuid[], ${a((u) => u.colors)}::text[], ${a((u) => u.price)}::int[],
                  ${a((u) => u.original)}::int[], ${a((u) => u.stock)}::int[], ${a((u) => u.unlimited)}::bool[],
                  ${a((u) => u.weight)}::int[])
        as u(id, colors, price, original, stock, unlimited, weight)
      where p.id = u.id`);
  }
  await attachVariations(db, links);
  await recordPrices(db, [...new Set([...updates.map((u) => u.id), ...links.map((l) => l.productId)])]);
  return { merged, missing };
}
