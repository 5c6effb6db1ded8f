import { GENERATED_COUNTRY_NAMES } from "./country-names.generated";

/**
 * ISO 3166-1 alpha-2 codes with their English names, as shipping zones, tax rates and addresses
 * name countries (docs/rules/admin.md, Shipping & Tax): the `iso-3166` package's assigned
 * countries, written out by `npm run countries:generate` (docs/rules/addresses.md).
 */
export const COUNTRY_NAMES: Readonly<Record<string, string>> = GENERATED_COUNTRY_NAMES;

/** Every assigned code, alphabetical. */
export const COUNTRY_CODES: readonly string[] = Object.keys(COUNTRY_NAMES);

const KNOWN = new Set(COUNTRY_CODES);

/** True for an assigned ISO 3166-1 alpha-2 code (upper case). */
export const isCountryCode = (code: string): boolean => KNOWN.has(code);

/** "France" for "FR"; the code itself when it is not one. */
export const countryName = (code: string): string => COUNTRY_NAMES[code] ?? code;
