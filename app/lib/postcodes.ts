import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";
import { normalizePostcode } from "./address";

/**
 * Postcodes per country (docs/rules/addresses.md, Postcodes): checked with the `postcode-validator`
 * package, and for the countries whose postcodes have an outward and an inward part (the UK's
 * 'PA2 0AA', and the Crown Dependencies that share its format) matched by the outward code as a
 * whole district: the prefix 'PA2' is Paisley, not 'PA20' on Bute.
 */

export const POSTCODE_MESSAGE = "Enter a valid postcode for this country.";

/** Countries whose postcodes are an outward code, a space and a three-character inward code. */
const OUTWARD_INWARD = new Set(["GB", "GG", "JE", "IM"]);

export const hasOutwardCode = (country: string) => OUTWARD_INWARD.has(country.trim().toUpperCase());

/** True when the country's format is known and the postcode fits it, or the format is unknown. */
export function postcodeFits(country: string, postcode: string): boolean {
  const c = country.trim().toUpperCase();
  if (!postcodeValidatorExistsForCountry(c)) return true;
  try {
    // Spaces and hyphens typed in other places ('627-01', 'pa20aa') do not make a postcode wrong.
    return [postcode.trim(), normalizePostcode(postcode), formatPostcode(c, postcode)].some((p) => postcodeValidator(p, c));
  } catch {
    return true;
  }
}

/** The postcode as the country writes it: upper case, 'pa20aa' → 'PA2 0AA' where there is an inward code. */
export function formatPostcode(country: string, postcode: string): string {
  const compact = normalizePostcode(postcode);
  if (hasOutwardCode(country) && compact.length >= 5) return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
  return postcode.trim().replace(/\s+/g, " ").toUpperCase();
}

/**
 * How long a zone's postcode prefix matches this postcode, 0 when it does not. Where postcodes
 * have an outward code, a prefix of letters is the area ('IV' takes IV1–IV63), a prefix with digits
 * is the whole district ('PH1' is PH1 only) or a whole postcode.
 * Elsewhere a prefix is the start of the postcode.
 */
export function prefixMatch(country: string, postcode: string, prefix: string): number {
  const code = normalizePostcode(postcode);
  if (!prefix || !code) return 0;
  if (!hasOutwardCode(country) || code.length < 5) return code.startsWith(prefix) ? prefix.length : 0;
  const outward = code.slice(0, -3);
  if (/^[A-Z]+$/.test(prefix)) return outward.match(/^[A-Z]+/)?.[0] === prefix ? prefix.length : 0;
  // 'PA20' against 'PA2 0AA' reads the same without spaces: only the whole district, or the whole postcode, matches.
  return outward === prefix || code === prefix ? prefix.length : 0;
}
