import { describe, expect, it } from "vitest";
import { OTHER_PATH, STEP, VisitBatch, type BatchLimits } from "./visits-batch.server";
import { cartHash, utcDay, visitorHash, visitorKey } from "./visits-hash.server";

const small: BatchLimits = { paths: 3, visitors: 2, cartPairs: 3, cartPairsPerVisitor: 2, terms: 2 };
const day = "2026-03-01";

describe("visitor hashes", () => {
  it("are the same for the same address, user agent and salt, and change with each", () => {
    const key = visitorKey("203.0.113.9", "Firefox");
    expect(visitorKey("203.0.113.9", "Firefox")).toBe(key);
    expect(visitorKey("203.0.113.9", "Chrome")).not.toBe(key);
    expect(visitorKey("203.0.113.10", "Firefox")).not.toBe(key);
    const stored = visitorHash("salt-1", key);
    expect(stored).toBe(visitorHash("salt-1", key));
    expect(visitorHash("salt-2", key)).not.toBe(stored);
    // 128 bits, and nothing of the address or user agent in it.
    expect(stored).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(cartHash("salt-1", key, "p1")).not.toBe(cartHash("salt-1", key, "p2"));
    expect(cartHash("salt-1", key, "p1")).not.toBe(stored);
  });

  it("use the UTC day", () => {
    expect(utcDay(Date.parse("2026-03-01T23:59:59.999Z"))).toBe("2026-03-01");
    expect(utcDay(Date.parse("2026-03-02T00:00:00Z"))).toBe("2026-03-02");
  });
});

describe("a batch of counts", () => {
  it("adds page views per path and ORs a visitor's steps", () => {
    const b = new VisitBatch(small);
    b.pageView(day, "/");
    b.pageView(day, "/");
    b.pageView(day, "/product/1");
    b.visitor(day, "k1", STEP.visitor);
    b.visitor(day, "k1", STEP.visitor | STEP.product);
    const d = b.days.get(day)!;
    expect(d.pageViews).toBe(3);
    expect([...d.paths]).toEqual([
      ["/", 2],
      ["/product/1", 1],
    ]);
    expect(d.visitors.get("k1")).toBe(STEP.visitor | STEP.product);
  });

  it("counts paths past the cap under (other), so a flood of paths takes bounded memory", () => {
    const b = new VisitBatch(small);
    for (let i = 0; i < 1000; i++) b.pageView(day, `/blog/${i}`);
    const d = b.days.get(day)!;
    expect(d.paths.size).toBe(small.paths + 1);
    expect(d.paths.get(OTHER_PATH)).toBe(1000 - small.paths);
    expect(d.pageViews).toBe(1000);
    expect(b.isFull).toBe(true);
  });

  it("drops visitors, cart pairs and terms past their caps, and says how many", () => {
    const b = new VisitBatch(small);
    for (let i = 0; i < 5; i++) b.visitor(day, `k${i}`, STEP.visitor);
    expect(b.days.get(day)!.visitors.size).toBe(small.visitors);
    expect(b.dropped.visitors).toBe(3);
    for (let i = 0; i < 5; i++) b.cartAdd(day, "k0", `p${i}`);
    b.cartAdd(day, "k0", "p0");
    expect(b.days.get(day)!.cartPairCount).toBe(small.cartPairsPerVisitor);
    for (let i = 0; i < 5; i++) b.search(day, `t${i}`, false);
    expect(b.days.get(day)!.terms.size).toBe(small.terms);
    expect(b.dropped.terms).toBe(3);
  });

  it("counts one product added again and again by one visitor once", () => {
    const b = new VisitBatch();
    for (let i = 0; i < 10_000; i++) b.cartAdd(day, "k", "p");
    expect(b.days.get(day)!.cartPairCount).toBe(1);
  });

  it("keeps a failed batch's counts when merged into the next", () => {
    const failed = new VisitBatch(small);
    failed.pageView(day, "/");
    failed.visitor(day, "k1", STEP.visitor | STEP.cart);
    failed.cartAdd(day, "k1", "p");
    failed.search(day, "duvet", true);
    failed.search(day, "duvet", false);
    const next = new VisitBatch(small);
    next.pageView(day, "/");
    next.visitor(day, "k1", STEP.checkout);
    next.merge(failed);
    const d = next.days.get(day)!;
    expect(d.paths.get("/")).toBe(2);
    expect(d.pageViews).toBe(2);
    expect(d.visitors.get("k1")).toBe(STEP.visitor | STEP.cart | STEP.checkout);
    expect(d.cartPairCount).toBe(1);
    expect(d.terms.get("duvet")).toEqual({ searches: 2, empty: 1 });
  });

  it("holds at most three days, dropping the oldest", () => {
    const b = new VisitBatch(small);
    for (const d of ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"]) b.pageView(d, "/");
    expect([...b.days.keys()].sort()).toEqual(["2026-03-02", "2026-03-03", "2026-03-04"]);
    b.pageView("2026-02-01", "/");
    expect(b.days.has("2026-02-01")).toBe(false);
    expect(b.dropped.days).toBe(2);
  });
});
