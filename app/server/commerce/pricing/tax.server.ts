import { and, eq, inArray, sql } from "drizzle-orm";
import { type Db, taxRates, taxSettings } from "../../platform/index.server";
import { normalizeRegion } from "~/lib/address";
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

/**
 * The tax rate (basis points) for an address: its region's rate when the owner set one, else
 * its country's, else none. `null` without an address when the shop has any rate at all (the
 * rate then depends on where the order goes).
 */
export async function taxRateFor(db: Db, destination: Destination | null): Promise<number | null> {
  if (!destination) {
    const [any] = await db.select({ one: sql`1` }).from(taxRates).limit(1);
    return any ? null : 0;
  }
  const country = destination.country.trim().toUpperCase();
  const region = normalizeRegion(destination.state);
  const rows = await db
    .select({ region: taxRates.region, rate: taxRates.rateBasisPoints })
    .from(taxRates)
    .where(and(eq(taxRates.country, country), inArray(taxRates.region, region ? ["", region] : [""])));
  return (rows.find((r) => r.region !== "") ?? rows[0])?.rate ?? 0;
}

/**
 * The tax settings and the rate for an address in one round trip (the quote's path): region
 * first, then the whole country; without an address, null when the shop has any rate at all.
 */
export async function loadTax(db: Db, destination: Destination | null): Promise<{ settings: TaxSettings; rate: number | null }> {
  const country = destination ? destination.country.trim().toUpperCase() : "";
  const region = destination ? normalizeRegion(destination.state) : "";
  const { rows } = await db.execute<{ tax_name: string | null; prices_include_tax: boolean; shipping_taxable: boolean; rate: number | null; any_rate: boolean }>(
    sql`select s.tax_name, s.prices_include_tax, s.shipping_taxable,
               (select r.rate_basis_points from tax_rates r
                 where r.country = ${country} and r.region in ('', ${region}) order by r.region desc limit 1) as rate,
               exists (select 1 from tax_rates) as any_rate
          from (select 1) one left join tax_settings s on s.id = 1`,
  );
  const row = rows[0];
  const settings = row?.tax_name ? { taxName: row.tax_name, pricesIncludeTax: row.prices_include_tax, shippingTaxable: row.shipping_taxable } : DEFAULT_TAX_SETTINGS;
  if (!destination) return { settings, rate: row?.any_rate ? null : 0 };
  return { settings, rate: row?.rate ?? 0 };
}
