import { and, eq, sql, type SQL } from "drizzle-orm";
import { SHOP_PAGE_SIZE, type ShopSort } from "~/lib/product";
import { builtOnce, type Db, products } from "../../platform/index.server";

/**
 * How a page of product cards is read. Plain listings walk the sort's index and stop after one
 * page. Search results pick a plan from what the capped count says about the match set.
 */

export const cardColumns = {
  id: products.id,
  name: products.name,
  priceCents: products.priceCents,
  originalPriceCents: products.originalPriceCents,
  imageUrl: products.imageUrl,
  rating: products.rating,
  reviewCount: products.reviewCount,
  colors: products.colors,
  unlimitedStock: products.unlimitedStock,
  stockQuantity: products.stockQuantity,
};

export type CardRow = { [K in keyof typeof cardColumns]: (typeof products.$inferSelect)[K] };

/** How many rows of the sort order a search looks through before it sorts its matches instead. */
const WALK_WINDOW = 4000;

type SortColumns = Pick<typeof products, "featured" | "createdAt" | "id" | "name" | "priceCents" | "rating" | "reviewCount">;

// Each ORDER BY matches one partial index on active products exactly (NULLS LAST included), so
// a page is an index walk that stops after LIMIT rows; the id makes the order total for paging.
export function orderBy(sort: ShopSort, c: SortColumns): SQL[] {
  switch (sort) {
    case "name":
      return [sql`${c.name} asc`, sql`${c.id} asc`];
    case "price-low":
      return [sql`${c.priceCents} asc`, sql`${c.id} asc`];
    case "price-high":
      return [sql`${c.priceCents} desc`, sql`${c.id} desc`];
    case "rating":
      return [sql`${c.rating} desc nulls last`, sql`${c.reviewCount} desc nulls last`, sql`${c.id} desc nulls last`];
    default:
      return [sql`${c.featured} desc nulls last`, sql`${c.createdAt} desc nulls last`, sql`${c.id} desc nulls last`];
  }
}

/** Counts matches, but stops at cap + 1: a broad search term costs no more than a narrow one. */
async function countUpTo(db: Db, where: SQL, cap: number): Promise<number> {
  const capped = db.select({ one: sql`1` }).from(products).where(where).limit(cap + 1).as("capped");
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(capped);
  return row?.n ?? 0;
}

/**
 * A listing's page without a search: built once per sort and per "one category or all", then run
 * with the values (unnamed: the best plan depends on the LIMIT and the category).
 */
function listingPageStatement(sort: ShopSort, inCategory: boolean) {
  return builtOnce(null, (db) =>
    db
      .select(cardColumns)
      .from(products)
      .where(
        inCategory
          ? and(eq(products.active, true), eq(products.category, sql.placeholder("category")))
          : eq(products.active, true),
      )
      .orderBy(...orderBy(sort, products))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset")),
  );
}

/** The first page as /shop asks for it: a card more than it shows, to know there are more. */
const FIRST_PAGE_ROWS = SHOP_PAGE_SIZE + 1;

/**
 * The first page of all products in a sort's order, the listing most visits ask for. Nothing in
 * it is a value, so its one plan is the best one: a named statement each connection plans once.
 * With a parameter for `active`, the LIMIT or the OFFSET, PostgreSQL keeps planning it afresh,
 * which cost three times the floor's read of the same rows.
 */
function firstPageStatement(sort: ShopSort) {
  return builtOnce(`listing-first-${sort}-${FIRST_PAGE_ROWS}`, (db) =>
    db
      .select(cardColumns)
      .from(products)
      .where(sql`${products.active}`)
      .orderBy(...orderBy(sort, products))
      // Written into the text: drizzle sends a number LIMIT as a parameter (its types allow only
      // those two, its builder takes any SQL here).
      .limit(sql.raw(String(FIRST_PAGE_ROWS)) as unknown as number),
  );
}

type ListingPageStatement = ReturnType<typeof listingPageStatement>;
const listingPages = new Map<string, ListingPageStatement>();
const firstPages = new Map<ShopSort, ReturnType<typeof firstPageStatement>>();

/** A page of active products (of one category, or all) in the sort's order. */
export function listingPage(db: Db, category: string | null, sort: ShopSort, offset: number, limit: number): Promise<CardRow[]> {
  // Other sizes come from `?page=N` and are few; they stay unnamed rather than add a statement per N.
  if (category === null && offset === 0 && limit === FIRST_PAGE_ROWS) {
    let first = firstPages.get(sort);
    if (!first) firstPages.set(sort, (first = firstPageStatement(sort)));
    return first(db).execute();
  }
  const key = `${sort}/${category !== null}`;
  let statement = listingPages.get(key);
  if (!statement) listingPages.set(key, (statement = listingPageStatement(sort, category !== null)));
  return statement(db).execute({ category, offset, limit });
}

const sortable = { ...cardColumns, featured: products.featured, createdAt: products.createdAt };

/** The card columns of a subquery that selected `sortable` (a drizzle subquery cannot be spread). */
function cardsOf(q: typeof sortable) {
  return {
    id: q.id,
    name: q.name,
    priceCents: q.priceCents,
    originalPriceCents: q.originalPriceCents,
    imageUrl: q.imageUrl,
    rating: q.rating,
    reviewCount: q.reviewCount,
    colors: q.colors,
    unlimitedStock: q.unlimitedStock,
    stockQuantity: q.stockQuantity,
  };
}

/** A LIMIT no result reaches: it only stops the planner from merging the subquery into the outer query. */
const FENCE = 2_147_483_647;

/**
 * A page of a match set known to be small: fetch every match through the trigram index, then
 * sort. Without the fence the planner may walk a sort index instead, which reads the whole
 * catalogue when the few matches sit at the far end of the order.
 */
async function pageOfFew(db: Db, where: SQL, sort: ShopSort, offset: number, limit: number): Promise<CardRow[]> {
  const matches = db.select(sortable).from(products).where(where).limit(FENCE).as("matches");
  return db
    .select(cardsOf(matches as unknown as typeof sortable))
    .from(matches)
    .orderBy(...orderBy(sort, matches as unknown as SortColumns))
    .limit(limit)
    .offset(offset);
}

/**
 * A page of a large match set: walk the first rows of the sort order (its index) and keep the
 * matches. Terms that match many products fill a page within a few hundred rows; when the
 * matches lie further along (a term that never appears among featured products, a sofa when
 * sorting by price), the window runs out and the matches are fetched and sorted instead.
 */
async function pageOfWalk(db: Db, base: SQL, match: SQL, sort: ShopSort, offset: number, limit: number): Promise<CardRow[]> {
  const walked = db
    .select({ ...sortable, hit: sql<boolean>`${match}`.as("hit") })
    .from(products)
    .where(base)
    .orderBy(...orderBy(sort, products))
    .limit(WALK_WINDOW + 40 * offset)
    .as("walked");
  const rows = await db
    .select(cardsOf(walked as unknown as typeof sortable))
    .from(walked)
    .where(sql`${walked.hit}`)
    .orderBy(...orderBy(sort, walked as unknown as SortColumns))
    .limit(limit)
    .offset(offset);
  if (rows.length === limit) return rows;
  return pageOfFew(db, and(base, match)!, sort, offset, limit);
}

/**
 * How many products match `match` within `base`, counted up to cap + 1, and a page of them in the
 * sort's order. Up to the cap one statement reads the matches once, through the trigram index,
 * and both sorts them and counts them beside each row: a narrow term costs one read, not a count
 * and then the same read again. Past the cap those rows are not the first of the sort's order,
 * so the page walks the order instead (pageOfWalk).
 */
export async function countedPageOfMatches(
  db: Db,
  base: SQL,
  match: SQL,
  sort: ShopSort,
  page: { offset: number; limit: number },
  cap: number,
): Promise<{ total: number; rows: CardRow[] }> {
  const where = and(base, match)!;
  const matches = db.select(sortable).from(products).where(where).limit(cap + 1).as("matches");
  const counted = await db
    .select({ ...cardsOf(matches as unknown as typeof sortable), total: sql<number>`(count(*) over ())::int` })
    .from(matches)
    .orderBy(...orderBy(sort, matches as unknown as SortColumns))
    // One row at least, which carries the count when the caller wants none.
    .limit(Math.max(page.limit, 1))
    .offset(page.offset);
  // No row: nothing matches, or the page starts after the last match, which a count tells apart.
  const total = counted[0]?.total ?? (page.offset === 0 ? 0 : await countUpTo(db, where, cap));
  if (page.limit === 0) return { total, rows: [] };
  if (total > cap) return { total, rows: await pageOfWalk(db, base, match, sort, page.offset, page.limit) };
  return { total, rows: counted.map(({ total: _, ...row }) => row) };
}
