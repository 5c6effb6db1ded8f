import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/index.server";
import type { ProductDraft, ProductField, ProductVariationDraft } from "./product-draft.server";
import { recordPrices } from "../products/price-history.server";

/** PostgreSQL array literal for text[]: each item quoted, backslashes and quotes escaped. */
export function pgTextArray(items: string[]): string {
  return `{${items.map((s) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Creates the categories a batch names that do not exist yet (the unique index on lower(name)
 * settles races) and returns each name as the shop spells it, plus the names it created.
 */
export async function ensureCategories(db: Db, names: string[]) {
  const wanted = [...new Set(names)];
  const created = rowsOf<{ name: string }>(
    await db.execute(sql`
      insert into categories (name)
      select distinct on (lower(n)) n from unnest(${sql.param(wanted)}::text[]) as n
      on conflict do nothing
      returning name`),
  ).map((r) => r.name);
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`select name from categories where lower(name) = any(${sql.param(wanted.map((n) => n.toLowerCase()))}::text[])`),
  );
  const canonical = new Map(rows.map((r) => [r.name.toLowerCase(), r.name]));
  return { canonical, created };
}

/**
 * Writes one batch of products in one statement: new SKUs are inserted, known SKUs updated
 * (products_sku_unique is partial, so products without a SKU are always new). Images that already
 * live in the shop's storage survive a re-import of the external address.
 */
async function upsertProducts(
  db: Db,
  drafts: ProductDraft[],
  canonical: ReadonlyMap<string, string>,
  provided: Set<ProductField>,
  ownImagePrefixes: string[],
) {
  const col = <T>(f: (d: ProductDraft) => T) => drafts.map(f);
  const set: SQL[] = [];
  for (const f of provided) {
    if (f === "image_url") {
      set.push(sql`image_url = case when excluded.image_url = '' or products.image_url like any(${sql.param(ownImagePrefixes.map((p) => `${p}%`))}::text[]) then products.image_url else excluded.image_url end`);
    } else {
      set.push(sql`${sql.identifier(f)} = excluded.${sql.identifier(f)}`);
    }
  }
  set.push(sql`updated_at = now()`);
  const result = await db.execute(sql`
    insert into products (name, description, category, price_cents, original_price_cents, sku, image_url,
                          featured, active, unlimited_stock, stock_quantity, weight_grams, cost_cents, colors, tags)
    select name, description, category, price_cents, original_price_cents, sku, image_url,
           featured, active, unlimited_stock, stock_quantity, weight_grams, cost_cents, colors::text[], tags::text[]
    from unnest(
      ${sql.param(col((d) => d.name))}::text[], ${sql.param(col((d) => d.description))}::text[],
      ${sql.param(col((d) => canonical.get(d.category.toLowerCase()) ?? d.category))}::text[],
      ${sql.param(col((d) => d.priceCents))}::int[], ${sql.param(col((d) => d.originalPriceCents))}::int[], ${sql.param(col((d) => d.sku))}::text[],
      ${sql.param(col((d) => d.imageUrl))}::text[], ${sql.param(col((d) => d.featured))}::bool[], ${sql.param(col((d) => d.active))}::bool[],
      ${sql.param(col((d) => d.unlimitedStock))}::bool[], ${sql.param(col((d) => d.stockQuantity))}::int[],
      ${sql.param(col((d) => d.weightGrams))}::int[], ${sql.param(col((d) => d.costCents))}::int[],
      ${sql.param(col((d) => pgTextArray(d.colors)))}::text[], ${sql.param(col((d) => pgTextArray(d.tags)))}::text[]
    ) as t(name, description, category, price_cents, original_price_cents, sku, image_url,
           featured, active, unlimited_stock, stock_quantity, weight_grams, cost_cents, colors, tags)
    on conflict (sku) where sku <> '' do update set ${sql.join(set, sql`, `)}
    returning id, sku, (xmax = 0) as inserted`);
  return rowsOf<{ id: string; sku: string; inserted: boolean }>(result);
}

/**
 * Attaches variation values to products (Size: Large, Color: Red), creating the variation types
 * and values the shop does not have yet. A value already attached gets the file's adjustment
 * and stock and is made active again.
 */
export async function attachVariations(db: Db, items: { productId: string; variation: ProductVariationDraft }[]) {
  if (items.length === 0) return;
  const types = [...new Map(items.map((i) => [i.variation.type.toLowerCase(), i.variation.type])).values()];
  await db.execute(sql`
    insert into variation_types (name)
    select distinct on (lower(n)) n from unnest(${sql.param(types)}::text[]) as n
    on conflict do nothing`);
  const typeRows = rowsOf<{ id: string; name: string }>(
    await db.execute(sql`select id, name from variation_types where lower(name) = any(${sql.param(types.map((t) => t.toLowerCase()))}::text[])`),
  );
  const typeId = new Map(typeRows.map((r) => [r.name.toLowerCase(), r.id]));
  const pairs = new Map<string, { typeId: string; value: string }>();
  for (const i of items) {
    const t = typeId.get(i.variation.type.toLowerCase())!;
    pairs.set(`${t}\u0000${i.variation.value.toLowerCase()}`, { typeId: t, value: i.variation.value });
  }
  const p = [...pairs.values()];
  // In one order for every writer: two batches taking the same new values in different orders
  // would deadlock.
  await db.execute(sql`
    insert into variation_values (variation_type_id, value)
    select t, v from unnest(${sql.param(p.map((x) => x.typeId))}::uuid[], ${sql.param(p.map((x) => x.value))}::text[]) as u(t, v)
    order by t, lower(v)
    on conflict do nothing`);
  const valueRows = rowsOf<{ id: string; type_id: string; value: string }>(
    await db.execute(sql`
      select vv.id, vv.variation_type_id as type_id, vv.value from variation_values vv
      join unnest(${sql.param(p.map((x) => x.typeId))}::uuid[], ${sql.param(p.map((x) => x.value.toLowerCase()))}::text[]) as u(t, v)
        on vv.variation_type_id = u.t and lower(vv.value) = u.v`),
  );
  const valueId = new Map(valueRows.map((r) => [`${r.type_id}\u0000${r.value.toLowerCase()}`, r.id]));
  // One row per product and value; the last mention wins.
  const links = new Map<string, { productId: string; valueId: string; adj: number; stock: number }>();
  for (const i of items) {
    const t = typeId.get(i.variation.type.toLowerCase())!;
    const v = valueId.get(`${t}\u0000${i.variation.value.toLowerCase()}`)!;
    links.set(`${i.productId}\u0000${v}`, {
      productId: i.productId,
      valueId: v,
      adj: i.variation.priceAdjustmentCents,
      stock: i.variation.stockQuantity,
    });
  }
  const l = [...links.values()];
  await db.execute(sql`
    insert into product_variations (product_id, variation_value_id, price_adjustment_cents, stock_quantity)
    select * from unnest(${sql.param(l.map((x) => x.productId))}::uuid[], ${sql.param(l.map((x) => x.valueId))}::uuid[],
                         ${sql.param(l.map((x) => x.adj))}::int[], ${sql.param(l.map((x) => x.stock))}::int[])
    on conflict (product_id, variation_value_id) do update
      set price_adjustment_cents = excluded.price_adjustment_cents, stock_quantity = excluded.stock_quantity, active = true`);
}

/**
 * One batch: products, then their variations. The caller decides the transaction. Categories in
 * `known` (committed earlier in this import) are not looked up again.
 */
export async function writeProducts(
  db: Db,
  drafts: ProductDraft[],
  provided: Set<ProductField>,
  ownImagePrefixes: string[],
  known: ReadonlyMap<string, string> = new Map(),
) {
  if (drafts.length === 0) return { created: 0, updated: 0, newCategories: [] as string[], categories: new Map<string, string>() };
  const { canonical, created: newCategories } = drafts.every((d) => known.has(d.category.toLowerCase()))
    ? { canonical: known, created: [] as string[] }
    : await ensureCategories(
        db,
        drafts.map((d) => d.category),
      );
  const rows = await upsertProducts(db, drafts, canonical, provided, ownImagePrefixes);
  const idBySku = new Map(rows.filter((r) => r.sku).map((r) => [r.sku, r.id]));
  const items = drafts.flatMap((d) =>
    d.sku && d.variations.length ? d.variations.map((variation) => ({ productId: idBySku.get(d.sku)!, variation })) : [],
  );
  await attachVariations(db, items);
  // Every price the batch set starts or continues its history, in the batch's transaction.
  await recordPrices(db, rows.map((r) => r.id));
  let created = 0;
  for (const r of rows) if (r.inserted) created++;
  return { created, updated: rows.length - created, newCategories, categories: canonical };
}
