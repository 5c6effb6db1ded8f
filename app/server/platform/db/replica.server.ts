import type pg from "pg";

/**
 * Storefront reads on a streaming replica (DATABASE_REPLICA_URL, docs/decisions/0041), behind a
 * pool-shaped object Drizzle takes for a pg.Pool: each query (or transaction's connection) goes to
 * the replica when it is reachable and has replayed the newest storefront change this server has
 * seen, and to the primary otherwise. Nothing else changes for the code that reads.
 */

/** `16/B374D848` → a number that orders like the WAL position. */
export function lsnValue(text: string): bigint {
  const [hi, lo] = text.split("/");
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
}

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  // admin_shutdown, crash_shutdown, cannot_connect_now; the connection_exception class.
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);

/** The server went away or cannot be reached (not: the query itself was wrong). */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e) return false;
  if (e.code && CONNECTION_CODES.has(e.code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended/i.test(e.message ?? "");
}

/**
 * A standby cancels a query whose rows its WAL replay must remove (a conflict with recovery,
 * reported as a serialization failure): the primary answers it instead, and the replica stays in use.
 */
function isRecoveryConflict(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return e?.code === "40001" || e?.code === "40P01";
}

type Log = { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };

export type ReadRoutingOptions = {
  primary: pg.Pool;
  replica: pg.Pool;
  log: Log;
  /** While the replica is down, how often a request may start a probe of it (in the background). */
  probeEveryMs?: number;
  now?: () => number;
};

const REPLAY_POSITION = "select pg_last_wal_replay_lsn()::text as lsn";

/** Named "…Pool" on purpose: Drizzle's transaction() takes a connection from anything so named. */
export class ReadRoutingPool {
  readonly #primary: pg.Pool;
  readonly #replica: pg.Pool;
  readonly #log: Log;
  readonly #probeEveryMs: number;
  readonly #now: () => number;
  /** The primary's WAL position when the newest storefront change this server knows of was seen. */
  #required = 0n;
  /** How far the replica had replayed when last asked; null: it is no standby (nothing to wait for). */
  #replayed: bigint | null = -1n;
  #refreshing: Promise<void> | null = null;
  #down = false;
  #lastProbe = 0;
  #probing = false;

  constructor(opts: ReadRoutingOptions) {
    this.#primary = opts.primary;
    this.#replica = opts.replica;
    this.#log = opts.log;
    this.#probeEveryMs = opts.probeEveryMs ?? 5000;
    this.#now = opts.now ?? Date.now;
  }

  /** A storefront change committed at or before this primary WAL position (text form). */
  noteChange(lsn: string) {
    const value = lsnValue(lsn);
    if (value > this.#required) this.#required = value;
  }

  get replicaDown() {
    return this.#down;
  }

  #current() {
    return this.#replayed === null || this.#replayed >= this.#required;
  }

  /** Where the next read goes. Never throws: anything wrong with the replica means the primary. */
  async #target(): Promise<pg.Pool> {
    if (this.#down) {
      this.#probeInBackground();
      return this.#primary;
    }
    if (this.#current()) return this.#replica;
    // Behind the newest change seen: ask once how far it is now (shared by concurrent reads).
    this.#refreshing ??= this.#readReplayPosition().finally(() => (this.#refreshing = null));
    await this.#refreshing;
    return !this.#down && this.#current() ? this.#replica : this.#primary;
  }

  async #readReplayPosition() {
    try {
      const { rows } = await this.#replica.query<{ lsn: string | null }>(REPLAY_POSITION);
      const lsn = rows[0]?.lsn ?? null;
      this.#replayed = lsn === null ? null : lsnValue(lsn);
    } catch (err) {
      // Unreachable: down until a probe finds it. Anything else: behind, for this read.
      if (isConnectionError(err)) this.#markDown(err);
    }
  }

  #markDown(err: unknown) {
    this.#lastProbe = this.#now();
    if (this.#down) return;
    this.#down = true;
    this.#log.warn(
      { err: (err as Error)?.message ?? String(err) },
      "the read replica is unreachable: storefront reads go to the primary until it answers again",
    );
  }

  #probeInBackground() {
    if (this.#probing || this.#now() - this.#lastProbe < this.#probeEveryMs) return;
    this.#probing = true;
    this.#lastProbe = this.#now();
    void this.#replica
      .query<{ lsn: string | null }>(REPLAY_POSITION)
      .then(({ rows }) => {
        const lsn = rows[0]?.lsn ?? null;
        this.#replayed = lsn === null ? null : lsnValue(lsn);
        this.#down = false;
        this.#log.info({}, "the read replica answers again: storefront reads go back to it");
      })
      .catch(() => {})
      .finally(() => (this.#probing = false));
  }

  async query(config: unknown, values?: unknown): Promise<pg.QueryResult> {
    const pool = await this.#target();
    const run = (p: pg.Pool) => (p.query as (c: unknown, v?: unknown) => Promise<pg.QueryResult>).call(p, config, values);
    if (pool === this.#primary) return run(this.#primary);
    try {
      return await run(this.#replica);
    } catch (err) {
      if (isConnectionError(err)) this.#markDown(err);
      else if (!isRecoveryConflict(err)) throw err;
      return run(this.#primary);
    }
  }

  /** For a read-only transaction: a connection on the replica, or the primary's. */
  async connect(): Promise<pg.PoolClient> {
    const pool = await this.#target();
    if (pool === this.#primary) return this.#primary.connect();
    try {
      return await this.#replica.connect();
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      this.#markDown(err);
      return this.#primary.connect();
    }
  }
}
