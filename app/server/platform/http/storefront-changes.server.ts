import { sql } from "drizzle-orm";
import type pg from "pg";
import { noteStorefrontChange, statementName, type Db } from "../db/client.server";
import { storefrontChanges } from "../db/schema";
import { requestScope } from "../logger.server";

/**
 * What this app server knows of the storefront change log (storefront_changes, written by
 * triggers; migration 0008), for the page cache. Each *check* asks PostgreSQL, in one small
 * query, for the changes committed since the previous check's snapshot, and numbers itself: its
 * generation. A page remembers the generation that was current when its rendering began; it is
 * stale once a later check has reported a change that concerns it (any change for listings, that
 * product's own for a product page).
 *
 * Checks are shared: a request waits for the next check that *starts after it arrived*, so
 * every change committed before the request is known when it is answered, and one query serves
 * every request that arrived meanwhile (one check in flight at a time).
 */

/** One check's answer: the snapshot now, and the products changed since `since` (null = anything). */
export type ChangeQuery = (since: string | null) => Promise<{ snapshot: string; changes: (string | null)[] }>;

/** The change log keeps an hour of rows; a gap between checks longer than this forgets everything. */
export const MAX_CHECK_GAP_MS = 30 * 60_000;
/** Past this many changed products between global changes, everything counts as changed. */
const MAX_TRACKED_PRODUCTS = 10_000;

export class StorefrontChanges {
  #generation = 0;
  #snapshot: string | null = null;
  #checkedAt = 0;
  /** The generation of the last check that reported a change to everything. */
  #everything = 0;
  /** Per product: the generation of the last check that reported its stock changing. */
  readonly #products = new Map<string, number>();
  #running: Promise<boolean> | null = null;
  #waiting: Promise<boolean> | null = null;

  constructor(
    private readonly query: ChangeQuery,
    private readonly now: () => number = Date.now,
  ) {}

  /** The latest check's generation: a rendering that begins now is at least this fresh. */
  get generation() {
    return this.#generation;
  }

  /** Whether a page rendered from `generation` on still shows what the database holds. */
  isFresh(generation: number, productId: string | null): boolean {
    if (generation < this.#everything) return false;
    return productId === null || generation >= (this.#products.get(productId) ?? 0);
  }

  /** Resolves once a check that started after this call has been applied; false if it failed. */
  checkAfterNow(): Promise<boolean> {
    if (!this.#running) {
      this.#running = this.#check().finally(() => {
        this.#running = null;
      });
      return this.#running;
    }
    // The check in flight may have started before this request arrived: take the next one.
    this.#waiting ??= this.#running.then(() => {
      this.#waiting = null;
      return this.checkAfterNow();
    });
    return this.#waiting;
  }

  async #check(): Promise<boolean> {
    const stale = this.#snapshot === null || this.now() - this.#checkedAt > MAX_CHECK_GAP_MS;
    let answer: Awaited<ReturnType<ChangeQuery>>;
    try {
      answer = await this.query(stale ? null : this.#snapshot);
    } catch {
      return false;
    }
    const generation = this.#generation + 1;
    if (stale || answer.changes.includes(null) || this.#products.size + answer.changes.length > MAX_TRACKED_PRODUCTS) {
      // Nothing older than this check can be trusted.
      this.#everything = generation;
      this.#products.clear();
    } else {
      for (const productId of answer.changes) this.#products.set(productId!, generation);
    }
    this.#generation = generation;
    this.#snapshot = answer.snapshot;
    this.#checkedAt = this.now();
    return true;
  }
}

/** The check in SQL: one indexed range of the change log, however many requests share it. */
export const CHANGES_SINCE = `
  select pg_current_snapshot()::text as snapshot,
    -- Every change the snapshot shows is in the WAL before this: a read replica that has replayed
    -- this far shows them too (docs/decisions/0041).
    pg_current_wal_lsn()::text as lsn,
    case when $1::pg_snapshot is null then '[null]'::json
      else (select coalesce(json_agg(distinct c.product_id), '[]'::json) from storefront_changes c
             where c.xid >= pg_snapshot_xmin($1::pg_snapshot)::text::bigint
               and not pg_visible_in_snapshot(c.xid::text::xid8, $1::pg_snapshot))
    end as changes`;

const g = globalThis as unknown as { __shopChangeLog?: StorefrontChanges };

/** A reader of the change log in the database `pool` holds. */
export function storefrontChangeLog(pool: () => pg.Pool): StorefrontChanges {
  return new StorefrontChanges(async (since) => {
    const { rows } = await pool().query({ name: statementName("storefront-changes-since"), text: CHANGES_SINCE, values: [since] });
    const answer = rows[0] as { snapshot: string; lsn: string; changes: (string | null)[] };
    // Before the check counts: nothing read on its strength may come from a replica that lacks a
    // change it reported.
    if (answer.changes.length > 0) noteStorefrontChange(answer.lsn);
    return answer;
  });
}

/**
 * This app server's one reader of the change log, made at start (server/app.ts): the page cache
 * and the remembered reads (remembered-reads.server.ts) share its checks, so a request that
 * needs both pays one query.
 */
export function shareStorefrontChangeLog(pool: () => pg.Pool): StorefrontChanges {
  return (g.__shopChangeLog ??= storefrontChangeLog(pool));
}

/** The shared reader, if this process serves requests (tests that call loaders directly have none). */
export function sharedStorefrontChangeLog(): StorefrontChanges | undefined {
  return g.__shopChangeLog;
}

/**
 * A check that started after the current request arrived, made once per request however many of
 * its loaders ask (outside a request, a check of its own each time).
 */
export function checkedForThisRequest(changes: StorefrontChanges): Promise<boolean> {
  const scope = requestScope.getStore();
  if (!scope) return changes.checkAfterNow();
  const made = scope.changesChecked;
  if (made?.by === changes) return made.done;
  const done = changes.checkAfterNow();
  scope.changesChecked = { by: changes, done };
  return done;
}

/**
 * Logs a change to one product's page that no product column shows (a review reply), in the
 * caller's transaction; the triggers log every other write.
 */
export async function logProductPageChange(tx: Db, productId: string): Promise<void> {
  await tx.insert(storefrontChanges).values({ xid: sql`pg_current_xact_id()::text::bigint`, productId });
}
