import { asc, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { action, loader } from "~/routes/admin/settings/shipping";
import { loader as homeLoader } from "~/routes/store/home";
import { shippingRates, shippingZones, storefrontChanges, taxRates, taxSettings } from "~/server/platform/db/schema";
import { freeShippingClaim } from "~/server/commerce/pricing/free-shipping.server";
import { loadZoneFor, loadZonesFor, matchZone, shippingOptions } from "~/server/commerce/pricing/shipping.server";
import { loadTaxSettings, taxRateFor } from "~/server/commerce/pricing/tax.server";
import { makeAdmin, makeCustomer, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post } from "./admin-catalog-helpers";

const t = useTestDatabase();
let admin: TestUser;
const PATH = "/admin/settings/shipping";
const MISSING = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  admin = await makeAdmin(t.db);
});

const send = (body: unknown) => post(t.db, action, admin, PATH, body);
const page = async () => (await get(t.db, loader, admin, PATH)).body.settings;

/** Every row of the four tables, to prove a refused write changed nothing. */
async function snapshot() {
  return JSON.stringify([
    await t.db.select().from(shippingZones).orderBy(asc(shippingZones.id)),
    await t.db.select().from(shippingRates).orderBy(asc(shippingRates.id)),
    await t.db.select().from(taxRates).orderBy(asc(taxRates.id)),
    await t.db.select().from(taxSettings),
  ]);
}

/** Sends a write that must be refused: answers the body, after checking nothing was saved. */
async function refused(body: unknown, status = 400) {
  const before = await snapshot();
  const res = await send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.ok).toBe(false);
  expect(await snapshot()).toBe(before);
  return res.body as { title: string; message: string; errors: Record<string, string> };
}

const zoneValues = (overrides: Record<string, unknown> = {}) => ({
  name: "France",
  countries: "FR",
  regions: "",
  postcodePrefixes: "",
  restOfWorld: false,
  ...overrides,
});

const rateValues = (overrides: Record<string, unknown> = {}) => ({
  name: "Standard",
  kind: "flat",
  price: "5",
  freeOver: "",
  bands: [],
  estimate: "",
  ...overrides,
});

async function makeZone(overrides: Record<string, unknown> = {}) {
  const res = await send({ intent: "create-zone", values: zoneValues(overrides) });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ ok: true });
  const [row] = await t.db.select().from(shippingZones).where(eq(shippingZones.name, String(overrides.name ?? "France")));
  return row!;
}

async function makeRate(zoneId: string, overrides: Record<string, unknown> = {}) {
  const res = await send({ intent: "create-rate", zoneId, values: rateValues(overrides) });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ ok: true });
  const rows = await t.db.select().from(shippingRates).where(eq(shippingRates.zoneId, zoneId));
  return rows.find((r) => r.name === String(overrides.name ?? "Standard"))!;
}

/** Back to the migration's state: the 'Everywhere' zone with its free 'Standard' rate, no tax. */
async function resetToDefault() {
  await t.db.delete(shippingZones).where(eq(shippingZones.restOfWorld, false));
  await t.db.delete(taxRates);
  await t.db.update(taxSettings).set({ taxName: "Tax", pricesIncludeTax: false, shippingTaxable: false });
}

describe("Shipping & Tax: who may use it", () => {
  it("refuses customers (403) and sends anonymous visitors to sign in, saving nothing", async () => {
    const customer = await makeCustomer(t.db);
    const before = await snapshot();
    for (const as of [customer, null]) {
      const expected = as ? 403 : 302;
      expect((await get(t.db, loader, as, PATH)).status).toBe(expected);
      for (const body of [
        { intent: "create-zone", values: zoneValues({ name: "Sneaky" }) },
        { intent: "save-tax-settings", values: { taxName: "Sneaky", pricesIncludeTax: true } },
        { intent: "create-tax-rate", values: { country: "FR", rate: "20" } },
      ]) {
        expect((await post(t.db, action, as, PATH, body)).status).toBe(expected);
      }
    }
    expect(await snapshot()).toBe(before);
  });

  it("answers an unknown intent with 400", async () => {
    const res = await refused({ intent: "drop-everything" });
    expect(res.message).toBe("This action is not supported");
  });
});

describe("Shipping & Tax: the default state", () => {
  it("shows the seeded 'Everywhere' zone with its free 'Standard' rate, 'Tax' and no rates", async () => {
    const settings = await page();
    expect(settings.zones).toHaveLength(1);
    expect(settings.zones[0]).toMatchObject({ name: "Everywhere", restOfWorld: true, countries: [] });
    expect(settings.zones[0].rates).toEqual([
      expect.objectContaining({ name: "Standard", kind: "flat", priceCents: 0, freeOverCents: null, weightBands: [] }),
    ]);
    expect(settings.taxSettings).toEqual({ taxName: "Tax", pricesIncludeTax: false, shippingTaxable: false });
    expect(settings.taxRates).toEqual([]);
  });
});

describe("Shipping & Tax: zones", () => {
  beforeEach(resetToDefault);

  it("adds a zone, storing countries, regions and postcode prefixes as the pricing engine compares them", async () => {
    const res = await send({
      intent: "create-zone",
      values: zoneValues({ name: "  US East ", countries: "us, ca ,US", regions: " new   york ,ma\nNJ", postcodePrefixes: "100 01, 02-1, h3z" }),
    });
    expect(res.body).toEqual({ ok: true, message: "Zone added successfully" });
    const [zone] = await t.db.select().from(shippingZones).where(eq(shippingZones.name, "US East"));
    expect(zone).toMatchObject({
      countries: ["US", "CA"],
      regions: ["NY", "MA", "NJ"],
      postcodePrefixes: ["10001", "021", "H3Z"],
      restOfWorld: false,
    });
    // Listed before the rest-of-world zone.
    expect((await page()).zones.map((z: { name: string }) => z.name)).toEqual(["US East", "Everywhere"]);

    // The engine finds it for an address typed any which way.
    await makeRate(zone!.id, { name: "Ground", price: "7" });
    const found = await loadZonesFor(t.db, "us");
    expect(matchZone(found, { country: "us", state: "New York", zipCode: "10001-1234" })?.id).toBe(zone!.id);
    expect(matchZone(found, { country: "US", state: "TX", zipCode: "10001" })?.name).toBe("Everywhere");
  });

  it("accepts countries as an array too, and adds zones in order", async () => {
    await makeZone({ name: "Benelux", countries: ["be", "NL", "lu"] });
    await makeZone({ name: "Nordics", countries: "SE NO DK FI IS" });
    const zones = (await page()).zones;
    expect(zones.map((z: { name: string }) => z.name)).toEqual(["Benelux", "Nordics", "Everywhere"]);
    expect(zones[0].countries).toEqual(["BE", "NL", "LU"]);
  });

  it("edits a zone", async () => {
    const zone = await makeZone();
    const res = await send({ intent: "update-zone", id: zone.id, values: zoneValues({ name: "France & Monaco", countries: "FR, MC", regions: "", postcodePrefixes: "75" }) });
    expect(res.body).toEqual({ ok: true, message: "Zone updated successfully" });
    const [row] = await t.db.select().from(shippingZones).where(eq(shippingZones.id, zone.id));
    expect(row).toMatchObject({ name: "France & Monaco", countries: ["FR", "MC"], postcodePrefixes: ["75"] });
  });

  it("deletes a zone with its rates", async () => {
    const zone = await makeZone();
    await makeRate(zone.id);
    const res = await send({ intent: "delete-zone", id: zone.id });
    expect(res.body).toEqual({ ok: true, message: "Zone deleted successfully" });
    expect(await t.db.select().from(shippingZones).where(eq(shippingZones.id, zone.id))).toHaveLength(0);
    expect(await t.db.select().from(shippingRates).where(eq(shippingRates.zoneId, zone.id))).toHaveLength(0);
  });

  it("answers a zone that does not exist (or an id that is not one) with 404", async () => {
    for (const id of [MISSING, "not-an-id"]) {
      expect((await refused({ intent: "update-zone", id, values: zoneValues() }, 404)).title).toBe("Failed to update zone");
      expect((await refused({ intent: "delete-zone", id }, 404)).message).toBe("This zone no longer exists. Another admin may have deleted it.");
      expect((await refused({ intent: "create-rate", zoneId: id, values: rateValues() }, 404)).title).toBe("Failed to add rate");
    }
  });

  it("refuses bad zones with a message beside each field, saving nothing", async () => {
    const create = (values: Record<string, unknown>) => refused({ intent: "create-zone", values: zoneValues(values) });
    expect((await create({ name: "   " })).errors).toEqual({ name: "Zone name is required" });
    expect((await create({ name: "x".repeat(10_000) })).errors).toEqual({ name: "Zone name must be at most 100 characters" });
    expect((await create({ name: { evil: true } })).errors.name).toBe("Zone name must be text");
    const unknown = await create({ countries: "FR, XX, usa" });
    expect(unknown.title).toBe("Failed to add zone");
    expect(unknown.errors).toEqual({ countries: "Unknown country codes: XX, USA. Use two-letter ISO codes such as US, GB, FR" });
    expect(unknown.message).toBe(unknown.errors.countries);
    expect((await create({ countries: "" })).errors).toEqual({ countries: "Add at least one country (or make this the rest-of-the-world zone)" });
    expect((await create({ postcodePrefixes: "75, 9#2" })).errors).toEqual({ postcodePrefixes: "Postcode prefixes may contain only letters and digits" });
    expect((await create({ postcodePrefixes: "1".repeat(21) })).errors).toEqual({ postcodePrefixes: "Each postcode prefix must be at most 20 characters" });
    expect((await create({ regions: "x".repeat(101) })).errors).toEqual({ regions: "Each region must be at most 100 characters" });
    // Several problems at once: each beside its field.
    expect(Object.keys((await create({ name: "", countries: "ZZ" })).errors).sort()).toEqual(["countries", "name"]);
  });

  it("allows at most one rest-of-world zone, which names no places", async () => {
    const taken = await refused({ intent: "create-zone", values: zoneValues({ name: "World 2", countries: "", restOfWorld: true }) }, 409);
    expect(taken.errors).toEqual({ restOfWorld: 'There is already a rest-of-the-world zone ("Everywhere"): a shop has at most one' });
    const zone = await makeZone();
    await refused({ intent: "update-zone", id: zone.id, values: zoneValues({ countries: "", restOfWorld: true }) }, 409);

    const [everywhere] = await t.db.select().from(shippingZones).where(eq(shippingZones.restOfWorld, true));
    const named = await refused({ intent: "update-zone", id: everywhere!.id, values: zoneValues({ name: "Everywhere", countries: "FR", regions: "X", postcodePrefixes: "1", restOfWorld: true }) });
    expect(named.errors).toEqual({
      countries: "The rest-of-the-world zone names no countries: leave this empty",
      regions: "The rest-of-the-world zone names no regions: leave this empty",
      postcodePrefixes: "The rest-of-the-world zone names no postcodes: leave this empty",
    });
    // Renaming the rest-of-world zone itself is fine; once it is gone another may take its place.
    expect((await send({ intent: "update-zone", id: everywhere!.id, values: zoneValues({ name: "Rest of World", countries: "", restOfWorld: true }) })).body.ok).toBe(true);
    expect((await send({ intent: "delete-zone", id: everywhere!.id })).body.ok).toBe(true);
    const world = await makeZone({ name: "World", countries: "", restOfWorld: true });
    // Put the migration's zone back for the other tests.
    await t.db.update(shippingZones).set({ name: "Everywhere" }).where(eq(shippingZones.id, world.id));
    await t.db.insert(shippingRates).values({ zoneId: world.id, name: "Standard", kind: "flat", priceCents: 0 });
  });

  it("lets only one of two admins adding a rest-of-world zone at the same moment succeed", async () => {
    const [everywhere] = await t.db.select().from(shippingZones).where(eq(shippingZones.restOfWorld, true));
    await t.db.delete(shippingZones).where(eq(shippingZones.id, everywhere!.id));
    const results = await Promise.all(
      ["World A", "World B"].map((name) => send({ intent: "create-zone", values: zoneValues({ name, countries: "", restOfWorld: true }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const rows = await t.db.select().from(shippingZones).where(eq(shippingZones.restOfWorld, true));
    expect(rows).toHaveLength(1);
    await t.db.update(shippingZones).set({ name: "Everywhere" }).where(eq(shippingZones.id, rows[0]!.id));
    await t.db.insert(shippingRates).values({ zoneId: rows[0]!.id, name: "Standard", kind: "flat", priceCents: 0 });
  });
});

describe("Shipping & Tax: rates", () => {
  let zoneId: string;
  beforeEach(async () => {
    await resetToDefault();
    zoneId = (await makeZone()).id;
  });

  it("adds a flat rate from typed dollars", async () => {
    for (const [typed, cents] of [["$5", 500], ["12.50", 1250], ["0", 0], ["1,299.9", 129990]] as const) {
      const res = await send({ intent: "create-rate", zoneId, values: rateValues({ name: `Flat ${typed}`, price: typed, estimate: "  2–3 days " }) });
      expect(res.body).toEqual({ ok: true, message: "Rate added successfully" });
      const [row] = await t.db.select().from(shippingRates).where(eq(shippingRates.name, `Flat ${typed}`));
      expect(row).toMatchObject({ kind: "flat", priceCents: cents, freeOverCents: null, weightBands: [], estimate: "2–3 days" });
    }
  });

  it("adds a free-over rate and a weight rate, and the engine prices carts with them", async () => {
    await makeRate(zoneId, { name: "Standard", kind: "free_over", price: "9", freeOver: "$75" });
    await makeRate(zoneId, {
      name: "By weight",
      kind: "weight",
      bands: [
        { from: "0", to: "1000", price: "4.50" },
        { from: "1000", to: "5000", price: "9" },
        { from: "8000", to: "", price: "20" },
      ],
    });
    const rates = await t.db.select().from(shippingRates).where(eq(shippingRates.zoneId, zoneId)).orderBy(asc(shippingRates.position));
    expect(rates.map((r) => [r.name, r.kind, r.priceCents, r.freeOverCents])).toEqual([
      ["Standard", "free_over", 900, 7500],
      ["By weight", "weight", 0, null],
    ]);
    expect(rates[1]!.weightBands).toEqual([
      { fromGrams: 0, toGrams: 1000, priceCents: 450 },
      { fromGrams: 1000, toGrams: 5000, priceCents: 900 },
      { fromGrams: 8000, toGrams: null, priceCents: 2000 },
    ]);
    const loaded = (await loadZoneFor(t.db, { country: "FR" })).found;
    expect(loaded?.zone.id).toBe(zoneId);
    const mine = loaded!.rates;
    expect(shippingOptions(mine, { goodsCents: 8000, weightGrams: 500 }).map((o) => [o.name, o.amountCents])).toEqual([
      ["Standard", 0],
      ["By weight", 450],
    ]);
    // In the gap between 5 kg and 8 kg the weight rate does not apply.
    expect(shippingOptions(mine, { goodsCents: 1000, weightGrams: 6000 }).map((o) => o.name)).toEqual(["Standard"]);

    const summary = (await page()).zones.find((z: { id: string }) => z.id === zoneId).rates;
    expect(summary.map((r: { name: string }) => r.name)).toEqual(["Standard", "By weight"]);
  });

  it("edits and deletes a rate", async () => {
    const rate = await makeRate(zoneId);
    const res = await send({ intent: "update-rate", id: rate.id, values: rateValues({ name: "Express", price: "15", estimate: "Next day" }) });
    expect(res.body).toEqual({ ok: true, message: "Rate updated successfully" });
    const [row] = await t.db.select().from(shippingRates).where(eq(shippingRates.id, rate.id));
    expect(row).toMatchObject({ name: "Express", priceCents: 1500, estimate: "Next day", zoneId });
    expect((await send({ intent: "delete-rate", id: rate.id })).body).toEqual({ ok: true, message: "Rate deleted successfully" });
    expect(await t.db.select().from(shippingRates).where(eq(shippingRates.id, rate.id))).toHaveLength(0);
    expect((await refused({ intent: "delete-rate", id: rate.id }, 404)).message).toBe("This rate no longer exists. Another admin may have deleted it.");
    expect((await refused({ intent: "update-rate", id: rate.id, values: rateValues() }, 404)).title).toBe("Failed to update rate");
  });

  it("refuses bad names, kinds, prices and estimates with a message per field, saving nothing", async () => {
    const create = (values: Record<string, unknown>) => refused({ intent: "create-rate", zoneId, values: rateValues(values) });
    expect((await create({ name: "" })).errors).toEqual({ name: "Rate name is required" });
    expect((await create({ name: "x".repeat(10_000) })).errors).toEqual({ name: "Rate name must be at most 100 characters" });
    expect((await create({ kind: "teleport" })).errors).toEqual({ kind: "Choose how this rate is priced" });
    expect((await create({ price: "-5" })).errors).toEqual({ price: "Price cannot be negative" });
    expect((await create({ price: "$-5" })).errors).toEqual({ price: "Price cannot be negative" });
    expect((await create({ price: "five" })).errors).toEqual({ price: "Price must be an amount like 12.50" });
    expect((await create({ price: "1.999" })).errors).toEqual({ price: "Price must be an amount like 12.50" });
    expect((await create({ price: "" })).errors).toEqual({ price: "Price is required" });
    expect((await create({ price: "99999999" })).errors).toEqual({ price: "Price must be at most $1,000,000.00" });
    expect((await create({ estimate: "x".repeat(201) })).errors).toEqual({ estimate: "Estimate must be at most 200 characters" });
    const first = await create({ kind: "free_over", price: "9", freeOver: "" });
    expect(first).toMatchObject({ title: "Failed to add rate", message: "Free over amount is required", errors: { freeOver: "Free over amount is required" } });
    expect((await create({ kind: "free_over", price: "9", freeOver: "-75" })).errors).toEqual({ freeOver: "Free over amount cannot be negative" });
    expect((await create({ kind: "free_over", price: "x", freeOver: "abc" })).errors).toEqual({
      price: "Price must be an amount like 12.50",
      freeOver: "Free over amount must be an amount like 12.50",
    });
  });

  it("refuses bad weight bands with a message beside the band's field, saving nothing", async () => {
    const bands = (b: unknown) => refused({ intent: "create-rate", zoneId, values: rateValues({ kind: "weight", price: "", bands: b }) });
    expect((await bands([])).errors).toEqual({ bands: "Add at least one weight band" });
    expect((await bands("0-1000")).errors).toEqual({ bands: "Add at least one weight band" });
    expect((await bands(Array.from({ length: 51 }, (_, i) => ({ from: String(i), to: String(i + 1), price: "1" })))).errors).toEqual({
      bands: "A rate can have at most 50 weight bands",
    });
    // from > to, and from = to
    expect((await bands([{ from: "1000", to: "500", price: "5" }])).errors).toEqual({ "bands.0.to": "To must be more than From" });
    expect((await bands([{ from: "500", to: "500", price: "5" }])).errors).toEqual({ "bands.0.to": "To must be more than From" });
    // overlapping
    expect(
      (
        await bands([
          { from: "0", to: "1000", price: "5" },
          { from: "900", to: "2000", price: "9" },
        ])
      ).errors,
    ).toEqual({ "bands.1.from": "Overlaps the band before it, which runs to 1,000 g" });
    // out of order
    expect(
      (
        await bands([
          { from: "1000", to: "2000", price: "5" },
          { from: "0", to: "1000", price: "9" },
        ])
      ).errors,
    ).toEqual({ "bands.1.from": "Bands must be in order of weight, lightest first" });
    // unbounded band not last
    expect(
      (
        await bands([
          { from: "0", to: "", price: "5" },
          { from: "1000", to: "2000", price: "9" },
        ])
      ).errors,
    ).toEqual({ "bands.0.to": "Only the last band can have no upper limit" });
    // negative, fractional and non-numeric grams; bad prices
    expect((await bands([{ from: "-1", to: "10", price: "5" }])).errors).toEqual({ "bands.0.from": "From cannot be negative" });
    expect((await bands([{ from: "0", to: "10.5", price: "5" }])).errors).toEqual({ "bands.0.to": "To must be a whole number of grams" });
    expect((await bands([{ from: "heavy", to: "10", price: "-1" }])).errors).toEqual({
      "bands.0.from": "From must be a number of grams",
      "bands.0.price": "Price cannot be negative",
    });
    // Every problem of a band at once.
    expect((await bands([{ from: "1000", to: "500", price: "-3" }])).errors).toEqual({
      "bands.0.to": "To must be more than From",
      "bands.0.price": "Price cannot be negative",
    });
    expect((await bands([{ from: "", to: "10", price: "" }])).errors).toEqual({
      "bands.0.from": "From is required",
      "bands.0.price": "Price is required",
    });
  });

  it("accepts gaps between bands and one unbounded last band", async () => {
    const rate = await makeRate(zoneId, {
      name: "Gappy",
      kind: "weight",
      bands: [
        { from: "0", to: "500", price: "3" },
        { from: "2,000", to: "", price: "12" },
      ],
    });
    expect(rate.weightBands).toEqual([
      { fromGrams: 0, toGrams: 500, priceCents: 300 },
      { fromGrams: 2000, toGrams: null, priceCents: 1200 },
    ]);
  });
});

describe("Shipping & Tax: tax rates and settings", () => {
  beforeEach(resetToDefault);

  it("adds a country rate and a region rate from typed percentages, and the engine uses them", async () => {
    const res = await send({ intent: "create-tax-rate", values: { country: "fr", region: "", rate: "20" } });
    expect(res.body).toEqual({ ok: true, message: "Tax rate added successfully" });
    await send({ intent: "create-tax-rate", values: { country: "US", region: " ca ", rate: "7.25%" } });
    await send({ intent: "create-tax-rate", values: { country: "US", region: "", rate: "0" } });
    const rows = await t.db.select().from(taxRates).orderBy(asc(taxRates.country), asc(taxRates.region));
    expect(rows.map((r) => [r.country, r.region, r.rateBasisPoints])).toEqual([
      ["FR", "", 2000],
      ["US", "", 0],
      ["US", "CA", 725],
    ]);
    expect(await taxRateFor(t.db, { country: "FR" })).toBe(2000);
    expect(await taxRateFor(t.db, { country: "US", state: "ca" })).toBe(725);
    expect(await taxRateFor(t.db, { country: "US", state: "NY" })).toBe(0);
    expect((await page()).taxRates.map((r: { country: string; region: string }) => `${r.country}/${r.region}`)).toEqual(["FR/", "US/", "US/CA"]);
  });

  it("refuses bad rates with a message per field, saving nothing", async () => {
    const create = (values: Record<string, unknown>) => refused({ intent: "create-tax-rate", values: { country: "FR", region: "", rate: "20", ...values } });
    expect((await create({ rate: "100.01" })).errors).toEqual({ rate: "Rate must be at most 100%" });
    expect((await create({ rate: "250" })).errors).toEqual({ rate: "Rate must be at most 100%" });
    expect((await create({ rate: "-1" })).errors).toEqual({ rate: "Rate cannot be negative" });
    expect((await create({ rate: "twenty" })).errors).toEqual({ rate: "Rate must be a percentage like 20 or 7.25" });
    expect((await create({ rate: "7.255" })).errors).toEqual({ rate: "Rate can have at most 2 decimals" });
    expect((await create({ rate: "" })).errors).toEqual({ rate: "Rate is required" });
    expect((await create({ country: "" })).errors).toEqual({ country: "Choose a country" });
    expect((await create({ country: "XX" })).errors).toEqual({ country: "Unknown country code: XX. Use a two-letter ISO code such as US, GB, FR" });
    expect((await create({ country: "France" })).errors.country).toMatch(/^Unknown country code/);
    expect((await create({ region: "x".repeat(101) })).errors).toEqual({ region: "Region must be at most 100 characters" });
  });

  it("allows 0% and 100%, one rate per place, and edits and deletes", async () => {
    expect((await send({ intent: "create-tax-rate", values: { country: "DE", rate: "100" } })).body.ok).toBe(true);
    expect((await send({ intent: "create-tax-rate", values: { country: "DE", region: "by", rate: "0" } })).body.ok).toBe(true);
    const dup = await refused({ intent: "create-tax-rate", values: { country: "de", region: "", rate: "19" } }, 409);
    expect(dup).toMatchObject({ title: "Failed to add tax rate", message: "There is already a tax rate for Germany", errors: { country: "There is already a tax rate for Germany" } });
    const dupRegion = await refused({ intent: "create-tax-rate", values: { country: "DE", region: "BY ", rate: "19" } }, 409);
    expect(dupRegion.errors).toEqual({ region: "There is already a tax rate for Germany — BY" });

    const [whole] = await t.db.select().from(taxRates).where(eq(taxRates.region, ""));
    expect((await send({ intent: "update-tax-rate", id: whole!.id, values: { country: "DE", region: "", rate: "19" } })).body).toEqual({
      ok: true,
      message: "Tax rate updated successfully",
    });
    expect((await t.db.select().from(taxRates).where(eq(taxRates.id, whole!.id)))[0]!.rateBasisPoints).toBe(1900);
    // Moving it onto the region's place is refused.
    await refused({ intent: "update-tax-rate", id: whole!.id, values: { country: "DE", region: "BY", rate: "19" } }, 409);
    expect((await send({ intent: "delete-tax-rate", id: whole!.id })).body).toEqual({ ok: true, message: "Tax rate deleted successfully" });
    expect((await refused({ intent: "delete-tax-rate", id: whole!.id }, 404)).message).toBe("This tax rate no longer exists. Another admin may have deleted it.");
  });

  it("keeps one rate per place when two admins add it at the same moment", async () => {
    const results = await Promise.all(["8.1", "7.7"].map((rate) => send({ intent: "create-tax-rate", values: { country: "CH", rate } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await t.db.select().from(taxRates).where(eq(taxRates.country, "CH"))).toHaveLength(1);
  });

  it("saves the tax settings, and refuses a blank or long tax name", async () => {
    const res = await send({ intent: "save-tax-settings", values: { taxName: "  VAT ", pricesIncludeTax: true, shippingTaxable: true } });
    expect(res.body).toEqual({ ok: true, message: "Tax settings saved successfully" });
    expect(await loadTaxSettings(t.db)).toEqual({ taxName: "VAT", pricesIncludeTax: true, shippingTaxable: true });
    expect((await page()).taxSettings).toEqual({ taxName: "VAT", pricesIncludeTax: true, shippingTaxable: true });

    const blank = await refused({ intent: "save-tax-settings", values: { taxName: " ", pricesIncludeTax: false } });
    expect(blank).toMatchObject({ title: "Failed to save tax settings", errors: { taxName: "Tax name is required" } });
    expect((await refused({ intent: "save-tax-settings", values: { taxName: "x".repeat(10_000) } })).errors).toEqual({
      taxName: "Tax name must be at most 40 characters",
    });
    // Switches sent as a plain form would: "on" or absent.
    await send({ intent: "save-tax-settings", values: { taxName: "Sales tax", pricesIncludeTax: "on" } });
    expect(await loadTaxSettings(t.db)).toEqual({ taxName: "Sales tax", pricesIncludeTax: true, shippingTaxable: false });
  });
});

describe("the benefits strip's free-shipping line", () => {
  beforeEach(resetToDefault);

  const home = async () => (await get(t.db, homeLoader, null, "/")).body.freeShipping;

  it("says 'every order' while every zone has an always-free rate (the default)", async () => {
    expect(await freeShippingClaim(t.db)).toEqual({ kind: "every_order" });
    expect(await home()).toBe("On every order");
    // A zone whose only rate is free by weight from 0 g without a gap still ships everything free.
    const zone = await makeZone();
    await makeRate(zone.id, { name: "Free by weight", kind: "weight", bands: [{ from: "0", to: "1000", price: "0" }, { from: "1000", to: "", price: "0" }] });
    expect(await freeShippingClaim(t.db)).toEqual({ kind: "every_order" });
  });

  it("says the lowest free-over threshold when some orders pay for shipping, and nothing when none ship free", async () => {
    const zone = await makeZone();
    const flat = await makeRate(zone.id, { name: "Flat", price: "6" });
    // France pays $6 and no rate ever becomes free: the strip leaves the item out.
    expect(await freeShippingClaim(t.db)).toBeNull();
    expect(await home()).toBeNull();
    await makeRate(zone.id, { name: "Free over 100", kind: "free_over", price: "6", freeOver: "100" });
    const [everywhere] = await t.db.select().from(shippingZones).where(eq(shippingZones.restOfWorld, true));
    await makeRate(everywhere!.id, { name: "Free over 75", kind: "free_over", price: "9", freeOver: "75.50" });
    expect(await home()).toBe("On all orders over $75.50");
    await send({ intent: "delete-rate", id: flat.id });
    // A zone without rates ships nothing free either.
    await send({ intent: "delete-zone", id: zone.id });
    expect(await home()).toBe("On every order");
    await t.db.delete(shippingRates).where(eq(shippingRates.name, "Free over 75"));
  });

  it("is a storefront change: a rate saved through the screen is logged for the page cache", async () => {
    await t.db.delete(storefrontChanges);
    const zone = await makeZone();
    await makeRate(zone.id);
    expect((await t.db.select().from(storefrontChanges)).length).toBeGreaterThan(0);
  });
});
