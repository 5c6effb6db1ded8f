import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "~/server/platform/db/client.server";
import { discountCodes, shippingRates, shippingZones, taxRates, taxSettings, type WeightBand } from "~/server/platform/db/schema";

type RateInput = {
  name: string;
  kind?: "flat" | "free_over" | "weight";
  priceCents?: number;
  freeOverCents?: number | null;
  weightBands?: WeightBand[];
  estimate?: string;
};

/** A shipping zone with its rates (flat unless said otherwise). */
export async function makeZone(
  db: Db,
  zone: { name?: string; countries?: string[]; regions?: string[]; postcodePrefixes?: string[]; restOfWorld?: boolean; position?: number },
  rates: RateInput[] = [{ name: "Standard", priceCents: 500 }],
) {
  const [row] = await db
    .insert(shippingZones)
    .values({
      name: zone.name ?? `Zone ${randomBytes(3).toString("hex")}`,
      countries: zone.countries ?? [],
      regions: zone.regions ?? [],
      postcodePrefixes: zone.postcodePrefixes ?? [],
      restOfWorld: zone.restOfWorld ?? false,
      position: zone.position ?? 0,
    })
    .returning();
  const made = rates.length
    ? await db
        .insert(shippingRates)
        .values(
          rates.map((r, i) => ({
            zoneId: row!.id,
            name: r.name,
            kind: r.kind ?? "flat",
            priceCents: r.priceCents ?? 0,
            freeOverCents: r.freeOverCents ?? null,
            weightBands: r.weightBands ?? [],
            estimate: r.estimate ?? "",
            position: i,
          })),
        )
        .returning()
    : [];
  return { zone: row!, rates: made };
}

/** Removes the default 'Everywhere' zone, so only the test's zones ship. */
export async function withoutDefaultZone(db: Db) {
  await db.delete(shippingZones).where(eq(shippingZones.restOfWorld, true));
}

export async function setTax(
  db: Db,
  settings: { taxName?: string; pricesIncludeTax?: boolean; shippingTaxable?: boolean },
  rates: { country: string; region?: string; percent: number }[] = [],
) {
  await db.update(taxSettings).set(settings).where(eq(taxSettings.id, 1));
  if (rates.length) {
    await db.insert(taxRates).values(rates.map((r) => ({ country: r.country, region: r.region ?? "", rateBasisPoints: Math.round(r.percent * 100) })));
  }
}

export async function makeDiscountCode(db: Db, overrides: Partial<typeof discountCodes.$inferInsert> = {}) {
  const [row] = await db
    .insert(discountCodes)
    .values({
      code: `CODE${randomBytes(4).toString("hex").toUpperCase()}`,
      kind: "percent",
      percentBasisPoints: 1000,
      ...overrides,
    })
    .returning();
  return row!;
}

/** Back to a fresh shop's pricing: one 'Everywhere' zone shipping free, no tax, no codes in play. */
export async function resetPricing(db: Db) {
  await db.delete(shippingZones);
  await db.delete(taxRates);
  await db.update(taxSettings).set({ taxName: "Tax", pricesIncludeTax: false, shippingTaxable: false }).where(eq(taxSettings.id, 1));
  await makeZone(db, { name: "Everywhere", restOfWorld: true }, [{ name: "Standard", priceCents: 0 }]);
}
