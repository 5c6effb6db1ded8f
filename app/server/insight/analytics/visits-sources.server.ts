import { VISITORS_PER_ADDRESS_PER_MINUTE } from "~/lib/analytics-view";
import { limitedSource } from "../../platform/index.server";

/**
 * How many visitors one network address may add to the counts in a minute (docs/rules/analytics.md,
 * Visits). A visitor is an address and a user agent, so a script that varies its user agent
 * would otherwise be a new visitor, cart adder and checkout starter at every request. The address
 * is the source rate limits count (`limitedSource`: an IPv6 client by its /64). Within a minute
 * the first `perMinute` visitors of a source count in full; later ones that minute count as page
 * views only (no visitor, no funnel step, no cart addition). Kept in this process's memory, like
 * the batch itself: a page view never waits for the database.
 */
export class SourceLimit {
  #minute = -1;
  /** Source → the visitor keys it was allowed this minute. */
  #seen = new Map<string, Set<string>>();
  #keys = 0;

  constructor(
    readonly perMinute = VISITORS_PER_ADDRESS_PER_MINUTE,
    /** Keys kept a minute at most (a flood of sources costs bounded memory; past it nothing new counts). */
    readonly maxKeys = 20_000,
  ) {}

  /** Whether this visitor (its key) from this address may be counted now. */
  admits(address: string, key: string, now: number): boolean {
    const minute = Math.floor(now / 60_000);
    if (minute !== this.#minute) {
      this.#minute = minute;
      this.#seen = new Map();
      this.#keys = 0;
    }
    const source = limitedSource(address);
    let keys = this.#seen.get(source);
    if (keys?.has(key)) return true;
    if ((keys?.size ?? 0) >= this.perMinute || this.#keys >= this.maxKeys) return false;
    if (!keys) this.#seen.set(source, (keys = new Set()));
    keys.add(key);
    this.#keys++;
    return true;
  }
}
