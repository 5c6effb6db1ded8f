import { countryName } from "./countries";
import { formatMoneyShort } from "./free-shipping";
import { formatMoney } from "./money";

/**
 * What the Shipping & Tax screen (/admin/settings/shipping) shows, as its loader sends it, and
 * the storefront's free-shipping claim. Amounts in integer cents, tax rates in basis points.
 * Rules: docs/rules/admin.md (Shipping & Tax) and docs/rules/storefront.md (Benefits strip).
 */

export const RATE_KINDS = ["flat", "free_over", "weight"] as const;
export type RateKind = (typeof RATE_KINDS)[number];

export const RATE_KIND_LABELS: Record<RateKind, string> = {
  flat: "Flat price",
  free_over: "Free over an amount",
  weight: "By weight",
};

/** From `fromGrams` (inclusive) to `toGrams` (exclusive; null: no upper bound). */
export type AdminWeightBand = { fromGrams: number; toGrams: number | null; priceCents: number };

export type AdminRate = {
  id: string;
  zoneId: string;
  name: string;
  kind: RateKind;
  priceCents: number;
  freeOverCents: number | null;
  /** A free-shipping code makes this rate free. */
  freeWithCode: boolean;
  weightBands: AdminWeightBand[];
  estimate: string;
};

export type AdminZone = {
  id: string;
  name: string;
  countries: string[];
  regions: string[];
  postcodePrefixes: string[];
  restOfWorld: boolean;
  rates: AdminRate[];
};

export type AdminTaxRate = { id: string; country: string; region: string; rateBasisPoints: number };

export type AdminTaxSettings = { taxName: string; pricesIncludeTax: boolean; shippingTaxable: boolean };

export type ShippingSettingsData = {
  /** The zones naming countries in the owner's order, then the rest-of-world zone. */
  zones: AdminZone[];
  taxSettings: AdminTaxSettings;
  /** By country, then region (the whole country first). */
  taxRates: AdminTaxRate[];
};

/** "1,000 g". */
export const formatGrams = (grams: number) => `${grams.toLocaleString("en-US")} g`;

/** 'France, Belgium · regions: CA, NY · postcodes starting 75, 92' or the rest of the world's sentence. */
export function zoneCoverage(zone: Pick<AdminZone, "countries" | "regions" | "postcodePrefixes" | "restOfWorld">): string {
  if (zone.restOfWorld) return "Every address no other zone covers";
  const parts = [zone.countries.map(countryName).join(", ") || "No countries"];
  if (zone.regions.length) parts.push(`only ${zone.regions.join(", ")}`);
  if (zone.postcodePrefixes.length) parts.push(`postcodes starting ${zone.postcodePrefixes.join(", ")}`);
  return parts.join(" · ");
}

const priceOrFree = (cents: number) => (cents === 0 ? "Free" : formatMoney(cents));

/** One band as the rate card shows it: '0 g – 1,000 g: $5.00', '5,000 g and up: $20.00'. */
export function bandSummary(band: AdminWeightBand): string {
  const range = band.toGrams === null ? `${formatGrams(band.fromGrams)} and up` : `${formatGrams(band.fromGrams)} – ${formatGrams(band.toGrams)}`;
  return `${range}: ${priceOrFree(band.priceCents)}`;
}

/** A rate's price in a few words: '$5.00', 'Free', '$9.00 · Free over $75', or its bands. */
export function ratePriceSummary(rate: Pick<AdminRate, "kind" | "priceCents" | "freeOverCents" | "weightBands">): string {
  if (rate.kind === "flat") return priceOrFree(rate.priceCents);
  if (rate.kind === "free_over") {
    const free = `Free over ${formatMoneyShort(rate.freeOverCents ?? 0)}`;
    return rate.priceCents === 0 ? "Free" : `${formatMoney(rate.priceCents)} · ${free}`;
  }
  return rate.weightBands.map(bandSummary).join("; ") || "No bands";
}

/** The tax table's place: 'France', 'United States — CA'. */
export const taxPlace = (rate: Pick<AdminTaxRate, "country" | "region">) =>
  rate.region ? `${countryName(rate.country)} — ${rate.region}` : countryName(rate.country);
