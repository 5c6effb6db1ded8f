import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { UtcTime } from "./utc-time";

describe("UtcTime", () => {
  it("prints the moment in UTC whatever the machine's zone, naming the zone only when asked", () => {
    const iso = "2026-01-05T23:04:00.000Z";
    expect(renderToStaticMarkup(<UtcTime iso={iso} />)).toBe(`<time dateTime="${iso}">Jan 5, 2026, 11:04 PM</time>`);
    expect(renderToStaticMarkup(<UtcTime iso={iso} withZone />)).toBe(`<time dateTime="${iso}">Jan 5, 2026, 11:04 PM UTC</time>`);
  });
});
