import { eq } from "drizzle-orm";
import type { FreeShippingClaim } from "~/lib/free-shipping";
import { type Db, shippingRates, shippingZones, type WeightBand } from "../../platform/index.server";
import { freeShippingThreshold } from "./shipping.server";

type RateRow = { kind: "flat" | "free_over" | "weight"; priceCents: number; freeOverCents: number | null; weightBands: WeightBand[] };

/** A rate that costs nothing whatever the cart's value or weight. */
export function isAlwaysFree(rate: RateRow): boolean {
  if (rate.kind === "flat") return rate.priceCents === 0;
  if (rate.kind === "free_over") return rate.priceCents === 0 || rate.freeOverCents === 0;
  // Bands from 0 g with no gap up to an unbounded last band, every one free.
  let next = 0;
  for (const band of rate.weightBands) {
    if (band.fromGrams > next || band.priceCents !== 0) return false;
    if (band.toGrams === null) return true;
    next = band.toGrams;
  }
  return false;
}

/**
 * What the benefits strip may say about free shipping (docs/rules/storefront.md, Benefits strip):
 * 'every order' when every zone has a rate that is always free (a fresh shop's 'Everywhere' zone
 * with its free 'Standard' rate); else orders over the lowest free-over threshold
 * (`freeShippingThreshold`); else nothing. A shop without zones ships nowhere: nothing.
 */
export async function freeShippingClaim(db: Db): Promise<FreeShippingClaim> {
  const rows = await db
    .select({
      zoneId: shippingZones.id,
      kind: shippingRates.kind,
      priceCents: shippingRates.priceCents,
      freeOverCents: shippingRates.freeOverCents,
      weightBands: shippingRates.weightBands,
    })
    .from(shippingZones)
    .leftJoin(shippingRates, eq(shippingRates.zoneId, shippingZones.id));
  const zones = new Map<string, boolean>();
  for (const row of rows) {
    const free = row.kind !== null && isAlwaysFree(row as RateRow);
    zones.set(row.zoneId, (zones.get(row.zoneId) ?? false) || free);
  }
  if (zones.size > 0 && [...zones.values()].every(Boolean)) return { kind: "every_order" };
  const threshold = await freeShippingThreshold(db);
  return threshold === null ? null : { kind: "over", thresholdCents: threshold };
}
