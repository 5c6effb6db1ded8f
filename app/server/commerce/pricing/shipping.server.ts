import { eq, or, sql } from "drizzle-orm";
import { normalizePostcode } from "~/lib/address";
import { prefixMatch } from "~/lib/postcodes";
import { regionCode, regionsOf } from "~/lib/regions";
import type { ShippingOption } from "~/lib/pricing-view";
import { builtOnce, type Db, shippingRates, shippingZones, type WeightBand } from "../../platform/index.server";

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
function zoneRegionMissing(destination: Destination, countryHasRegionZones: boolean): boolean {
  const country = destination.country.trim().toUpperCase();
  if (destination.state?.trim() && regionCode(country, destination.state)) return false;
  return countryHasRegionZones;
}

/** The matched zone and its rates, if any, and `zoneRegionMissing`'s answer. */
export type ZoneRead = { found: { zone: Zone; rates: Rate[] } | null; regionMissing: boolean };

type ZoneWithRates = Zone & { rates: Rate[] };

/**
 * A zone and its rates as one JSON object, in the shapes of `Zone` and `Rate` (rates in the owner's
 * order, as the Shipping & Tax screen lists them), for `z`, a row of shipping_zones.
 */
const ZONE_WITH_RATES = sql.raw(`json_build_object(
  'id', z.id, 'name', z.name, 'countries', z.countries, 'regions', z.regions,
  'postcodePrefixes', z.postcode_prefixes, 'restOfWorld', z.rest_of_world, 'position', z.position,
  'rates', (select coalesce(json_agg(json_build_object(
      'id', r.id, 'zoneId', r.zone_id, 'name', r.name, 'kind', r.kind, 'priceCents', r.price_cents,
      'freeOverCents', r.free_over_cents, 'weightBands', r.weight_bands, 'estimate', r.estimate,
      'freeWithCode', r.free_with_code, 'position', r.position) order by r.position, r.created_at), '[]')
    from shipping_rates r where r.zone_id = z.id))`);

const withoutRates = ({ rates, ...zone }: ZoneWithRates) => ({ zone, rates });

/**
 * The zone an address ships from and its rates (null when no zone covers it), and whether the
 * address lacks a region that one of its country's zones asks for (`zoneRegionMissing`), in one
 * round trip. The database leaves out only zones that cannot be the answer: a postcode zone none
 * of whose prefixes starts the postcode (every match of `prefixMatch` does), a region zone whose
 * regions are all codes of the country and none the address's (or the address names no region),
 * and every whole-country zone but the first in the owner's order; `matchZone` picks among the
 * rest, so the rule is written once.
 */
export async function loadZoneFor(db: Db, destination: Destination): Promise<ZoneRead> {
  const [row] = await zoneForStatement(db).execute(zoneForValues(destination));
  return zoneForRead(row, destination);
}

const zoneForStatement = builtOnce("pricing-zone-for", (db) => db.select(zoneForColumns()).from(sql`(select 1) as one`));

/**
 * `loadZoneFor`'s columns, for a statement that reads them with others in the same round trip;
 * its placeholders are `zoneForValues`' (`country` as `loadTax` takes it).
 */
export function zoneForColumns() {
  const country = sql`array[${sql.placeholder("country")}]::text[]`;
  const codes = sql`${sql.placeholder("regionCodes")}::text[]`;
  const region = sql`${sql.placeholder("region")}::text`;
  const wholeCountry = (z: string) => sql.raw(`cardinality(${z}.postcode_prefixes) = 0 and cardinality(${z}.regions) = 0`);
  return {
    zones: sql<ZoneWithRates[] | null>`(select json_agg(${ZONE_WITH_RATES} order by z.position, z.created_at, z.id)
        from shipping_zones z
       where z.rest_of_world
          or (z.countries @> ${country}
              and (cardinality(z.postcode_prefixes) = 0
                   or exists (select 1 from unnest(z.postcode_prefixes) p where p <> '' and starts_with(${sql.placeholder("postcode")}::text, p)))
              and (cardinality(z.regions) = 0 or cardinality(${codes}) = 0
                   or (${region} <> '' and (z.regions @> array[${region}] or not z.regions <@ ${codes})))
              and (not (${wholeCountry("z")})
                   or z.id = (select w.id from shipping_zones w where w.countries @> ${country} and not w.rest_of_world and ${wholeCountry("w")}
                               order by w.position, w.created_at, w.id limit 1))))`,
    regionZones: sql<boolean>`exists (select 1 from shipping_zones w where w.countries @> ${country} and not w.rest_of_world and cardinality(w.regions) > 0)`,
  };
}

export function zoneForValues(destination: Destination) {
  const country = destination.country.trim().toUpperCase();
  return {
    country,
    postcode: normalizePostcode(destination.zipCode),
    region: regionCode(country, destination.state) ?? "",
    // Empty for a country without a list of regions: its zones' regions are left to matchZone.
    regionCodes: regionsOf(country).map((r) => r.code),
  };
}

export function zoneForRead(row: { zones: ZoneWithRates[] | null; regionZones: boolean } | undefined, destination: Destination): ZoneRead {
  const zone = matchZone(row?.zones ?? [], destination) as ZoneWithRates | null;
  return { found: zone ? withoutRates(zone) : null, regionMissing: zoneRegionMissing(destination, Boolean(row?.regionZones)) };
}

/** Without an address, shipping is known only when one rest-of-world zone serves every address. */
export async function loadZonesWithoutAddress(db: Db): Promise<ZoneRead> {
  const { rows } = await db.execute<{ zones: ZoneWithRates[] | null }>(
    sql`select (select json_agg(${ZONE_WITH_RATES}) from (select * from shipping_zones limit 2) z) as zones`,
  );
  const zones = rows[0]?.zones ?? [];
  if (zones.length !== 1 || !zones[0]!.restOfWorld) return { found: null, regionMissing: false };
  return { found: withoutRates(zones[0]!), regionMissing: false };
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
