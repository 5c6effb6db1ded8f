import { sql } from "drizzle-orm";
import {
  DEFAULT_LOWEST_PRICE_SETTING,
  LOWEST_PRICE_DAYS,
  LOWEST_PRICE_SETTING_KEY,
  resolveLowestPriceSetting,
  type LowestPriceSetting,
} from "~/lib/lowest-price";
import { isOnSale } from "~/lib/product";
import { type Db, saveSetting } from "../../platform/index.server";

/**
 * The price history behind 'Lowest price in the last 30 days' (docs/rules/lowest-price.md).
 * Every writer of a price (product create and edit, variation edit, CSV import, bulk edit, the
 * seed) calls recordPrices in its own transaction, so a price is never in force without its row.
 */

type Rows<T> = { rows: T[] };

/**
 * Records the prices of these products and of their active variations as they stand in this
 * transaction, for each one whose price or compare-at price differs from its latest row (so a
 * save that changes no price adds nothing). One statement, however many products (an import batch).
 * A variation's price is the product's plus its adjustment.
 */
export async function recordPrices(tx: Db, productIds: readonly string[]): Promise<void> {
  if (productIds.length === 0) return;
  await tx.execute(sql`
    insert into price_history (product_id, variation_id, price_cents, original_price_cents)
    select c.product_id, c.variation_id, c.price_cents, c.original_price_cents
    from (
      select p.id as product_id, null::uuid as variation_id, p.price_cents, p.original_price_cents
      from products p where p.id = any(${sql.param([...new Set(productIds)])}::uuid[])
      union all
      select v.product_id, v.id, p.price_cents + v.price_adjustment_cents, p.original_price_cents + v.price_adjustment_cents
      from product_variations v join products p on p.id = v.product_id
      where v.active and p.id = any(${sql.param([...new Set(productIds)])}::uuid[])
    ) c
    left join lateral (
      select h.price_cents, h.original_price_cents from price_history h
      where h.product_id = c.product_id and h.variation_id is not distinct from c.variation_id
      order by h.from_at desc, h.id desc limit 1
    ) last on true
    where last.price_cents is distinct from c.price_cents or last.original_price_cents is distinct from c.original_price_cents
    order by c.product_id, c.variation_id nulls first`);
}

/**
 * How a list reads its lowest prices: straight from the table, or remembered per product
 * (app/routes/_edge/remembered.server.ts). A product's own rows change only with its price,
 * which is a change to every listing, so a remembered value lasts exactly as long as it is true.
 */
export type LowestPrices = (productIds: readonly string[]) => Promise<ReadonlyMap<string, number>>;

/**
 * The lowest price of each product during the 30 days before its current reduction began, for
 * those now on sale (docs/rules/lowest-price.md), in one query for a whole listing. The current
 * reduction is the latest unbroken run of rows on sale at today's price; its own price is not its
 * reference. Every row in force at some moment of the 30 days before the run began counts (the one
 * in force when the window opened included); a product with no price before the run has none.
 * Empty when the owner turned the setting off.
 */
export async function lowestPricesBeforeReduction(db: Db, productIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (productIds.length === 0) return out;
  const result = (await db.execute(sql`
    with shown as (
      select coalesce((select (s.setting_value->>'show_beside_reductions')::boolean from site_settings s
                       where s.setting_key = ${LOWEST_PRICE_SETTING_KEY} and jsonb_typeof(s.setting_value->'show_beside_reductions') = 'boolean'), true) as visible
    ),
    h as (
      select product_id, price_cents, from_at,
             coalesce(original_price_cents > price_cents, false) as on_sale,
             row_number() over w as seq,
             lead(from_at) over w as until
      from price_history
      where variation_id is null and product_id = any(${sql.param([...new Set(productIds)])}::uuid[]) and (select visible from shown)
      window w as (partition by product_id order by from_at, id)
    ),
    cur as (
      select distinct on (product_id) product_id, price_cents, seq from h order by product_id, seq desc
    ),
    run as (
      select cur.product_id,
             coalesce(max(h.seq) filter (where not (h.on_sale and h.price_cents = cur.price_cents)), 0) + 1 as first_seq,
             cur.seq as last_seq
      from cur join h using (product_id)
      group by cur.product_id, cur.seq
    ),
    started as (
      select run.product_id, h.seq, h.from_at
      from run join h on h.product_id = run.product_id and h.seq = run.first_seq
      where run.first_seq <= run.last_seq
    )
    select s.product_id as "productId", min(h.price_cents)::int as "lowest"
    from started s join h on h.product_id = s.product_id and h.seq < s.seq
      and h.until > s.from_at - make_interval(days => ${LOWEST_PRICE_DAYS})
    group by s.product_id`)) as Rows<{ productId: string; lowest: number }>;
  for (const row of result.rows) out.set(row.productId, Number(row.lowest));
  return out;
}

/**
 * Adds each card's lowest price (null when none is shown) with one query for the whole list; only
 * reduced products are asked about, and a list without any asks nothing.
 */
export async function withLowestPrices<T extends { id: string; priceCents: number; originalPriceCents: number | null }>(
  db: Db,
  items: T[],
  read: LowestPrices = (ids) => lowestPricesBeforeReduction(db, ids),
): Promise<(T & { lowestPriceCents: number | null })[]> {
  const reduced = items.filter(isOnSale).map((p) => p.id);
  const lowest = reduced.length ? await read(reduced) : new Map<string, number>();
  return items.map((p) => ({ ...p, lowestPriceCents: isOnSale(p) ? (lowest.get(p.id) ?? null) : null }));
}

/** The owner's choice (Site Settings → Inventory); unreadable or missing reads as on. */
export async function getLowestPriceSetting(db: Db): Promise<LowestPriceSetting> {
  const result = (await db.execute(
    sql`select setting_value as value from site_settings where setting_key = ${LOWEST_PRICE_SETTING_KEY}`,
  )) as Rows<{ value: unknown }>;
  return result.rows[0] ? resolveLowestPriceSetting(result.rows[0].value) : DEFAULT_LOWEST_PRICE_SETTING;
}

/** Saves the choice; the site_settings trigger marks every cached storefront page stale. */
export async function saveLowestPriceSetting(db: Db, setting: LowestPriceSetting): Promise<LowestPriceSetting> {
  await saveSetting(db, LOWEST_PRICE_SETTING_KEY, { show_beside_reductions: setting.showBesideReductions });
  return setting;
}
