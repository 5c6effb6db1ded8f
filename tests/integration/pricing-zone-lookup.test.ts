import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { regionCode } from "~/lib/regions";
import { loadZoneFor, loadZonesFor, matchZone, type Destination } from "~/server/commerce/pricing/shipping.server";
import { shippingRates } from "~/server/platform/db/schema";
import { makeZone, resetPricing } from "../factories/pricing";
import { useTestDatabase } from "../setup/database";

/**
 * The quote's zone lookup leaves out in the database the zones that cannot be an address's answer
 * and reads the rest with their rates in one round trip. Whatever it leaves out, its answer must be
 * the written rule's (docs/money-path.md, Shipping; docs/rules/addresses.md, Postcodes) applied to
 * every zone of the country: `matchZone` over all of them, then that zone's rates.
 */

const t = useTestDatabase();

const rate = (name: string) => [{ name, priceCents: 100 }];

beforeAll(async () => {
  await resetPricing(t.db); // the rest-of-world zone 'Everywhere'
  // The United States: whole-country zones, region zones (one saved before regions were codes,
  // under a name), postcode zones with and without a region, a prefix that never matches.
  await makeZone(t.db, { name: "US later", countries: ["US"], position: 10 }, rate("US later rate"));
  await makeZone(t.db, { name: "US first", countries: ["US"], position: 5 }, rate("US first rate"));
  await makeZone(t.db, { name: "Texas by name", countries: ["US"], regions: ["TEXAS"], position: 1 }, rate("Texas rate"));
  await makeZone(t.db, { name: "California by name", countries: ["US"], regions: ["CALIFORNIA"], position: 3 }, rate("California by name rate"));
  await makeZone(t.db, { name: "California", countries: ["US"], regions: ["CA"], position: 20 }, rate("California rate"));
  await makeZone(t.db, { name: "New York", countries: ["US"], regions: ["NY", "NJ"], position: 4 }, [
    { name: "NY ground", priceCents: 700 },
    { name: "NY courier", priceCents: 1500 },
  ]);
  await makeZone(t.db, { name: "SF", countries: ["US"], postcodePrefixes: ["941"], position: 30 }, rate("SF rate"));
  await makeZone(t.db, { name: "Bay Area", countries: ["US"], regions: ["CA"], postcodePrefixes: ["94"], position: 2 }, rate("Bay Area rate"));
  await makeZone(t.db, { name: "Nine, two countries", countries: ["US", "CA"], postcodePrefixes: ["9"], position: 40 }, rate("Nine rate"));
  await makeZone(t.db, { name: "Blank prefix", countries: ["US"], postcodePrefixes: [""], position: 0 }, rate("Blank rate"));
  // The UK: outward codes match as whole districts, letters alone as the area, a whole postcode.
  await makeZone(t.db, { name: "UK", countries: ["GB"], position: 50 }, rate("UK rate"));
  await makeZone(t.db, { name: "Islands", countries: ["GB"], postcodePrefixes: ["PA20", "KA27"], position: 51 }, rate("Islands rate"));
  await makeZone(t.db, { name: "Paisley", countries: ["GB"], postcodePrefixes: ["PA2"], position: 52 }, rate("Paisley rate"));
  await makeZone(t.db, { name: "Highlands", countries: ["GB"], postcodePrefixes: ["IV"], position: 53 }, rate("Highlands rate"));
  await makeZone(t.db, { name: "One street", countries: ["GB"], postcodePrefixes: ["PA20AA"], position: 54 }, rate("One street rate"));
  await makeZone(t.db, { name: "Renfrewshire", countries: ["GB"], regions: ["RFW"], position: 55 }, rate("Renfrewshire rate"));
  // The Isle of Man: outward codes, and no list of regions (a region is kept as typed).
  await makeZone(t.db, { name: "Isle of Man", countries: ["IM"], position: 60 }, rate("Isle of Man rate"));
  await makeZone(t.db, { name: "Douglas", countries: ["IM"], regions: ["DOUGLAS"], position: 61 }, rate("Douglas rate"));
  await makeZone(t.db, { name: "IM1", countries: ["IM"], postcodePrefixes: ["IM1"], position: 62 }, rate("IM1 rate"));
  // Germany ships by region only; France only as a whole.
  await makeZone(t.db, { name: "Bavaria", countries: ["DE"], regions: ["BY"], position: 70 }, rate("Bavaria rate"));
  await makeZone(t.db, { name: "France", countries: ["FR"], position: 80 }, rate("France rate"));
});

const ADDRESSES: Destination[] = [
  { country: "US", state: "CA", zipCode: "94103" },
  { country: "us", state: "Calif.", zipCode: "941-03" },
  { country: " US ", state: "california", zipCode: "90001" },
  { country: "US", state: "CA", zipCode: "10001" },
  { country: "US", state: "TX", zipCode: "73301" },
  { country: "US", state: "Texas", zipCode: "94103" },
  { country: "US", state: "NY", zipCode: "10001" },
  { country: "US", state: "New Jersey", zipCode: "07001" },
  { country: "US", state: "", zipCode: "94103" },
  { country: "US", state: "ZZ", zipCode: "12345" },
  { country: "US", state: "IL", zipCode: "" },
  { country: "US" },
  { country: "CA", state: "ON", zipCode: "9K1 2A3" },
  { country: "CA", state: "ON", zipCode: "K1A 0B1" },
  { country: "GB", state: "", zipCode: "PA2 0AA" },
  { country: "GB", state: "", zipCode: "PA20 0AA" },
  { country: "GB", state: "", zipCode: "pa200aa" },
  { country: "GB", state: "Renfrewshire", zipCode: "pa20aa" },
  { country: "GB", state: "Renfrewshire", zipCode: "PA3 1AA" },
  { country: "GB", state: "", zipCode: "KA27 8AA" },
  { country: "GB", state: "", zipCode: "KA2 7AB" },
  { country: "GB", state: "", zipCode: "IV2 3AB" },
  { country: "GB", state: "", zipCode: "PA2" },
  { country: "GB", state: "", zipCode: "" },
  { country: "IM", state: "Douglas", zipCode: "IM2 1AA" },
  { country: "IM", state: " douglas ", zipCode: "IM1 1AA" },
  { country: "IM", state: "Ramsey", zipCode: "IM8 1AA" },
  { country: "IM", state: "", zipCode: "IM11 1AA" },
  { country: "DE", state: "BY", zipCode: "80331" },
  { country: "DE", state: "Bayern", zipCode: "80331" },
  { country: "DE", state: "", zipCode: "10115" },
  { country: "FR", state: "", zipCode: "75001" },
  { country: "NO", state: "", zipCode: "0150" },
];

/** The written rule over every zone of the country, in the owner's order, and the chosen zone's rates in theirs. */
async function byTheRule(destination: Destination) {
  const zones = (await loadZonesFor(t.db, destination.country)).sort((a, b) => a.position - b.position);
  const zone = matchZone(zones, destination);
  const rates = zone ? await t.db.select().from(shippingRates).where(eq(shippingRates.zoneId, zone.id)).orderBy(asc(shippingRates.position)) : [];
  const country = destination.country.trim().toUpperCase();
  const named = Boolean(destination.state?.trim() && regionCode(country, destination.state));
  const regionMissing = !named && zones.some((z) => !z.restOfWorld && z.regions.length > 0 && z.countries.includes(country));
  return { zone, rateIds: rates.map((r) => r.id), regionMissing };
}

describe("the quote's zone lookup gives the written rule's answer", () => {
  it.each(ADDRESSES.map((a) => [JSON.stringify(a), a] as const))("%s", async (_, destination) => {
    const expected = await byTheRule(destination);
    const read = await loadZoneFor(t.db, destination);
    expect(read.found?.zone ?? null).toEqual(expected.zone);
    expect(read.found?.rates.map((r) => r.id) ?? []).toEqual(expected.rateIds);
    expect(read.regionMissing).toBe(expected.regionMissing);
  });

  it("picks these zones for these addresses", async () => {
    const name = async (d: Destination) => (await loadZoneFor(t.db, d)).found?.zone.name;
    // The longest prefix, then a region (one saved under its name counts), then the owner's order.
    expect(await name({ country: "US", state: "CA", zipCode: "94103" })).toBe("SF");
    expect(await name({ country: "US", state: "CA", zipCode: "94603" })).toBe("Bay Area");
    expect(await name({ country: "US", state: "california", zipCode: "80001" })).toBe("California by name");
    expect(await name({ country: "US", state: "Texas", zipCode: "73301" })).toBe("Texas by name");
    expect(await name({ country: "US", state: "NJ", zipCode: "07001" })).toBe("New York");
    expect(await name({ country: "US", state: "IL", zipCode: "60601" })).toBe("US first");
    expect(await name({ country: "CA", state: "ON", zipCode: "9K1 2A3" })).toBe("Nine, two countries");
    expect(await name({ country: "GB", zipCode: "PA2 0AA" })).toBe("One street");
    expect(await name({ country: "GB", zipCode: "PA20 0AA" })).toBe("Islands");
    expect(await name({ country: "GB", zipCode: "PA3 1AA", state: "Renfrewshire" })).toBe("Renfrewshire");
    expect(await name({ country: "IM", state: "douglas", zipCode: "IM2 1AA" })).toBe("Douglas");
    expect(await name({ country: "IM", state: "Douglas", zipCode: "IM1 1AA" })).toBe("IM1");
    expect(await name({ country: "DE", state: "", zipCode: "10115" })).toBe("Everywhere");
    expect((await loadZoneFor(t.db, { country: "DE", state: "", zipCode: "10115" })).regionMissing).toBe(true);
    expect(await name({ country: "NO", zipCode: "0150" })).toBe("Everywhere");
  });
});
