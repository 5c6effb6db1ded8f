import { MAX_WEIGHT_GRAMS } from "~/lib/product-input";
import type { CsvRecord } from "./csv-reader.server";
import { firstNonEmpty, type Parsed } from "./fields.server";
import type { Header } from "./formats.server";

/**
 * Product weights in an import, to whole grams (products.weight_grams). Units: grams, kilograms,
 * pounds and ounces (1 lb = 453.59237 g exactly, 1 oz = 1/16 lb). The arithmetic is exact
 * (integers), and the result is rounded half up to the gram: 0.5 lb is 226.796185 g → 227 g.
 */
export type WeightUnit = "g" | "kg" | "lb" | "oz";

const UNITS: Record<string, WeightUnit> = {
  g: "g",
  gr: "g",
  gram: "g",
  grams: "g",
  kg: "kg",
  kgs: "kg",
  kilo: "kg",
  kilos: "kg",
  kilogram: "kg",
  kilograms: "kg",
  lb: "lb",
  lbs: "lb",
  pound: "lb",
  pounds: "lb",
  oz: "oz",
  ounce: "oz",
  ounces: "oz",
};

/** Grams per unit as a fraction [numerator, denominator]. */
const GRAMS_PER: Record<WeightUnit, [bigint, bigint]> = {
  g: [1n, 1n],
  kg: [1000n, 1n],
  lb: [45_359_237n, 100_000n],
  oz: [45_359_237n, 1_600_000n],
};

const UNIT_WORDS: Record<WeightUnit, string> = { g: "g", kg: "kg", lb: "lb", oz: "oz" };

/** "kg", "Lbs", "ounces" → the unit; anything else → null. */
export function parseWeightUnit(raw: string): WeightUnit | null {
  return UNITS[raw.trim().toLowerCase().replace(/\.$/, "")] ?? null;
}

const quote = (raw: string) => `'${raw.length > 40 ? `${raw.slice(0, 40)}…` : raw}'`;

/**
 * A weight cell in `unit` as whole grams; empty is null (not given). Refused, with a message that
 * completes "Row N: …": text, a decimal comma, a negative weight, more than 1,000,000 g (1,000 kg).
 */
export function parseWeightGrams(raw: string, unit: WeightUnit, label = "Weight"): Parsed<number | null> {
  const s = raw.trim();
  if (s === "") return null;
  const bare = s.replace(/,(?=\d{3}(?!\d))/g, "");
  if (/^-\s*(\d|\.)/.test(bare)) return { error: `${label} cannot be negative (${quote(s)})` };
  if (/^\d+,\d+$/.test(bare)) return { error: `Invalid ${label.toLowerCase()} ${quote(s)}: use a dot for decimals (for example 0.5)` };
  const m = /^\+?(\d*)(?:\.(\d*))?$/.exec(bare);
  if (!m || !/\d/.test(bare)) {
    return { error: `Invalid ${label.toLowerCase()} ${quote(s)}: expected a number of ${UNIT_WORDS[unit]}` };
  }
  const tooHeavy = { error: `${label} ${quote(s)} is above 1,000,000 g (1,000 kg)` };
  const whole = (m[1] ?? "").replace(/^0+(?=\d)/, "");
  // 10,000,000 of any unit is past the limit; digits past the 15th decimal (a spreadsheet's
  // 0.30000000000000004) are dropped, which keeps the integers small.
  if (whole.length > 7) return tooHeavy;
  const frac = (m[2] ?? "").slice(0, 15);
  const scaled = BigInt(`${whole}${frac}` || "0");
  const [num, den] = GRAMS_PER[unit];
  const divisor = 10n ** BigInt(frac.length) * den;
  const grams = (2n * scaled * num + divisor) / (2n * divisor); // half up
  if (grams > BigInt(MAX_WEIGHT_GRAMS)) return tooHeavy;
  return Number(grams);
}

/**
 * The weight columns a WooCommerce export or the shop's own CSV may carry, each in its unit.
 * WooCommerce names its column after the shop's unit setting: 'Weight (kg)', 'Weight (g)',
 * 'Weight (lbs)' or 'Weight (oz)'.
 */
const WEIGHT_COLUMNS: [name: string, unit: WeightUnit][] = [
  ["weight_grams", "g"],
  ["Weight (g)", "g"],
  ["Weight (kg)", "kg"],
  ["Weight (lbs)", "lb"],
  ["Weight (lb)", "lb"],
  ["Weight (oz)", "oz"],
];

export type WeightColumn = { index: number[]; unit: WeightUnit; label: string };

/** The file's weight column (the first of WEIGHT_COLUMNS it has), or null. */
export function findWeightColumn(header: Header): WeightColumn | null {
  for (const [name, unit] of WEIGHT_COLUMNS) {
    const index = header.find(name);
    if (index.length) return { index, unit, label: "Weight" };
  }
  return null;
}

/** The row's weight in grams from that column: null when empty or when the file has none. */
export function readWeight(r: CsvRecord, col: WeightColumn | null): Parsed<number | null> {
  if (!col) return null;
  return parseWeightGrams(firstNonEmpty(r.fields, col.index), col.unit, col.label);
}

/**
 * Shopify: 'Variant Grams' (older layout) or 'Weight value (grams)' (current layout) hold grams,
 * whatever 'Variant Weight Unit' / 'Weight unit for display' says (that is only how Shopify shows
 * it). Files made by other tools may instead give 'Variant Weight' in 'Variant Weight Unit'.
 */
export function shopifyWeightReader(header: Header) {
  const grams = header.find("Variant Grams", "Weight value (grams)");
  const value = header.find("Variant Weight", "Weight value");
  const unit = header.find("Variant Weight Unit", "Weight unit for display", "Weight unit");
  return {
    present: grams.length > 0 || value.length > 0,
    read(r: CsvRecord): Parsed<number | null> {
      const g = firstNonEmpty(r.fields, grams);
      if (g.trim() !== "") return parseWeightGrams(g, "g", "Variant grams");
      const v = firstNonEmpty(r.fields, value);
      if (v.trim() === "") return null;
      const rawUnit = firstNonEmpty(r.fields, unit).trim();
      const u = parseWeightUnit(rawUnit);
      if (!u) {
        return {
          error: rawUnit
            ? `Unknown weight unit ${quote(rawUnit)}: expected g, kg, lb or oz`
            : `The weight ${quote(v.trim())} has no unit: expected g, kg, lb or oz in Variant Weight Unit`,
        };
      }
      return parseWeightGrams(v, u, "Variant weight");
    },
  };
}

/** The heaviest of the weights given, or null when none is: a product ships as its heaviest variant. */
export function heaviest(weights: (number | null)[]): number | null {
  let max: number | null = null;
  for (const w of weights) if (w !== null && (max === null || w > max)) max = w;
  return max;
}
