import { sql } from "drizzle-orm";
import type { Database, Db } from "../db/client.server";
import type { JobTasks } from "../jobs/queue.server";
import { getRootLogger } from "../logger.server";
import type { CdnPurger } from "./adapters.server";
import { TAG } from "./keys.server";

/**
 * Purging the CDN from the change log (docs/decisions/0037). The storefront change log
 * (storefront_changes, written by triggers in the writing transaction) names the tags each change
 * touches. A cursor, one row of shop_meta, holds the snapshot up to which the CDN has been purged.
 * Every app server looks once a second whether the log holds changes past the cursor and, if so,
 * adds the `cdn:purge` job under one job key: while it waits or fails, further changes join it
 * (batched), and only one exists in the cluster. The job reads the tags past the cursor, sends
 * them through the adapter and moves the cursor in one transaction: a purge that fails moves
 * nothing, and its retry (the queue's backoff) sends those tags with any newer ones. A save never
 * waits for any of it.
 */

export const PURGE_TASK = "cdn:purge";
const PURGE_JOB_KEY = "cdn:purge";
/**
 * Tries before the job is kept as failed for the owner (Background jobs, 'Needs attention'): with
 * the queue's backoff (e^n seconds after the n-th) the eighth try comes about 29 minutes after
 * the first. Meanwhile the CDN serves pages at most CDN_S_MAXAGE seconds old.
 */
export const PURGE_MAX_ATTEMPTS = 8;
const CURSOR_KEY = "cdn_purge_cursor";
/**
 * The change log keeps an hour of rows (CHANGE_LOG_HOURS in page-cache.server.ts); a cursor older
 * than this may have lost rows to the pruner, so the purge is of everything (`shop`).
 */
export const LOG_REACH_MS = 45 * 60_000;
/** More tags than this in one purge: everything is purged instead (one request, not hundreds). */
const MAX_TAGS = 500;

type Cursor = { snapshot: string; at: string };

/**
 * The tags of the changes the snapshot $1 did not see, and the snapshot now. A row the triggers
 * wrote without tags (an older migration's, a review's product row) names its product's page, or
 * everything.
 */
const tagsSince = (snapshot: string) => sql`
  select pg_current_snapshot()::text as snapshot,
    coalesce((select array_agg(distinct t order by t) from storefront_changes c,
        unnest(coalesce(c.tags, case when c.product_id is null then array['shop'] else array['product:' || c.product_id::text] end)) t
      where c.xid >= pg_snapshot_xmin(${snapshot}::pg_snapshot)::text::bigint
        and not pg_visible_in_snapshot(c.xid::text::xid8, ${snapshot}::pg_snapshot)), '{}') as tags`;

const changedSince = (snapshot: string) => sql`
  exists (select 1 from storefront_changes c
           where c.xid >= pg_snapshot_xmin(${snapshot}::pg_snapshot)::text::bigint
             and not pg_visible_in_snapshot(c.xid::text::xid8, ${snapshot}::pg_snapshot))`;

/** Starts the cursor at the log as it stands, once (the CDN in front starts out empty or timed). */
export async function startPurgeCursor(db: Db): Promise<void> {
  await db.execute(sql`
    insert into shop_meta (key, value) values (${CURSOR_KEY}, jsonb_build_object('snapshot', pg_current_snapshot()::text, 'at', now()))
    on conflict (key) do nothing`);
}

async function readCursor(db: Db, lock: boolean): Promise<Cursor | null> {
  const result = await db.execute<{ value: Cursor }>(
    lock ? sql`select value from shop_meta where key = ${CURSOR_KEY} for update` : sql`select value from shop_meta where key = ${CURSOR_KEY}`,
  );
  return result.rows[0]?.value ?? null;
}

/**
 * One look at the log (each app server, once a second): changes past the cursor add the purge
 * job, unless one already exists (waiting, running, or failed and waiting for the owner); with no
 * change past it, the cursor moves to now, so a quiet hour does not make the next purge one of
 * everything. Answers whether a job was asked for.
 */
export async function queuePurgeIfChanged(db: Db): Promise<boolean> {
  const cursor = await readCursor(db, false);
  if (!cursor) {
    await startPurgeCursor(db);
    return false;
  }
  const added = await db.execute<{ id: string }>(sql`
    select (graphile_worker.add_job(${PURGE_TASK}::text, '{}'::json, max_attempts => ${PURGE_MAX_ATTEMPTS}::int,
              job_key => ${PURGE_JOB_KEY}::text, job_key_mode => 'unsafe_dedupe')).id::text as id
     where ${changedSince(cursor.snapshot)}`);
  if (added.rows.length > 0) return true;
  // Skipped while the job holds the cursor; the snapshot is taken with the check, in one statement.
  await db.execute(sql`
    update shop_meta set value = jsonb_build_object('snapshot', pg_current_snapshot()::text, 'at', now()), updated_at = now()
     where key = (select key from shop_meta where key = ${CURSOR_KEY} for update skip locked)
       and not ${changedSince(cursor.snapshot)}
       and value->>'snapshot' = ${cursor.snapshot}`);
  return false;
}

/** What the owner reads when the purge has failed: the CDN's answer, and what to do after a long outage. */
export function purgeFailure(cause: string, since: Date, now: Date): string {
  if (now.getTime() - since.getTime() > LOG_REACH_MS) {
    return `The CDN has not been purged since ${since.toISOString().slice(0, 16).replace("T", " ")} UTC, longer than the change log reaches: purge everything in the CDN's dashboard, then press Try again. The CDN's last answer: ${cause}`;
  }
  return `The CDN could not be purged: ${cause}`;
}

/**
 * The job: sends the tags past the cursor through the adapter, in batches, then moves the cursor,
 * all while it holds the cursor's row (one purge at a time in the cluster). Answers the tags sent.
 */
export async function purgeChangedTags(db: Database, purger: CdnPurger, now: () => Date = () => new Date()): Promise<string[]> {
  return db.transaction(async (tx) => {
    const cursor = await readCursor(tx, true);
    if (!cursor) {
      await startPurgeCursor(tx);
      return [];
    }
    const read = await tx.execute<{ snapshot: string; tags: string[] }>(tagsSince(cursor.snapshot));
    const { snapshot } = read.rows[0]!;
    const since = new Date(cursor.at);
    const lost = now().getTime() - since.getTime() > LOG_REACH_MS;
    let tags = read.rows[0]!.tags.filter((t) => TAG.test(t));
    if (lost || tags.includes("shop") || tags.length > MAX_TAGS) tags = ["shop"];
    try {
      for (let i = 0; i < tags.length; i += purger.batch) await purger.purge(tags.slice(i, i + purger.batch));
    } catch (err) {
      throw new Error(purgeFailure((err as Error).message, since, now()));
    }
    await tx.execute(sql`
      update shop_meta set value = jsonb_build_object('snapshot', ${snapshot}::text, 'at', ${now().toISOString()}::timestamptz), updated_at = now()
       where key = ${CURSOR_KEY}`);
    return tags;
  });
}

/** The purge job's handler; with CDN_PURGE=off a job left from before does nothing. */
export function cdnJobs(db: Database, purger: CdnPurger | null): JobTasks {
  const log = getRootLogger().child({ part: "cdn" });
  return {
    handlers: {
      [PURGE_TASK]: async () => {
        if (!purger) return;
        const tags = await purgeChangedTags(db, purger);
        if (tags.length) log.info({ cdn: purger.name, tags: tags.length }, "cdn purged");
      },
    },
  };
}

/**
 * This server's look at the log, once a second (`queuePurgeIfChanged`), while CDN_PURGE is on.
 * A look that fails (the database down) is tried at the next tick. Answers the stop.
 */
export function startCdnPurgeWatch(db: Database, opts: { intervalMs?: number } = {}): () => void {
  const log = getRootLogger().child({ part: "cdn" });
  let busy = false;
  let failing = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    queuePurgeIfChanged(db)
      .then(() => (failing = false))
      .catch((err: Error) => {
        if (!failing) log.warn({ err: err.message }, "cdn: could not look at the change log; trying again");
        failing = true;
      })
      .finally(() => (busy = false));
  }, opts.intervalMs ?? 1_000);
  timer.unref();
  return () => clearInterval(timer);
}
