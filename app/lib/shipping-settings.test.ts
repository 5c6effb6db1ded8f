import { describe, expect, it } from "vitest";
import { COUNTRY_CODES, countryName, isCountryCode } from "./countries";
import { formatMoneyShort, freeShippingText } from "./free-shipping";
import { parseAmount, parseGrams, parsePercent } from "./shipping-settings-input";
import { bandSummary, ratePriceSummary, taxPlace, zoneCoverage } from "./shipping-settings-view";

describe("shipping settings: parsing", () => {
  it("knows the 249 ISO 3166-1 alpha-2 codes", () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(isCountryCode("FR")).toBe(true);
    expect(isCountryCode("fr")).toBe(false);
    expect(isCountryCode("UK")).toBe(false);
    expect(countryName("GB")).toBe("United Kingdom");
  });

  it("reads dollars, grams and percentages as people type them", () => {
    expect(parseAmount("$5", "Price")).toBe(500);
    expect(parseAmount(" 12.5 ", "Price")).toBe(1250);
    expect(parseAmount("-$5", "Price")).toBe("Price cannot be negative");
    expect(parseGrams("1,500 g", "To")).toBe(1500);
    expect(parseGrams("1e3", "To")).toBe("To must be a number of grams");
    expect(parsePercent("20")).toBe(2000);
    expect(parsePercent("7.25 %")).toBe(725);
    expect(parsePercent(".5")).toBe(50);
    expect(parsePercent("100")).toBe(10_000);
    expect(parsePercent("100.5")).toBe("Rate must be at most 100%");
  });
});

describe("shipping settings: what the screen and the strip say", () => {
  it("summarises zones and rates", () => {
    expect(zoneCoverage({ countries: [], regions: [], postcodePrefixes: [], restOfWorld: true })).toBe("Every address no other zone covers");
    expect(zoneCoverage({ countries: ["US", "CA"], regions: ["NY"], postcodePrefixes: ["100"], restOfWorld: false })).toBe(
      "United States, Canada · only NY · postcodes starting 100",
    );
    expect(ratePriceSummary({ kind: "flat", priceCents: 0, freeOverCents: null, weightBands: [] })).toBe("Free");
    expect(ratePriceSummary({ kind: "flat", priceCents: 550, freeOverCents: null, weightBands: [] })).toBe("$5.50");
    expect(ratePriceSummary({ kind: "free_over", priceCents: 900, freeOverCents: 7500, weightBands: [] })).toBe("$9.00 · Free over $75");
    expect(bandSummary({ fromGrams: 1000, toGrams: null, priceCents: 2000 })).toBe("1,000 g and up: $20.00");
    expect(bandSummary({ fromGrams: 0, toGrams: 500, priceCents: 0 })).toBe("0 g – 500 g: Free");
    expect(taxPlace({ country: "US", region: "CA" })).toBe("United States — CA");
  });

  it("words the benefits strip's free-shipping line", () => {
    expect(freeShippingText({ kind: "every_order" })).toBe("On every order");
    expect(freeShippingText({ kind: "over", thresholdCents: 7500 })).toBe("On all orders over $75");
    expect(freeShippingText({ kind: "over", thresholdCents: 7550 })).toBe("On all orders over $75.50");
    expect(freeShippingText(null)).toBeNull();
    expect(formatMoneyShort(150000)).toBe("$1,500");
  });
});
