import { describe, expect, it } from "vitest";
import { pageParam } from "./page-param.server";

describe("pageParam", () => {
  it("reads a whole page number and falls back to page 1 for anything unusable", () => {
    const page = (q: string) => pageParam(new URLSearchParams(q));
    expect([page(""), page("page=3"), page("page=2.9"), page("page=0"), page("page=-2"), page("page=abc")]).toEqual([1, 3, 2, 1, 1, 1]);
    expect([page("page=Infinity"), page("page=1e30")]).toEqual([1, 100_000]);
  });
});
