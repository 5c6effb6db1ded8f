import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { taxRates, taxSettings } from "../db/schema";
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
