import { asc, eq, inArray, or, sql } from "drizzle-orm";
import { normalizePostcode } from "~/lib/address";
import { prefixMatch } from "~/lib/postcodes";
import { regionCode } from "~/lib/regions";
import type { ShippingOption } from "~/lib/pricing-view";
import { type Db, shippingRates, shippingZones, type WeightBand } from "../../platform/index.server";

/**
 * Shipping by destination and weight (docs/money-path.md, "Shipping"). Pure matching and pricing,
 * and the one read that loads the zones an address can fall in.
 */

export type Destination = { country: string; state?: string; zipCode?: string };

export type Zone = {
  id: string;
  name: string;
  countries: string[];
  regions: string[];
  postcodePrefixes: string[];
  restOfWorld: boolean;
  position: number;
};

export type Rate = {
  id: string;
  zoneId: string;
  name: string;
  kind: "flat" | "free_over" | "weight";
  priceCents: number;
  freeOverCents: number | null;
  weightBands: WeightBand[];
  estimate: string;
  /** A free-shipping code makes it free (when no rate of the zone is marked: the cheapest). */
  freeWithCode?: boolean;
  position: number;
};


/**
 * The zone an address ships from: among the zones naming its country, the most specific that
 * matches (a postcode prefix — the longest — over a region over the whole country, then the
 * owner's order); else the rest-of-world zone; else none ('We don't ship to this address yet.').
 */
export function matchZone(zones: Zone[], destination: Destination): Zone | null {
  const country = destination.country.trim().toUpperCase();
  // Regions compare as ISO 3166-2 codes; a zone saved before they were (a name, another case) reads as one too.
  const region = regionCode(country, destination.state) ?? "";
  const postcode = normalizePostcode(destination.zipCode);
  let best: { zone: Zone; rank: number[] } | null = null;
  for (const zone of zones) {
    if (zone.restOfWorld || !zone.countries.includes(country)) continue;
    if (zone.regions.length && !(region && zone.regions.some((r) => (regionCode(country, r) ?? r) === region))) continue;
    let prefix = 0;
    if (zone.postcodePrefixes.length) {
      prefix = Math.max(0, ...zone.postcodePrefixes.map((p) => prefixMatch(country, postcode, p)));
      if (prefix === 0) continue;
    }
    // The rule (docs/money-path.md): the longest prefix first, then a region, then the whole
    // country, then the owner's order. Compared in that order, never added up into one score.
    const rank = [prefix, zone.regions.length ? 1 : 0];
    if (!best || outranks(rank, best.rank) || (sameRank(rank, best.rank) && zone.position < best.zone.position)) best = { zone, rank };
  }
  return best?.zone ?? zones.find((z) => z.restOfWorld) ?? null;
}

const outranks = (a: number[], b: number[]) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
};
const sameRank = (a: number[], b: number[]) => a.every((x, i) => x === b[i]);

/** What a rate costs for this cart, or null when it does not apply (no weight band covers it). */
export function ratePrice(rate: Rate, cart: { goodsCents: number; weightGrams: number }): number | null {
  if (rate.kind === "flat") return rate.priceCents;
  if (rate.kind === "free_over") return rate.freeOverCents !== null && cart.goodsCents >= rate.freeOverCents ? 0 : rate.priceCents;
  const band = rate.weightBands.find((b) => cart.weightGrams >= b.fromGrams && (b.toGrams === null || cart.weightGrams < b.toGrams));
  return band ? band.priceCents : null;
}

/** The rates a cart can use in a zone, cheapest first (the owner's order among equals). */
export function shippingOptions(rates: Rate[], cart: { goodsCents: number; weightGrams: number }): ShippingOption[] {
  return rates
    .map((rate) => ({ rate, price: ratePrice(rate, cart) }))
    .filter((r): r is { rate: Rate; price: number } => r.price !== null)
    .sort((a, b) => a.price - b.price || a.rate.position - b.rate.position)
    .map(({ rate, price }) => ({ id: rate.id, name: rate.name, amountCents: price, estimate: rate.estimate }));
}

/** A zone's columns, as the Shipping & Tax screen reads them (settings-admin.server.ts). */
export const zoneFields = {
  id: shippingZones.id,
  name: shippingZones.name,
  countries: shippingZones.countries,
  regions: shippingZones.regions,
  postcodePrefixes: shippingZones.postcodePrefixes,
  restOfWorld: shippingZones.restOfWorld,
};

/** The engine's Zone: those and the owner's order. */
const zoneColumns = { ...zoneFields, position: shippingZones.position };

/** The zones an address in `country` can fall in (its own and the rest of the world). */
export async function loadZonesFor(db: Db, country: string): Promise<Zone[]> {
  // `@>` lets the GIN index on countries find a country's zones among thousands.
  return db
    .select(zoneColumns)
    .from(shippingZones)
    .where(or(eq(shippingZones.restOfWorld, true), sql`${shippingZones.countries} @> array[${country.trim().toUpperCase()}]::text[]`));
}

/**
 * True when a zone of the address's own country names regions and the address names none of its
 * country's: it would ship at the country's rate by mistake, so the checkout refuses it.
 */
export function zoneRegionMissing(zones: Zone[], destination: Destination): boolean {
  const country = destination.country.trim().toUpperCase();
  if (destination.state?.trim() && regionCode(country, destination.state)) return false;
  return zones.some((z) => !z.restOfWorld && z.regions.length > 0 && z.countries.includes(country));
}

/** The matched zone and its rates, if any, and `zoneRegionMissing`'s answer. */
export type ZoneRead = { found: { zone: Zone; rates: Rate[] } | null; regionMissing: boolean };

/**
 * The zone an address ships from and its rates (null when no zone covers it), and whether the
 * address lacks a region that one of its country's zones asks for (`zoneRegionMissing`).
 */
export async function loadZoneFor(db: Db, destination: Destination): Promise<ZoneRead> {
  const zones = await loadZonesFor(db, destination.country);
  const zone = matchZone(zones, destination);
  const regionMissing = zoneRegionMissing(zones, destination);
  return { found: zone ? { zone, rates: await loadRates(db, [zone.id]) } : null, regionMissing };
}

/** Without an address, shipping is known only when one rest-of-world zone serves every address. */
export async function loadZonesWithoutAddress(db: Db): Promise<ZoneRead> {
  const zones = await db.select(zoneColumns).from(shippingZones).limit(2);
  if (zones.length !== 1 || !zones[0]!.restOfWorld) return { found: null, regionMissing: false };
  return { found: { zone: zones[0]!, rates: await loadRates(db, [zones[0]!.id]) }, regionMissing: false };
}

/** A rate's columns, as the Shipping & Tax screen reads them (settings-admin.server.ts). */
export const rateFields = {
  id: shippingRates.id,
  zoneId: shippingRates.zoneId,
  name: shippingRates.name,
  kind: shippingRates.kind,
  priceCents: shippingRates.priceCents,
  freeOverCents: shippingRates.freeOverCents,
  weightBands: shippingRates.weightBands,
  estimate: shippingRates.estimate,
  freeWithCode: shippingRates.freeWithCode,
};

/** The engine's Rate: those and the owner's order. */
const rateColumns = { ...rateFields, position: shippingRates.position };

async function loadRates(db: Db, zoneIds: string[]): Promise<Rate[]> {
  if (!zoneIds.length) return [];
  return db.select(rateColumns).from(shippingRates).where(inArray(shippingRates.zoneId, zoneIds)).orderBy(asc(shippingRates.position));
}

/**
 * The lowest 'free over' threshold of the shop's rates, for the benefits strip's 'On all orders
 * over $X'; null when no rate becomes free.
 */
export async function freeShippingThreshold(db: Db): Promise<number | null> {
  const [row] = await db
    .select({ min: sql<number | null>`min(${shippingRates.freeOverCents})` })
    .from(shippingRates)
    .where(eq(shippingRates.kind, "free_over"));
  return row?.min === null || row?.min === undefined ? null : Number(row.min);
}
