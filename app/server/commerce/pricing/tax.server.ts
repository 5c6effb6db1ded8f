import { eq, sql } from "drizzle-orm";
import { builtOnce, type Db, taxRates, taxSettings } from "../../platform/index.server";
import { regionCode } from "~/lib/regions";
import type { Destination } from "./shipping.server";

export type TaxSettings = { taxName: string; pricesIncludeTax: boolean; shippingTaxable: boolean };

const DEFAULT_TAX_SETTINGS: TaxSettings = { taxName: "Tax", pricesIncludeTax: false, shippingTaxable: false };

export async function loadTaxSettings(db: Db): Promise<TaxSettings> {
  const [row] = await db
    .select({ taxName: taxSettings.taxName, pricesIncludeTax: taxSettings.pricesIncludeTax, shippingTaxable: taxSettings.shippingTaxable })
    .from(taxSettings)
    .where(eq(taxSettings.id, 1));
  return row ?? DEFAULT_TAX_SETTINGS;
}

type CountryRate = { region: string; rate: number };

/**
 * The rate (basis points) for an address among its country's rates: its region's when the owner
 * set one, else the country's, else 0. Regions compare as ISO 3166-2 codes, so a rate saved before
 * they were ('California') still applies. `regionMissing` when the country has region rates and
 * the address names none of its regions: it must not be taxed as if it had none.
 */
export function pickTaxRate(country: string, state: string | undefined, rates: CountryRate[]): { rate: number; regionMissing: boolean } {
  const region = regionCode(country, state) ?? "";
  const regional = rates.filter((r) => r.region !== "");
  const own = region ? regional.find((r) => (regionCode(country, r.region) ?? r.region) === region) : undefined;
  const whole = rates.find((r) => r.region === "");
  return { rate: own?.rate ?? whole?.rate ?? 0, regionMissing: !region && regional.length > 0 };
}

/**
 * The tax rate (basis points) for an address (`pickTaxRate`). `null` without an address when the
 * shop has any rate at all (the rate then depends on where the order goes).
 */
export async function taxRateFor(db: Db, destination: Destination | null): Promise<number | null> {
  if (!destination) {
    const [any] = await db.select({ one: sql`1` }).from(taxRates).limit(1);
    return any ? null : 0;
  }
  const country = destination.country.trim().toUpperCase();
  const rows = await db.select({ region: taxRates.region, rate: taxRates.rateBasisPoints }).from(taxRates).where(eq(taxRates.country, country));
  return pickTaxRate(country, destination.state, rows).rate;
}

/**
 * The tax settings and the address's country's rates in one round trip (the quote's path); without
 * an address, rate null when the shop has any rate at all.
 */
export async function loadTax(
  db: Db,
  destination: Destination | null,
): Promise<{ settings: TaxSettings; rate: number | null; regionMissing: boolean }> {
  const [row] = await taxStatement(db).execute(taxValues(destination));
  return taxRead(row, destination);
}

const taxStatement = builtOnce("pricing-tax", (db) => db.select(taxColumns()).from(sql`(select 1) as one`));

/** `loadTax`'s columns, for a statement that reads them with others; its placeholder is `taxValues`'. */
export function taxColumns() {
  return {
    taxSettings: sql<TaxSettings | null>`(select json_build_object('taxName', s.tax_name, 'pricesIncludeTax', s.prices_include_tax, 'shippingTaxable', s.shipping_taxable)
        from tax_settings s where s.id = 1)`,
    taxRates: sql<CountryRate[] | null>`(select json_agg(json_build_object('region', r.region, 'rate', r.rate_basis_points)) from tax_rates r
        where r.country = ${sql.placeholder("country")}::text)`,
    anyTaxRate: sql<boolean>`exists (select 1 from tax_rates)`,
  };
}

export const taxValues = (destination: Destination | null) => ({ country: destination ? destination.country.trim().toUpperCase() : "" });

export function taxRead(
  row: { taxSettings: TaxSettings | null; taxRates: CountryRate[] | null; anyTaxRate: boolean } | undefined,
  destination: Destination | null,
): { settings: TaxSettings; rate: number | null; regionMissing: boolean } {
  const saved = row?.taxSettings;
  const settings = saved?.taxName ? { taxName: saved.taxName, pricesIncludeTax: saved.pricesIncludeTax, shippingTaxable: saved.shippingTaxable } : DEFAULT_TAX_SETTINGS;
  if (!destination) return { settings, rate: row?.anyTaxRate ? null : 0, regionMissing: false };
  const country = destination.country.trim().toUpperCase();
  const picked = pickTaxRate(country, destination.state, (row?.taxRates ?? []).map((r) => ({ region: r.region, rate: Number(r.rate) })));
  return { settings, ...picked };
}
