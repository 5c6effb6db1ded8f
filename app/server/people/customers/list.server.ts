import { and, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  CUSTOMER_COLUMNS,
  CUSTOMER_SORTS,
  CUSTOMERS_MAX_PAGES,
  CUSTOMERS_PAGE_SIZE,
  DEFAULT_CUSTOMER_DIR,
  DEFAULT_CUSTOMER_SORT,
  type CustomerList,
  type CustomerListQuery,
  type CustomerRow,
  type CustomerSort,
  type SortDirection,
} from "~/lib/customers-view";
import { enableTypos } from "../../catalog/index.server";
import { customers, type Db, pageParam } from "../../platform/index.server";
import { literalSearch, searchMatch, usesTypos } from "./search.server";

const QueryParams = z.object({
  q: z.string().catch("").transform((s) => s.trim().replace(/\s+/g, " ").slice(0, 100)),
  sort: z.enum(CUSTOMER_SORTS).catch(DEFAULT_CUSTOMER_SORT),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
});

/**
 * The list's URL parameters; anything unusable falls back to its default instead of failing (a
 * sort without a usable direction takes the one its column header starts with).
 */
export function parseCustomerListQuery(url: URL): CustomerListQuery {
  const p = url.searchParams;
  const parsed = QueryParams.parse({ q: p.get("q") ?? "", sort: p.get("sort") ?? undefined, dir: p.get("dir") ?? undefined });
  const firstDir = CUSTOMER_COLUMNS.find((c) => c.sort === parsed.sort)?.firstDir ?? DEFAULT_CUSTOMER_DIR;
  return { q: parsed.q, sort: parsed.sort, dir: parsed.dir ?? firstDir, page: pageParam(p, CUSTOMERS_MAX_PAGES) };
}

/**
 * A run of the list read through one index in one direction: rows where `where` holds, ordered by
 * `keys` (the email key last, so the order is total). A sort is one run, or two where an index
 * alone cannot give the order: accounts then guests (or the reverse), subscribers then the others,
 * and customers with a last order before those without one (in both directions).
 */
type Run = { where?: SQL; keys: Key[]; dir: SortDirection };
type Key = { column: SQL; type: "text" | "integer" | "bigint" | "timestamptz" };

const key = {
  email: { column: sql`${customers.emailKey}`, type: "text" },
  name: { column: sql`${customers.name}`, type: "text" },
  orders: { column: sql`${customers.ordersCount}`, type: "integer" },
  spent: { column: sql`${customers.spentCents}`, type: "bigint" },
  lastOrder: { column: sql`${customers.lastOrderAt}`, type: "timestamptz" },
} satisfies Record<string, Key>;

function runsOf(sort: CustomerSort, dir: SortDirection): Run[] {
  const flag = (column: SQL): Run[] => {
    const yes = { where: sql`${column}`, keys: [key.email], dir: "asc" as const };
    const no = { where: sql`not ${column}`, keys: [key.email], dir: "asc" as const };
    return dir === "desc" ? [yes, no] : [no, yes];
  };
  switch (sort) {
    case "name":
      return [{ keys: [key.name, key.email], dir }];
    case "email":
      return [{ keys: [key.email], dir }];
    case "orders":
      return [{ keys: [key.orders, key.email], dir }];
    case "spent":
      return [{ keys: [key.spent, key.email], dir }];
    case "last_order":
      return [
        { where: sql`${customers.lastOrderAt} is not null`, keys: [key.lastOrder, key.email], dir },
        { where: sql`${customers.lastOrderAt} is null`, keys: [key.email], dir: "asc" },
      ];
    case "account":
      return flag(sql`${customers.hasAccount}`);
    case "newsletter":
      return flag(sql`${customers.subscribed}`);
  }
}

/** A search term, and whether the customers within a typo of it are listed too. */
type Search = { q: string; typos: boolean };

/**
 * Like the shop's search: customers a letter or two off are added only when fewer than this many
 * match exactly. A term that many customers share (a first name, a mail provider) lists those,
 * without paying for a similarity test on each of them.
 */
const TYPOS_WHEN_FEWER_THAN = 100;

/** Decides, in the list's transaction, whether the term's typo matches are listed (and sets their threshold). */
async function resolveSearch(tx: Db, q: string): Promise<Search> {
  if (!q || !usesTypos(q)) return { q, typos: false };
  const probe = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${customers} where ${literalSearch(q)} limit ${TYPOS_WHEN_FEWER_THAN}) as exact`,
  );
  const typos = (probe.rows[0]?.n ?? 0) < TYPOS_WHEN_FEWER_THAN;
  if (typos) await enableTypos(tx);
  return { q, typos };
}

/**
 * Every part of the list in order: with typo matches, the literal matches first (the `literal`
 * column matchesFirst() adds), then the others; each in the sort's runs.
 */
function partsOf(query: Pick<CustomerListQuery, "sort" | "dir">, search: Search): Run[] {
  const runs = runsOf(query.sort, query.dir);
  if (!search.typos) return search.q ? runs.map((r) => ({ ...r, where: and(literalSearch(search.q), r.where) })) : runs;
  return [sql`"literal"`, sql`not "literal"`].flatMap((group) => runs.map((r) => ({ ...r, where: and(group, r.where) })));
}

const orderBy = (r: Run) => sql.join(r.keys.map((k) => sql`${k.column} ${r.dir === "asc" ? sql`asc` : sql`desc`}`), sql`, `);

const rowColumns = sql`${customers.id} as id, ${customers.name} as name, ${customers.email} as email,
  ${customers.hasAccount} as has_account, ${customers.ordersCount} as orders_count,
  ${customers.spentCents}::text as spent_cents, ${customers.lastOrderAt} as last_order_at,
  ${customers.subscribed} as subscribed`;

type RawRow = {
  id: string;
  name: string;
  email: string;
  has_account: boolean;
  orders_count: number;
  spent_cents: string;
  last_order_at: Date | string | null;
  subscribed: boolean;
};

const toRow = (r: RawRow): CustomerRow => ({
  id: r.id,
  name: r.name,
  email: r.email,
  hasAccount: r.has_account,
  ordersCount: Number(r.orders_count),
  spentCents: Number(r.spent_cents),
  lastOrderAt: r.last_order_at === null ? null : new Date(r.last_order_at).toISOString(),
  subscribed: r.subscribed,
});

/**
 * With typo matches, the customers the search finds are read first, through the trigram index,
 * with whether they match literally, and the query's `customers` is that set (a CTE of the same
 * name hides the table). Otherwise the planner, which prices word similarity as cheap, may walk a
 * sort index and test every customer it passes: the whole table for a name nobody has. A literal
 * search needs no such help: the planner estimates LIKE through the index's statistics, and for a
 * term many share, walking the sort index to the page is the fast way.
 */
function matchesFirst(search: Search): SQL {
  if (!search.typos) return sql``;
  return sql`with ${customers} as materialized (select *, ${literalSearch(search.q)} as "literal" from ${customers} where ${searchMatch(search.q)})`;
}

/**
 * How many customers the list holds: all of them without a search (an index-only count); with
 * one, counted up to one more than the pages reach, since a term that finds more (".com") is
 * shown as "more than 10,000" and counting the rest would cost more than the page.
 */
const SEARCH_COUNT_CAP = CUSTOMERS_MAX_PAGES * CUSTOMERS_PAGE_SIZE;

function countOf(search: Search): SQL {
  if (!search.q) return sql`select count(*)::int as total from ${customers}`;
  const where = search.typos ? sql`` : sql`where ${literalSearch(search.q)}`;
  return sql`select count(*)::int as total from (select 1 from ${customers} ${where} limit ${SEARCH_COUNT_CAP + 1}) as found`;
}

/**
 * Runs `fn` in a transaction without parallel append, so the parts of a UNION ALL come out one
 * after the other, in the list's order.
 */
async function inListTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('enable_parallel_append', 'off', true)`);
    return fn(tx);
  });
}

/** One page of the list and how many customers match. */
export async function listCustomers(db: Db, query: CustomerListQuery): Promise<CustomerList> {
  const offset = (query.page - 1) * CUSTOMERS_PAGE_SIZE;
  const reach = offset + CUSTOMERS_PAGE_SIZE;
  return inListTransaction(db, async (tx) => {
    const search = await resolveSearch(tx, query.q);
    const parts = partsOf(query, search);
    // Each part stops at the page's end, so a part the page does not reach costs next to nothing.
    const union = sql.join(
      parts.map((p) => sql`(select ${rowColumns} from ${customers} ${p.where ? sql`where ${p.where}` : sql``} order by ${orderBy(p)} limit ${reach})`),
      sql` union all `,
    );
    // One statement counts the customers found and reads the page (a typo search reads its matches once).
    const result = await tx.execute<RawRow & { total: number }>(
      sql`${matchesFirst(search)}
          select counted.total, page.* from (${countOf(search)}) as counted
          left join lateral (select * from (${union}) as list limit ${CUSTOMERS_PAGE_SIZE} offset ${offset}) as page on true`,
    );
    const total = result.rows[0]?.total ?? 0;
    const rows = result.rows.filter((r) => r.id !== null);
    const allPages = Math.max(1, Math.ceil(total / CUSTOMERS_PAGE_SIZE));
    return {
      rows: rows.map(toRow),
      total: search.q ? Math.min(total, SEARCH_COUNT_CAP) : total,
      totalCapped: search.q !== "" && total > SEARCH_COUNT_CAP,
      pages: Math.min(allPages, CUSTOMERS_MAX_PAGES),
      capped: allPages > CUSTOMERS_MAX_PAGES,
      closeMatches: search.typos,
    };
  });
}

export type CustomerExportRow = CustomerRow & { firstOrderAt: string | null; createdAt: string };

/**
 * Every customer the list's search finds, in the list's order, in batches: each part is walked by
 * keyset (its sort keys after the last row's), so a large export never reads a skipped row twice
 * and holds no transaction between batches.
 */
export async function* customerBatches(
  db: Db,
  query: Pick<CustomerListQuery, "q" | "sort" | "dir">,
  batchSize = 1000,
): AsyncGenerator<CustomerExportRow[]> {
  // Decided once, so every batch lists the same customers.
  const search = await inListTransaction(db, (tx) => resolveSearch(tx, query.q));
  for (const part of partsOf(query, search)) {
    let after: string[] | null = null;
    for (;;) {
      const cursor: SQL | undefined = after ? keysetAfter(part, after) : undefined;
      const where = and(part.where, cursor);
      const keyText = sql.join(part.keys.map((k) => sql`${k.column}::text`), sql`, `);
      const rows = await inListTransaction(db, async (tx) => {
        if (search.typos) await enableTypos(tx);
        return (
          await tx.execute<RawRow & { first_order_at: Date | string | null; created_at: Date | string; cursor: string[] }>(
            sql`${matchesFirst(search)} select ${rowColumns}, ${customers.firstOrderAt} as first_order_at, ${customers.createdAt} as created_at,
                  array[${keyText}] as cursor
                from ${customers} ${where ? sql`where ${where}` : sql``}
                order by ${orderBy(part)} limit ${batchSize}`,
          )
        ).rows;
      });
      if (rows.length) {
        yield rows.map((r) => ({
          ...toRow(r),
          firstOrderAt: r.first_order_at === null ? null : new Date(r.first_order_at).toISOString(),
          createdAt: new Date(r.created_at).toISOString(),
        }));
      }
      if (rows.length < batchSize) break;
      after = rows[rows.length - 1]!.cursor;
    }
  }
}

/** Rows after the given key values in the run's order; the values go back as the text PostgreSQL gave (timestamps keep their microseconds). */
function keysetAfter(run: Run, values: string[]): SQL {
  const columns = sql.join(run.keys.map((k) => k.column), sql`, `);
  const given = sql.join(run.keys.map((k, i) => sql`cast(${values[i]} as ${sql.raw(k.type)})`), sql`, `);
  return run.dir === "asc" ? sql`(${columns}) > (${given})` : sql`(${columns}) < (${given})`;
}
