import type pg from "pg";
import { STEP, type DayCounts, type VisitBatch } from "./visits-batch.server";
import { cartHash, newSalt, utcDay, visitorHash } from "./visits-hash.server";

/**
 * Writes a batch of visit counts in one transaction (docs/rules/analytics.md, Visits), with raw
 * SQL on a pool client: each list goes as one array parameter. Every app server writes its own
 * batches; a transaction-level advisory lock makes them take turns, so "which funnel steps are
 * new for this visitor" is read and written with no other server's write in between (each
 * visitor and step counts once a day across the cluster). A write is a few statements every few
 * seconds per server, so the turns cost nothing a shopper waits for.
 */

/** One-number advisory key; the migration and seed locks are 7_242_001 and 7_242_002. */
const WRITE_LOCK = 7_242_170;
/**
 * A salt is deleted this long after its day ends, not at midnight exactly: a batch counted at
 * 23:59:59 and written a few seconds later still finds its day's salt.
 */
export const SALT_GRACE_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

/** Salts already read, by day; a salt never changes once made. */
export type SaltCache = Map<string, string>;

export type WriteResult = { newVisitors: number; cartAdds: number };

export async function writeBatch(pool: pg.Pool, batch: VisitBatch, salts: SaltCache, now: number): Promise<WriteResult> {
  const client = await pool.connect();
  const result: WriteResult = { newVisitors: 0, cartAdds: 0 };
  try {
    await client.query("begin");
    // A database that hangs must not hold the batch (and its pool client) for ever.
    await client.query("set local statement_timeout = '10s'");
    await client.query("select pg_advisory_xact_lock($1)", [WRITE_LOCK]);
    for (const [day, counts] of batch.days) {
      const salt = await saltOf(client, salts, day);
      const r = await writeDay(client, day, counts, salt);
      result.newVisitors += r.newVisitors;
      result.cartAdds += r.cartAdds;
    }
    await removeExpired(client, salts, now);
    await client.query("commit");
    return result;
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** The day's salt: made by whichever server writes first that day, then read by all. */
async function saltOf(client: pg.PoolClient, salts: SaltCache, day: string): Promise<string> {
  const known = salts.get(day);
  if (known) return known;
  // The select does not see the insert (one snapshot); the union returns whichever exists.
  const { rows } = await client.query<{ salt: string }>(
    `with made as (insert into visit_salts (day, salt) values ($1, $2) on conflict (day) do nothing returning salt)
     select salt from made union all select salt from visit_salts where day = $1 limit 1`,
    [day, newSalt()],
  );
  const salt = rows[0]!.salt;
  salts.set(day, salt);
  return salt;
}

async function writeDay(client: pg.PoolClient, day: string, d: DayCounts, salt: string): Promise<WriteResult> {
  // Visitors: steps are OR-ed into the day's row; only the bits that row did not have yet count.
  const hashes: string[] = [];
  const steps: number[] = [];
  for (const [key, s] of d.visitors) {
    hashes.push(visitorHash(salt, key));
    steps.push(s);
  }
  let gained = { visitors: 0, product_viewers: 0, cart_adders: 0, checkout_starters: 0 };
  if (hashes.length) {
    const { rows } = await client.query<typeof gained>(
      `with input as (select * from unnest($2::text[], $3::int2[]) as t(hash, steps)),
       old as (select v.hash, v.steps from visitor_days v join input using (hash) where v.day = $1),
       upserted as (
         insert into visitor_days (day, hash, steps) select $1, hash, steps from input
         on conflict (day, hash) do update set steps = visitor_days.steps | excluded.steps
         where visitor_days.steps | excluded.steps <> visitor_days.steps)
       select
         count(*) filter (where i.steps & ~coalesce(o.steps, 0::int2) & ${STEP.visitor} <> 0)::int as visitors,
         count(*) filter (where i.steps & ~coalesce(o.steps, 0::int2) & ${STEP.product} <> 0)::int as product_viewers,
         count(*) filter (where i.steps & ~coalesce(o.steps, 0::int2) & ${STEP.cart} <> 0)::int as cart_adders,
         count(*) filter (where i.steps & ~coalesce(o.steps, 0::int2) & ${STEP.checkout} <> 0)::int as checkout_starters
       from input i left join old o using (hash)`,
      [day, hashes, steps],
    );
    gained = rows[0]!;
  }

  // Cart additions: one row per (visitor, product) a day, steps 0 (not a visitor); an existing
  // product only. Only the rows that are new count.
  const pairHashes: string[] = [];
  const pairProducts: string[] = [];
  for (const [key, products] of d.cartPairs) {
    for (const productId of products) {
      pairHashes.push(cartHash(salt, key, productId));
      pairProducts.push(productId);
    }
  }
  let cartAdds = 0;
  if (pairHashes.length) {
    const { rows } = await client.query<{ n: number }>(
      `with input as (select * from unnest($2::text[], $3::uuid[]) as t(hash, product_id)),
       added as (
         insert into visitor_days (day, hash, steps)
         select $1, i.hash, 0 from input i where exists (select 1 from products p where p.id = i.product_id)
         on conflict (day, hash) do nothing returning 1)
       select count(*)::int as n from added`,
      [day, pairHashes, pairProducts],
    );
    cartAdds = rows[0]!.n;
  }

  if (d.paths.size) {
    await client.query(
      `insert into page_views_daily (day, path, views) select $1, * from unnest($2::text[], $3::int[])
       on conflict (day, path) do update set views = page_views_daily.views + excluded.views`,
      [day, [...d.paths.keys()], [...d.paths.values()]],
    );
  }

  if (d.terms.size) {
    const terms = [...d.terms];
    await client.query(
      `insert into search_terms_daily (day, term, searches, empty_searches) select $1, * from unnest($2::text[], $3::int[], $4::int[])
       on conflict (day, term) do update set searches = search_terms_daily.searches + excluded.searches,
         empty_searches = search_terms_daily.empty_searches + excluded.empty_searches`,
      [day, terms.map(([t]) => t), terms.map(([, c]) => c.searches), terms.map(([, c]) => c.empty)],
    );
  }

  const totals = [d.pageViews, gained.visitors, gained.product_viewers, gained.cart_adders, gained.checkout_starters, cartAdds];
  if (totals.some((n) => n > 0)) {
    await client.query(
      `insert into visits_daily (day, page_views, visitors, product_viewers, cart_adders, checkout_starters, cart_adds)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (day) do update set
         page_views = visits_daily.page_views + excluded.page_views,
         visitors = visits_daily.visitors + excluded.visitors,
         product_viewers = visits_daily.product_viewers + excluded.product_viewers,
         cart_adders = visits_daily.cart_adders + excluded.cart_adders,
         checkout_starters = visits_daily.checkout_starters + excluded.checkout_starters,
         cart_adds = visits_daily.cart_adds + excluded.cart_adds`,
      [day, ...totals],
    );
  }
  return { newVisitors: gained.visitors, cartAdds };
}

/**
 * Salts of days that are over (past the grace) and visitor hashes older than yesterday. Both
 * deletes read the primary key's leading column, so most runs find nothing to do at once.
 */
async function removeExpired(client: pg.PoolClient, salts: SaltCache, now: number) {
  const saltsFrom = utcDay(now - SALT_GRACE_MS);
  const hashesFrom = utcDay(now - DAY_MS);
  await client.query("delete from visit_salts where day < $1", [saltsFrom]);
  await client.query("delete from visitor_days where day < $1", [hashesFrom]);
  for (const day of salts.keys()) if (day < saltsFrom) salts.delete(day);
}
