/**
 * The counts gathered in memory between two writes (docs/rules/analytics.md, Visits). Bounded:
 * each kind of key has a cap per batch, so a flood of distinct paths, visitors or search terms
 * costs a fixed amount of memory. Past a cap a batch still counts page views (an extra path goes
 * to OTHER_PATH), but an extra visitor, cart pair or term is dropped and counted in `dropped`;
 * the counter writes a full batch at once, so caps are only reached under a flood.
 */

/** The funnel steps, a bit each in visitor_days.steps. */
export const STEP = { visitor: 1, product: 2, cart: 4, checkout: 8 } as const;

/** Where page views of paths past the cap are counted. */
export const OTHER_PATH = "(other)";

export type BatchLimits = {
  /** Distinct paths per day. */
  paths: number;
  /** Distinct visitors per day. */
  visitors: number;
  /** Distinct (visitor, product) cart additions per day. */
  cartPairs: number;
  /** Distinct products one visitor may add per batch (a flood of random product ids). */
  cartPairsPerVisitor: number;
  /** Distinct search terms per day. */
  terms: number;
};

export const DEFAULT_LIMITS: BatchLimits = { paths: 2000, visitors: 20_000, cartPairs: 5000, cartPairsPerVisitor: 20, terms: 1000 };

/** Days one batch may hold: today, yesterday (a batch written after midnight) and one more. */
const MAX_DAYS = 3;

export type TermCount = { searches: number; empty: number };

/** One UTC day's counts. Visitors are keyed by visitorKey() (address and user agent: memory only, never stored). */
export class DayCounts {
  pageViews = 0;
  readonly paths = new Map<string, number>();
  /** visitor key → the funnel steps seen in this batch. */
  readonly visitors = new Map<string, number>();
  /** visitor key → products added to the cart in this batch. */
  readonly cartPairs = new Map<string, Set<string>>();
  cartPairCount = 0;
  readonly terms = new Map<string, TermCount>();
}

export class VisitBatch {
  readonly days = new Map<string, DayCounts>();
  readonly dropped = { visitors: 0, cartPairs: 0, terms: 0, days: 0 };
  constructor(readonly limits: BatchLimits = DEFAULT_LIMITS) {}

  #day(day: string): DayCounts {
    let counts = this.days.get(day);
    if (counts) return counts;
    counts = new DayCounts();
    // Only a long outage (batches that could not be written, merged back) spans more days.
    if (this.days.size >= MAX_DAYS) {
      const oldest = [...this.days.keys()].sort()[0]!;
      this.dropped.days++;
      if (day < oldest) return counts; // Counted nowhere: older than every day kept.
      this.days.delete(oldest);
    }
    this.days.set(day, counts);
    return counts;
  }

  /** `views` page views of `path` (0 for a step without a page, such as an add to cart). */
  pageView(day: string, path: string, views = 1) {
    if (views <= 0) return;
    const d = this.#day(day);
    d.pageViews += views;
    const key = d.paths.has(path) || d.paths.size < this.limits.paths ? path : OTHER_PATH;
    d.paths.set(key, (d.paths.get(key) ?? 0) + views);
  }

  /** The funnel steps a visitor reached; each is counted once a day when written. */
  visitor(day: string, key: string, steps: number) {
    const d = this.#day(day);
    const had = d.visitors.get(key);
    if (had === undefined && d.visitors.size >= this.limits.visitors) {
      this.dropped.visitors++;
      return;
    }
    d.visitors.set(key, (had ?? 0) | steps);
  }

  cartAdd(day: string, key: string, productId: string) {
    const d = this.#day(day);
    let products = d.cartPairs.get(key);
    if (products?.has(productId)) return;
    if (d.cartPairCount >= this.limits.cartPairs || (products?.size ?? 0) >= this.limits.cartPairsPerVisitor) {
      this.dropped.cartPairs++;
      return;
    }
    if (!products) d.cartPairs.set(key, (products = new Set()));
    products.add(productId);
    d.cartPairCount++;
  }

  search(day: string, term: string, empty: boolean, times = 1, emptyTimes = empty ? times : 0) {
    const d = this.#day(day);
    let t = d.terms.get(term);
    if (!t) {
      if (d.terms.size >= this.limits.terms) {
        this.dropped.terms += times;
        return;
      }
      d.terms.set(term, (t = { searches: 0, empty: 0 }));
    }
    t.searches += times;
    t.empty += emptyTimes;
  }

  get isEmpty(): boolean {
    return this.days.size === 0;
  }

  /** Whether some cap is reached: the counter writes the batch now rather than lose more. */
  get isFull(): boolean {
    for (const d of this.days.values()) {
      if (
        d.paths.size >= this.limits.paths ||
        d.visitors.size >= this.limits.visitors ||
        d.cartPairCount >= this.limits.cartPairs ||
        d.terms.size >= this.limits.terms
      ) {
        return true;
      }
    }
    return false;
  }

  /** Adds a batch that could not be written back in, within this batch's caps. */
  merge(other: VisitBatch) {
    for (const [day, d] of other.days) {
      for (const [path, views] of d.paths) this.pageView(day, path, views);
      for (const [key, steps] of d.visitors) this.visitor(day, key, steps);
      for (const [key, products] of d.cartPairs) for (const p of products) this.cartAdd(day, key, p);
      for (const [term, t] of d.terms) this.search(day, term, t.empty > 0, t.searches, t.empty);
    }
  }
}
