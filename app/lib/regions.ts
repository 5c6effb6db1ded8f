import { iso31662 } from "iso-3166/2.js";

/**
 * States and regions of a country, from the ISO 3166-2 list (the `iso-3166` package). An address's
 * region, a zone's regions and a tax rate's region are stored as the code after the country's
 * dash ('US-CA' → 'CA'), so 'California', 'Calif.', 'ca' and 'CA.' all mean the same region
 * (docs/rules/addresses.md).
 */

export { CHOOSE_REGION_MESSAGE, regionMayBeBlank } from "./region-rules";

export type Region = { code: string; name: string };

const byCountry = new Map<string, Region[]>();
for (const s of iso31662) {
  const country = s.code.slice(0, 2);
  const list = byCountry.get(country) ?? [];
  list.push({ code: s.code.slice(3), name: s.name });
  byCountry.set(country, list);
}
for (const list of byCountry.values()) list.sort((a, b) => a.name.localeCompare(b.name, "en"));

/** The country's regions by name; empty when the country has none. */
export function regionsOf(country: string): readonly Region[] {
  return byCountry.get(country.trim().toUpperCase()) ?? [];
}

export function hasRegions(country: string): boolean {
  return regionsOf(country).length > 0;
}

/** Upper case, no accents, no dots, no punctuation, single spaces: 'Québec.' → 'QUEBEC'. */
function fold(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, " ")
    .trim();
}

// Folded once: every quote reads an address's region against the whole list of its country.
const foldedNames = new WeakMap<Region, string>();
function foldedName(region: Region): string {
  let folded = foldedNames.get(region);
  if (folded === undefined) foldedNames.set(region, (folded = fold(region.name)));
  return folded;
}

/**
 * The region's code for what was typed: its code ('ca', 'CA.', 'US-CA'), its name ('California',
 * 'QUEBEC') or an abbreviation of its name that fits no other region of the country ('Calif.',
 * 'Ont.'). Null when nothing (or more than one region) fits. For a country without regions the
 * text is kept, tidied ('  new  york ' → 'NEW YORK').
 */
export function regionCode(country: string, typed: string | undefined): string | null {
  const regions = regionsOf(country);
  const raw = (typed ?? "").trim();
  if (!regions.length) return raw.replace(/\s+/g, " ").toUpperCase();
  const key = fold(raw);
  if (!key) return null;
  const c = country.trim().toUpperCase();
  const code = key.startsWith(`${c} `) ? key.slice(3).replace(/ /g, "") : key.replace(/ /g, "");
  const byCode = regions.find((r) => r.code === code);
  if (byCode) return byCode.code;
  const byName = regions.filter((r) => foldedName(r) === key);
  if (byName.length === 1) return byName[0]!.code;
  // An abbreviation: the start of one region's name, at least three letters ('Calif', 'Ont').
  if (key.replace(/ /g, "").length < 3) return null;
  const starts = regions.filter((r) => foldedName(r).startsWith(key));
  return starts.length === 1 ? starts[0]!.code : null;
}

/**
 * A region saved before regions were codes ('California', 'calif.') as its code; anything that
 * reads as none of the country's regions, or a country without regions, as it was saved. For
 * reading old rows: nothing is rewritten in the database.
 */
export function storedRegion(country: string, saved: string): string {
  if (!saved || !hasRegions(country)) return saved;
  return regionCode(country, saved) ?? saved;
}

/** `storedRegion` for a zone's region: the first of the zone's countries it reads as a region of. */
export function storedZoneRegion(countries: readonly string[], saved: string): string {
  for (const c of countries) {
    const code = storedRegion(c, saved);
    if (code !== saved || regionsOf(c).some((r) => r.code === saved)) return code;
  }
  return saved;
}

/** The region's name for its code ('US', 'CA' → 'California'); the code itself when unknown. */
export function regionName(country: string, code: string): string {
  return regionsOf(country).find((r) => r.code === code)?.name ?? code;
}
