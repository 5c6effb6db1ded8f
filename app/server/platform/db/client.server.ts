import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle, type NodePgDatabase, type NodePgQueryResultHKT } from "drizzle-orm/node-postgres";
import type { PgDatabase } from "drizzle-orm/pg-core";
import pg from "pg";
import path from "node:path";
import { getEnv } from "../env.server";
import { getRootLogger } from "../logger.server";
import { runningEmbeddedUrl, startEmbeddedPostgres, type EmbeddedServer } from "./embedded.server";
import { ReadRoutingPool } from "./replica.server";
import { holdShopDatabaseLock, releaseShopLock, takeShopLock, type ShopDatabaseLock } from "./shop-lock.server";
import * as schema from "./schema";

export { schema };
export type Schema = typeof schema;
/** The pool and a transaction both fit: domain functions take a Db and work inside either. */
export type Db = PgDatabase<NodePgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Database = NodePgDatabase<Schema> & { $client: pg.Pool };

export class DatabaseUnavailableError extends Error {}

/**
 * `directUrl`: the same database without a transaction pooler in between, for what needs a
 * session of its own (DATABASE_DIRECT_URL); `url` itself when there is no pooler.
 */
type OpenDatabase = {
  db: Database;
  pool: pg.Pool;
  url: string;
  directUrl: string;
  embedded?: EmbeddedServer;
  /** Storefront reads (DATABASE_REPLICA_URL): routed between the replica and `pool`. */
  reads?: { db: Db; router: ReadRoutingPool; replica: pg.Pool };
};

// One database per process. Kept on globalThis so the dev server's module reloads and the
// bundled server build share the pool opened at boot.
const g = globalThis as unknown as { __shopDb?: OpenDatabase };

export function createDatabase(url: string, poolSize = 10, connectionTimeoutMillis = 5000): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server must not crash the shop; the next query reports it instead.
  pool.on("error", (err) => getRootLogger().warn({ err: err.message }, "database connection lost"));
  // A client in use (a transaction, a query) when the server goes away emits 'error' too, and the
  // pool listens only to idle ones: without this, a database restart mid-transaction killed the
  // process. The query in flight still fails (the request answers 503) and the pool drops the client.
  pool.on("connect", (client) => {
    client.on("error", (err) => getRootLogger().warn({ err: err.message }, "database connection lost while in use"));
  });
  return drizzle(pool, { schema }) as Database;
}

function describe(url: string) {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "the configured server";
  }
}

/**
 * Opens the shop's database: the server DATABASE_URL names, or the embedded PostgreSQL under
 * DATA_DIR. `ownEmbedded` says whether this process stops the embedded server when it closes
 * (the shop does; admin scripts leave a running shop's server alone).
 */
export async function openDatabase(opts: { ownEmbedded?: boolean; log?: (m: string) => void } = {}) {
  if (g.__shopDb) return g.__shopDb;
  const env = getEnv();
  let url = env.DATABASE_URL;
  let embedded: EmbeddedServer | undefined;
  if (!url) {
    if (opts.ownEmbedded) await takeShopLock(env.DATA_DIR, { runningDatabase: () => runningEmbeddedUrl(env.DATA_DIR) });
    embedded = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, log: opts.log }).catch((err: unknown) => {
      if (opts.ownEmbedded) releaseShopLock(env.DATA_DIR);
      throw err;
    });
    if (opts.ownEmbedded) {
      // Held from now until the shop stops. A second shop is refused here, and the database it
      // found running (another shop's) is left running (docs/decisions/0030).
      let held: ShopDatabaseLock;
      try {
        held = await holdShopDatabaseLock(embedded.url, env.DATA_DIR, (err) =>
          getRootLogger().warn({ err: err.message }, "the data folder's database lock was lost; taking it again"),
        );
      } catch (err) {
        releaseShopLock(env.DATA_DIR);
        throw err;
      }
      const server = embedded;
      embedded = {
        ...server,
        stop: async () => {
          await held.release();
          await server.stop();
          releaseShopLock(env.DATA_DIR);
        },
      };
    }
    url = embedded.url;
    if (embedded.reused && !opts.ownEmbedded) {
      // Not ours to stop: another process (the running shop) started it.
      embedded = { ...embedded, stop: async () => {} };
    }
  }
  const db = createDatabase(url, env.DATABASE_POOL_SIZE);
  try {
    await db.$client.query("select 1");
  } catch (err) {
    await db.$client.end().catch(() => {});
    await embedded?.stop();
    throw new DatabaseUnavailableError(
      `Cannot reach the database at ${describe(url)}: ${(err as Error).message || String(err)}`,
    );
  }
  const directUrl = (env.DATABASE_URL && env.DATABASE_DIRECT_URL) || url;
  g.__shopDb = { db, pool: db.$client, url, directUrl, embedded };
  // Not probed here: a replica that is away at boot only means the primary answers until it is back.
  if (env.DATABASE_REPLICA_URL) useReplica(env.DATABASE_REPLICA_URL, env.DATABASE_POOL_SIZE);
  return g.__shopDb;
}

export function getDb(): Database {
  if (!g.__shopDb) throw new Error("The database is not open yet (openDatabase() runs at boot).");
  return g.__shopDb.db;
}

/**
 * The handle for the storefront's catalog and blog reads (listing, search, product page, blog,
 * sitemap): on the read replica when there is one, else the primary. Only for reads that may be
 * a moment old outside the page cache's guarantee; writes, the admin, the cart quote, checkout and
 * a shopper's own pages use getDb().
 */
export function storefrontDb(): Db {
  if (!g.__shopDb) throw new Error("The database is not open yet (openDatabase() runs at boot).");
  return g.__shopDb.reads?.db ?? g.__shopDb.db;
}

/**
 * The page cache's change-log check saw storefront changes committed by the time the primary's
 * WAL stood at `lsn`: the replica serves no storefront read until it has replayed that far.
 */
export function noteStorefrontChange(lsn: string | null | undefined) {
  if (lsn) g.__shopDb?.reads?.router.noteChange(lsn);
}

/** Routes storefront reads through a replica pool at `replicaUrl` (boot, and tests). */
export function useReplica(replicaUrl: string, poolSize = 10, opts: { probeEveryMs?: number } = {}) {
  const open = g.__shopDb;
  if (!open) throw new Error("The database is not open yet (openDatabase() runs at boot).");
  // A short connect timeout: an unreachable replica costs a request this long once, then the
  // primary answers until a background probe finds it back.
  const replica = createDatabase(replicaUrl, poolSize, 2000).$client;
  const router = new ReadRoutingPool({ primary: open.pool, replica, log: getRootLogger(), probeEveryMs: opts.probeEveryMs });
  open.reads = { db: drizzle(router as unknown as pg.Pool, { schema }) as unknown as Db, router, replica };
  return open.reads;
}

/** Tests point the process at their own fresh database. */
export function useDatabase(db: Database, url = "") {
  g.__shopDb = { db, pool: db.$client, url, directUrl: url };
}

/**
 * A prepared statement's name for a hot query, or none when the pool goes through a transaction
 * pooler: there, consecutive transactions may run on different server sessions, and a statement
 * prepared on one is unknown on the next (PgBouncer before 1.21 cannot follow them).
 */
export function statementName(name: string): string | undefined {
  const pooled = Boolean(g.__shopDb && g.__shopDb.directUrl !== g.__shopDb.url);
  return pooled ? undefined : name;
}

export async function closeDatabase() {
  const open = g.__shopDb;
  g.__shopDb = undefined;
  if (!open) return;
  await open.reads?.replica.end().catch(() => {});
  await open.pool.end().catch(() => {});
  await open.embedded?.stop();
}

export const migrationsFolder = () => path.resolve(process.cwd(), "drizzle");
