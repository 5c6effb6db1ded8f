import { and, asc, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import {
  RateInput,
  shippingFieldErrors,
  TaxSettingsInput,
  toTaxRateValues,
  type RateValues,
  type TaxRateValues,
  type ZoneValues,
} from "~/lib/shipping-settings-input";
import { storedRegion, storedZoneRegion } from "~/lib/regions";
import { TaxRateWithRegionInput, ZoneWithRegionsInput } from "~/lib/shipping-regions-input";
import { taxPlace, type AdminTaxSettings, type ShippingSettingsData } from "~/lib/shipping-settings-view";
import { pgErrorCode, UNIQUE_VIOLATION } from "../../catalog/index.server";
import { type Db, DomainError, shippingRates, shippingZones, taxRates, taxSettings } from "../../platform/index.server";
import { rateFields, zoneFields } from "./shipping.server";
import { loadTaxSettings } from "./tax.server";

/**
 * The owner's shipping zones and rates, tax rates and tax settings (/admin/settings/shipping,
 * docs/rules/admin.md, Shipping & Tax). Every input is checked by the forms' schemas
 * (app/lib/shipping-settings-input.ts); a bad one is refused with a message per field and
 * nothing is written. Every write is one transaction. The pricing engine (shipping.server.ts,
 * tax.server.ts) reads what is saved here on the next quote; the storefront's page cache is
 * invalidated by triggers on the zone and rate tables.
 */

export type ShippingSettingsRefusal = "bad_input" | "not_found" | "conflict";

/** Why a write was refused: the message for a toast, and the messages beside the fields. */
export class ShippingSettingsError extends DomainError<ShippingSettingsRefusal> {
  constructor(
    message: string,
    kind: ShippingSettingsRefusal = "bad_input",
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message, kind);
    this.name = "ShippingSettingsError";
  }
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors = shippingFieldErrors(result.error);
  throw new ShippingSettingsError(Object.values(errors)[0] ?? "Invalid input", "bad_input", errors);
}

function idOf(value: unknown, message: string): string {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) throw new ShippingSettingsError(message, "not_found");
  return parsed.data;
}

const ZONE_GONE = "This zone no longer exists. Another admin may have deleted it.";
const RATE_GONE = "This rate no longer exists. Another admin may have deleted it.";
const TAX_RATE_GONE = "This tax rate no longer exists. Another admin may have deleted it.";

function ONE_REST_OF_WORLD(name?: string) {
  const message = name
    ? `There is already a rest-of-the-world zone ("${name}"): a shop has at most one`
    : "There is already a rest-of-the-world zone: a shop has at most one";
  return new ShippingSettingsError(message, "conflict", { restOfWorld: message });
}

// ---- Reading ----

/** Everything the screen shows: zones with their rates, the tax settings and the tax rates. */
export async function loadShippingSettings(db: Db): Promise<ShippingSettingsData> {
  const [zones, rates, settings, taxes] = await Promise.all([
    db
      .select(zoneFields)
      .from(shippingZones)
      .orderBy(asc(shippingZones.restOfWorld), asc(shippingZones.position), asc(shippingZones.createdAt)),
    db
      .select(rateFields)
      .from(shippingRates)
      .orderBy(asc(shippingRates.position), asc(shippingRates.createdAt)),
    loadTaxSettings(db),
    db
      .select({ id: taxRates.id, country: taxRates.country, region: taxRates.region, rateBasisPoints: taxRates.rateBasisPoints })
      .from(taxRates)
      .orderBy(asc(taxRates.country), asc(taxRates.region)),
  ]);
  // Regions saved as names before they were codes ('CALIFORNIA') show as their codes.
  return {
    zones: zones.map((z) => ({ ...z, regions: z.regions.map((r) => storedZoneRegion(z.countries, r)), rates: rates.filter((r) => r.zoneId === z.id) })),
    taxSettings: settings,
    taxRates: taxes.map((t) => ({ ...t, region: storedRegion(t.country, t.region) })),
  };
}

// ---- Zones ----

async function otherRestOfWorld(tx: Db, exceptId: string | null): Promise<string | null> {
  const [row] = await tx
    .select({ name: shippingZones.name })
    .from(shippingZones)
    .where(exceptId ? and(eq(shippingZones.restOfWorld, true), ne(shippingZones.id, exceptId)) : eq(shippingZones.restOfWorld, true))
    .limit(1);
  return row?.name ?? null;
}

/** Two admins saving a rest-of-world zone at once: the unique index refuses the second. */
async function guardRestOfWorld<T>(zone: ZoneValues, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (zone.restOfWorld && pgErrorCode(err) === UNIQUE_VIOLATION) throw ONE_REST_OF_WORLD();
    throw err;
  }
}

export async function createZone(db: Db, input: unknown): Promise<{ id: string }> {
  const zone = parse(ZoneWithRegionsInput, input);
  return guardRestOfWorld(zone, () =>
    db.transaction(async (tx) => {
      if (zone.restOfWorld) {
        const existing = await otherRestOfWorld(tx, null);
        if (existing) throw ONE_REST_OF_WORLD(existing);
      }
      const [row] = await tx
        .insert(shippingZones)
        .values({ ...zone, position: sql`(select coalesce(max(${shippingZones.position}), -1) + 1 from ${shippingZones})` })
        .returning({ id: shippingZones.id });
      return { id: row!.id };
    }),
  );
}

export async function updateZone(db: Db, idInput: unknown, input: unknown): Promise<void> {
  const id = idOf(idInput, ZONE_GONE);
  const zone = parse(ZoneWithRegionsInput, input);
  await guardRestOfWorld(zone, () =>
    db.transaction(async (tx) => {
      if (zone.restOfWorld) {
        const existing = await otherRestOfWorld(tx, id);
        if (existing) throw ONE_REST_OF_WORLD(existing);
      }
      const updated = await tx
        .update(shippingZones)
        .set({ ...zone, updatedAt: new Date() })
        .where(eq(shippingZones.id, id))
        .returning({ id: shippingZones.id });
      if (!updated.length) throw new ShippingSettingsError(ZONE_GONE, "not_found");
    }),
  );
}

/** Deletes the zone and its rates (orders keep their own copy of what they were charged). */
export async function deleteZone(db: Db, idInput: unknown): Promise<void> {
  const id = idOf(idInput, ZONE_GONE);
  await db.transaction(async (tx) => {
    const deleted = await tx.delete(shippingZones).where(eq(shippingZones.id, id)).returning({ id: shippingZones.id });
    if (!deleted.length) throw new ShippingSettingsError(ZONE_GONE, "not_found");
  });
}

// ---- Rates ----

const rateColumns = (rate: RateValues) => ({
  name: rate.name,
  kind: rate.kind,
  priceCents: rate.priceCents,
  freeOverCents: rate.freeOverCents,
  weightBands: rate.weightBands,
  estimate: rate.estimate,
  freeWithCode: rate.freeWithCode,
});

export async function createRate(db: Db, zoneIdInput: unknown, input: unknown): Promise<{ id: string }> {
  const zoneId = idOf(zoneIdInput, ZONE_GONE);
  const rate = parse(RateInput, input);
  return db.transaction(async (tx) => {
    // Locks the zone so a delete running at the same moment waits (or has already won).
    const [zone] = await tx.select({ id: shippingZones.id }).from(shippingZones).where(eq(shippingZones.id, zoneId)).for("update");
    if (!zone) throw new ShippingSettingsError(ZONE_GONE, "not_found");
    const [row] = await tx
      .insert(shippingRates)
      .values({
        zoneId,
        ...rateColumns(rate),
        position: sql`(select coalesce(max(${shippingRates.position}), -1) + 1 from ${shippingRates} where ${shippingRates.zoneId} = ${zoneId})`,
      })
      .returning({ id: shippingRates.id });
    return { id: row!.id };
  });
}

export async function updateRate(db: Db, idInput: unknown, input: unknown): Promise<void> {
  const id = idOf(idInput, RATE_GONE);
  const rate = parse(RateInput, input);
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(shippingRates)
      .set({ ...rateColumns(rate), updatedAt: new Date() })
      .where(eq(shippingRates.id, id))
      .returning({ id: shippingRates.id });
    if (!updated.length) throw new ShippingSettingsError(RATE_GONE, "not_found");
  });
}

export async function deleteRate(db: Db, idInput: unknown): Promise<void> {
  const id = idOf(idInput, RATE_GONE);
  await db.transaction(async (tx) => {
    const deleted = await tx.delete(shippingRates).where(eq(shippingRates.id, id)).returning({ id: shippingRates.id });
    if (!deleted.length) throw new ShippingSettingsError(RATE_GONE, "not_found");
  });
}

// ---- Tax ----

function taxPlaceTaken(rate: TaxRateValues) {
  const message = `There is already a tax rate for ${taxPlace(rate)}`;
  return new ShippingSettingsError(message, "conflict", { [rate.region ? "region" : "country"]: message });
}

/** Two admins adding the same place at once: the unique index refuses the second. */
async function guardTaxPlace<T>(rate: TaxRateValues, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw taxPlaceTaken(rate);
    throw err;
  }
}

/** Another rate for the place; a region saved as a name before regions were codes ('CALIFORNIA') is its code's place. */
async function placeTaken(tx: Db, rate: TaxRateValues, exceptId: string | null) {
  const country = eq(taxRates.country, rate.country);
  const rows = await tx
    .select({ region: taxRates.region })
    .from(taxRates)
    .where(exceptId ? and(country, ne(taxRates.id, exceptId)) : country);
  return rows.some((r) => storedRegion(rate.country, r.region) === rate.region);
}

export async function createTaxRate(db: Db, input: unknown): Promise<{ id: string }> {
  const rate = toTaxRateValues(parse(TaxRateWithRegionInput, input));
  return guardTaxPlace(rate, () =>
    db.transaction(async (tx) => {
      if (await placeTaken(tx, rate, null)) throw taxPlaceTaken(rate);
      const [row] = await tx.insert(taxRates).values(rate).returning({ id: taxRates.id });
      return { id: row!.id };
    }),
  );
}

export async function updateTaxRate(db: Db, idInput: unknown, input: unknown): Promise<void> {
  const id = idOf(idInput, TAX_RATE_GONE);
  const rate = toTaxRateValues(parse(TaxRateWithRegionInput, input));
  await guardTaxPlace(rate, () =>
    db.transaction(async (tx) => {
      if (await placeTaken(tx, rate, id)) throw taxPlaceTaken(rate);
      const updated = await tx.update(taxRates).set(rate).where(eq(taxRates.id, id)).returning({ id: taxRates.id });
      if (!updated.length) throw new ShippingSettingsError(TAX_RATE_GONE, "not_found");
    }),
  );
}

export async function deleteTaxRate(db: Db, idInput: unknown): Promise<void> {
  const id = idOf(idInput, TAX_RATE_GONE);
  await db.transaction(async (tx) => {
    const deleted = await tx.delete(taxRates).where(eq(taxRates.id, id)).returning({ id: taxRates.id });
    if (!deleted.length) throw new ShippingSettingsError(TAX_RATE_GONE, "not_found");
  });
}

/** The one tax settings row (made if a database somehow lacks it). */
export async function saveTaxSettings(db: Db, input: unknown): Promise<AdminTaxSettings> {
  const settings = parse(TaxSettingsInput, input);
  await db.transaction(async (tx) => {
    await tx
      .insert(taxSettings)
      .values({ id: 1, ...settings })
      .onConflictDoUpdate({ target: taxSettings.id, set: { ...settings, updatedAt: new Date() } });
  });
  return settings;
}
