import { readFileSync } from "node:fs";
import { iso31661 } from "iso-3166";
import { describe, expect, it } from "vitest";
import { renderCountryNames } from "../../scripts/countries/render";
import { COUNTRY_CODES, COUNTRY_NAMES, countryName, isCountryCode } from "./countries";

describe("the countries a zone, a tax rate or an address may name", () => {
  it("are the iso-3166 package's assigned countries, as its generator writes them, nothing typed by hand", () => {
    expect([...COUNTRY_CODES].sort()).toEqual(iso31661.map((c) => c.alpha2).sort());
    const file = readFileSync(new URL("./country-names.generated.ts", import.meta.url), "utf8");
    // A failure here: run `npm run countries:generate` after updating iso-3166.
    expect(file).toBe(renderCountryNames());
  });

  it("keep their everyday English names and the helpers' answers", () => {
    expect(countryName("GB")).toBe("United Kingdom");
    expect(countryName("US")).toBe("United States");
    expect(COUNTRY_NAMES.CI).toBe("Côte d’Ivoire");
    expect(isCountryCode("FR")).toBe(true);
    expect(isCountryCode("UK")).toBe(false);
    expect(countryName("ZZ")).toBe("ZZ");
  });
});
