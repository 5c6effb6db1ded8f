import { describe, expect, it } from "vitest";
import { MAX_CHECK_GAP_MS, StorefrontChanges, type ChangeQuery } from "./storefront-changes.server";

/** A change log in memory: each check answers what was "committed" since the last one. */
function fakeLog() {
  let pending: (string | null)[] = [];
  let snapshot = 0;
  const calls: (string | null)[] = [];
  let release: (() => void) | null = null;
  let gate: Promise<void> | null = null;
  const query: ChangeQuery = async (since) => {
    calls.push(since);
    // What is committed when the query starts is what it reports.
    const changes = since === null ? [null] : pending;
    pending = [];
    const answer = { snapshot: String(++snapshot), changes };
    if (gate) await gate;
    return answer;
  };
  return {
    query,
    calls,
    commit: (...products: (string | null)[]) => pending.push(...products),
    hold() {
      gate = new Promise((r) => (release = r));
    },
    letGo() {
      gate = null;
      release?.();
    },
  };
}

describe("StorefrontChanges", () => {
  it("keeps a page fresh until a check reports a change that concerns it", async () => {
    const log = fakeLog();
    const changes = new StorefrontChanges(log.query);
    await changes.checkAfterNow();
    const rendered = changes.generation;
    expect(changes.isFresh(rendered, null)).toBe(true);

    log.commit("p1");
    await changes.checkAfterNow();
    // Its own stock changed: the product page is stale; listings and other products are not.
    expect(changes.isFresh(rendered, "p1")).toBe(false);
    expect(changes.isFresh(rendered, "p2")).toBe(true);
    expect(changes.isFresh(rendered, null)).toBe(true);
    // A page rendered after that check is fresh again.
    expect(changes.isFresh(changes.generation, "p1")).toBe(true);

    log.commit(null);
    await changes.checkAfterNow();
    expect(changes.isFresh(rendered, null)).toBe(false);
    expect(changes.isFresh(rendered, "p2")).toBe(false);
  });

  it("answers a request with a check that started after it arrived, one query for everyone who waited", async () => {
    const log = fakeLog();
    const changes = new StorefrontChanges(log.query);
    await changes.checkAfterNow();
    const rendered = changes.generation;

    log.hold();
    const first = changes.checkAfterNow(); // in flight, started before the change below
    log.commit("p1");
    const second = changes.checkAfterNow();
    const third = changes.checkAfterNow();
    log.letGo();
    await first;
    expect(changes.isFresh(rendered, "p1")).toBe(true); // the first check could not see it
    await Promise.all([second, third]);
    expect(changes.isFresh(rendered, "p1")).toBe(false);
    expect(log.calls).toHaveLength(3); // the start, the held one, and one shared by the two waiting
  });

  it("trusts nothing after a failed check, nor after a long gap between checks", async () => {
    const log = fakeLog();
    let now = 0;
    const changes = new StorefrontChanges(log.query, () => now);
    await changes.checkAfterNow();
    const rendered = changes.generation;
    now += MAX_CHECK_GAP_MS + 1;
    await changes.checkAfterNow();
    expect(changes.isFresh(rendered, null)).toBe(false);

    const failing = new StorefrontChanges(async () => {
      throw new Error("database down");
    });
    expect(await failing.checkAfterNow()).toBe(false);
  });
});
