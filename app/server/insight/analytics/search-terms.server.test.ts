import { describe, expect, it } from "vitest";
import { foundNothing, MAX_TERM_LENGTH, normaliseSearchTerm, sameSearchAsReferer, searchOf } from "./search-terms.server";

describe("search terms as they are counted", () => {
  it("lower-cases, collapses spaces and drops control characters; empty is no term", () => {
    expect(normaliseSearchTerm("  Linen   DUVET\tcover ")).toBe("linen duvet cover");
    expect(normaliseSearchTerm("nul\u0000byte")).toBe("nul byte");
    expect(normaliseSearchTerm("   ")).toBeNull();
    expect(normaliseSearchTerm("")).toBeNull();
    expect(normaliseSearchTerm(null)).toBeNull();
  });

  it("keeps at most 100 whole characters", () => {
    expect(normaliseSearchTerm("a".repeat(5000))).toHaveLength(MAX_TERM_LENGTH);
    const emoji = normaliseSearchTerm("🛏".repeat(150))!;
    expect(Array.from(emoji)).toHaveLength(MAX_TERM_LENGTH);
    expect(emoji).toBe("🛏".repeat(MAX_TERM_LENGTH));
  });

  it("counts the first page of a search only", () => {
    expect(searchOf("?search=Duvet")).toBe("duvet");
    expect(searchOf("?search=duvet&page=1")).toBe("duvet");
    expect(searchOf("?search=duvet&page=2")).toBeNull();
    expect(searchOf("?category=Bedding")).toBeNull();
    expect(searchOf("")).toBeNull();
  });

  it("takes a sort or category change on the same results as the same search", () => {
    expect(sameSearchAsReferer("duvet", "http://shop.test/shop?search=Duvet", "shop.test")).toBe(true);
    expect(sameSearchAsReferer("duvet", "http://shop.test/shop?search=quilt", "shop.test")).toBe(false);
    expect(sameSearchAsReferer("duvet", "http://shop.test/", "shop.test")).toBe(false);
    expect(sameSearchAsReferer("duvet", "http://other.test/shop?search=duvet", "shop.test")).toBe(false);
    expect(sameSearchAsReferer("duvet", undefined, "shop.test")).toBe(false);
  });

  it("reads the loader's result count", () => {
    expect(foundNothing("0")).toBe(true);
    expect(foundNothing("12")).toBe(false);
    expect(foundNothing(undefined)).toBeNull();
    expect(foundNothing("x")).toBeNull();
  });
});
