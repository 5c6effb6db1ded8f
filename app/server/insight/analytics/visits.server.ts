import type pg from "pg";
import { getDb, getEnv, getRootLogger } from "../../platform/index.server";
import { DEFAULT_LIMITS, STEP, VisitBatch, type BatchLimits } from "./visits-batch.server";
import { utcDay, visitorKey } from "./visits-hash.server";
import { isCheckoutPage, isProductPage } from "./visits-path.server";
import { SourceLimit } from "./visits-sources.server";
import { writeBatch, type SaltCache } from "./visits-store.server";

/**
 * The visit counter (docs/rules/analytics.md, Visits): page views, funnel steps and searches are
 * added to a batch in memory, and the batch is written in one transaction every `flushMs`, when
 * it fills up, and when the shop stops. Recording never waits for the database and never throws;
 * a write that fails puts its counts back into the next batch (within the batch's caps), so an
 * outage loses at most what the caps cannot hold.
 */
export type VisitCounterOptions = {
  flushMs: number;
  pool: () => pg.Pool;
  limits?: BatchLimits;
  now?: () => number;
};

const DAY_MS = 86_400_000;

export type Visitor = { address: string; userAgent: string };

export class VisitCounter {
  #batch: VisitBatch;
  #writing: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #failing = false;
  #stopped = false;
  #soon = false;
  #dayStart = -Infinity;
  #dayName = "";
  readonly #salts: SaltCache = new Map();
  readonly #sources = new SourceLimit();
  readonly #limits: BatchLimits;
  readonly #now: () => number;

  constructor(readonly opts: VisitCounterOptions) {
    this.#limits = opts.limits ?? DEFAULT_LIMITS;
    this.#now = opts.now ?? (() => Date.now());
    this.#batch = new VisitBatch(this.#limits);
  }

  /** A storefront page view of `path` (already without query string and capped). */
  pageView(path: string, visitor: Visitor) {
    const day = this.#today();
    let steps: number = STEP.visitor;
    if (isProductPage(path)) steps |= STEP.product;
    if (isCheckoutPage(path)) steps |= STEP.checkout;
    this.#batch.pageView(day, path);
    const key = visitorKey(visitor.address, visitor.userAgent);
    // Past its address's visitors this minute, a view is a view, not a new person.
    if (this.#sources.admits(visitor.address, key, this.#now())) this.#batch.visitor(day, key, steps);
    this.#recorded();
  }

  /** A product added to the cart (the storefront's beacon). */
  cartAdd(productId: string, visitor: Visitor) {
    const day = this.#today();
    const key = visitorKey(visitor.address, visitor.userAgent);
    if (!this.#sources.admits(visitor.address, key, this.#now())) return;
    this.#batch.visitor(day, key, STEP.visitor | STEP.cart);
    this.#batch.cartAdd(day, key, productId.toLowerCase());
    this.#recorded();
  }

  /** A storefront search (a normalised term) and whether it found nothing. */
  search(term: string, empty: boolean) {
    this.#batch.search(this.#today(), term, empty);
    this.#recorded();
  }

  /** The current UTC day, formatted once a day rather than once a page view. */
  #today(): string {
    const now = this.#now();
    if (now < this.#dayStart || now >= this.#dayStart + DAY_MS) {
      this.#dayStart = now - (now % DAY_MS);
      this.#dayName = utcDay(now);
    }
    return this.#dayName;
  }

  #recorded() {
    if (this.#stopped) return;
    if (!this.#timer) {
      this.#timer = setInterval(() => void this.flush(), this.opts.flushMs);
      this.#timer.unref();
    }
    // While writes fail, only the timer retries: a full batch must not hammer a database that is down.
    if (this.#batch.isFull && !this.#failing) this.#flushSoon();
  }

  /** A full batch is written at once (after the write in progress, if any). */
  #flushSoon() {
    if (this.#soon || this.#writing) return;
    this.#soon = true;
    setImmediate(() => {
      this.#soon = false;
      void this.flush();
    });
  }

  /** Writes what has been counted so far (after the write in progress, if any). Never rejects; one write at a time. */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
    if (this.#batch.isEmpty) return;
    const batch = this.#batch;
    this.#batch = new VisitBatch(this.#limits);
    this.#writing = this.#write(batch).finally(() => {
      this.#writing = null;
      // Filled up while this write ran: write again now. Not while failing: the timer retries.
      if (!this.#stopped && !this.#failing && this.#batch.isFull) this.#flushSoon();
    });
    await this.#writing;
  }

  async #write(batch: VisitBatch) {
    const log = getRootLogger();
    const { dropped } = batch;
    if (dropped.visitors + dropped.cartPairs + dropped.terms + dropped.days > 0) {
      log.warn({ dropped }, "visit counting: batch full, some counts dropped");
    }
    try {
      await writeBatch(this.opts.pool(), batch, this.#salts, this.#now());
      if (this.#failing) log.info("visit counting: counts written again");
      this.#failing = false;
    } catch (err) {
      // Kept for the next write, within the caps: an outage costs memory that is bounded.
      this.#batch.merge(batch);
      if (!this.#failing) log.warn({ err: (err as Error).message }, "visit counting: could not write counts; kept for the next try");
      this.#failing = true;
    }
  }

  /** Stops the timer and writes what is left, waiting at most `timeoutMs`. */
  async stop(timeoutMs = 5000) {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    const done = this.flush();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done, new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  }
}

const g = globalThis as unknown as { __shopVisits?: VisitCounter | null };

/** Whether VISIT_COUNTING is on (the default). */
export function visitCountingEnabled(): boolean {
  return getEnv().VISIT_COUNTING === "on";
}

/**
 * The process's counter, or null when VISIT_COUNTING is off. On globalThis, like the database,
 * so the dev server's reloaded modules and the server build share one batch.
 */
export function visitCounter(): VisitCounter | null {
  if (g.__shopVisits === undefined) {
    g.__shopVisits = visitCountingEnabled() ? new VisitCounter({ flushMs: getEnv().VISIT_FLUSH_MS, pool: () => getDb().$client }) : null;
  }
  return g.__shopVisits;
}

/** At shutdown, before the database closes: the last counts are written. */
export async function stopVisitCounting() {
  const counter = g.__shopVisits;
  g.__shopVisits = undefined;
  await counter?.stop();
}
