import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { orders } from "./orders";

/**
 * What a shop charges between the list price and the card (docs/money-path.md): shipping zones
 * and their rates, tax rates and the tax settings, and discount codes with their uses.
 */

/**
 * A shipping zone: the countries it covers and, within them, optionally only some states or
 * regions and postcode prefixes. The most specific zone that matches an address is used
 * (postcode, then region, then country); the rest-of-world zone, when there is one, takes any
 * address no other zone covers.
 */
export const shippingZones = pgTable(
  "shipping_zones",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** ISO 3166-1 alpha-2 codes, upper case. Empty only for the rest-of-world zone. */
    countries: text("countries").array().notNull().default(sql`'{}'::text[]`),
    /** State or region codes/names as shoppers type them, upper case; empty: the whole countries. */
    regions: text("regions").array().notNull().default(sql`'{}'::text[]`),
    /** Postcode prefixes, upper case without spaces; empty: every postcode. */
    postcodePrefixes: text("postcode_prefixes").array().notNull().default(sql`'{}'::text[]`),
    restOfWorld: boolean("rest_of_world").notNull().default(false),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index("shipping_zones_countries_idx").using("gin", t.countries),
    uniqueIndex("shipping_zones_one_rest_of_world").on(t.restOfWorld).where(sql`${t.restOfWorld}`),
  ],
);

export const SHIPPING_RATE_KINDS = ["flat", "free_over", "weight"] as const;

/** One band of a weight rate: from `fromGrams` (inclusive) to `toGrams` (exclusive; null: no upper bound). */
export type WeightBand = { fromGrams: number; toGrams: number | null; priceCents: number };

/**
 * A way to ship within a zone: a flat price; a price that becomes free once the goods reach
 * `freeOverCents`; or a price by the cart's weight, in bands.
 */
export const shippingRates = pgTable(
  "shipping_rates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    zoneId: uuid("zone_id")
      .notNull()
      .references(() => shippingZones.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: SHIPPING_RATE_KINDS }).notNull(),
    /** flat: the price; free_over: the price below the threshold; weight: unused. */
    priceCents: integer("price_cents").notNull().default(0),
    freeOverCents: integer("free_over_cents"),
    weightBands: jsonb("weight_bands").$type<WeightBand[]>().notNull().default(sql`'[]'::jsonb`),
    /** 'Delivered in 3–5 business days'. */
    estimate: text("estimate").notNull().default(""),
    /** A free-shipping code makes this rate free; when no rate of the zone says so, the cheapest. */
    freeWithCode: boolean("free_with_code").notNull().default(false),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index("shipping_rates_zone_idx").on(t.zoneId, t.position),
    check("shipping_rates_price_nonnegative", sql`${t.priceCents} >= 0 and (${t.freeOverCents} is null or ${t.freeOverCents} >= 0)`),
  ],
);

/** A tax rate for a country, or for one region of it (region '' is the whole country). */
export const taxRates = pgTable(
  "tax_rates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    country: text("country").notNull(),
    region: text("region").notNull().default(""),
    /** 2000 is 20%. */
    rateBasisPoints: integer("rate_basis_points").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    uniqueIndex("tax_rates_place_unique").on(t.country, t.region),
    check("tax_rates_rate_range", sql`${t.rateBasisPoints} >= 0 and ${t.rateBasisPoints} <= 10000`),
  ],
);

/** The shop's tax settings: one row. */
export const taxSettings = pgTable(
  "tax_settings",
  {
    id: smallint("id").primaryKey().default(1),
    /** 'Tax', 'VAT', 'Sales tax'. */
    taxName: text("tax_name").notNull().default("Tax"),
    /** Catalogue prices contain the tax (EU style) or have it added (US style). */
    pricesIncludeTax: boolean("prices_include_tax").notNull().default(false),
    shippingTaxable: boolean("shipping_taxable").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [check("tax_settings_one_row", sql`${t.id} = 1`)],
);

export const DISCOUNT_KINDS = ["percent", "fixed", "free_shipping"] as const;

/**
 * A discount code. Codes are matched without regard to case. `usesCount` counts the uses held by
 * unpaid orders and kept by paid ones; it never passes `usageLimit` (the conditional update that
 * takes a use is the only writer, docs/money-path.md).
 */
export const discountCodes = pgTable(
  "discount_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    code: text("code").notNull(),
    kind: text("kind", { enum: DISCOUNT_KINDS }).notNull(),
    /** percent: 1000 is 10%. */
    percentBasisPoints: integer("percent_basis_points"),
    /** fixed: the amount off. */
    amountCents: integer("amount_cents"),
    minSubtotalCents: integer("min_subtotal_cents"),
    startsAt: timestamp("starts_at", { withTimezone: true }),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    usageLimit: integer("usage_limit"),
    usesCount: integer("uses_count").notNull().default(0),
    oncePerEmail: boolean("once_per_email").notNull().default(false),
    /** Only these products and categories (by id); both empty: the whole cart. */
    productIds: uuid("product_ids").array().notNull().default(sql`'{}'::uuid[]`),
    categoryIds: uuid("category_ids").array().notNull().default(sql`'{}'::uuid[]`),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    uniqueIndex("discount_codes_code_unique").on(sql`lower(${t.code})`),
    check("discount_codes_uses", sql`${t.usesCount} >= 0 and (${t.usageLimit} is null or ${t.usesCount} <= ${t.usageLimit})`),
    check("discount_codes_values", sql`(${t.percentBasisPoints} is null or ${t.percentBasisPoints} between 1 and 10000) and (${t.amountCents} is null or ${t.amountCents} > 0) and (${t.minSubtotalCents} is null or ${t.minSubtotalCents} >= 0)`),
    check("discount_codes_window", sql`${t.startsAt} is null or ${t.endsAt} is null or ${t.startsAt} < ${t.endsAt}`),
  ],
);

export const DISCOUNT_USE_STATES = ["held", "kept", "released"] as const;

/**
 * One use of a code by one order: held while the order is unpaid, kept once it is paid, released
 * (and counted back) when it closes unpaid. A refund after payment keeps it.
 */
export const discountUses = pgTable(
  "discount_uses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // A used code can be deactivated but not deleted: its uses are the record of what was given.
    codeId: uuid("code_id")
      .notNull()
      .references(() => discountCodes.id, { onDelete: "restrict" }),
    orderId: uuid("order_id")
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** lower(email): set only for once-per-email codes, where it must be unique among live uses. */
    emailKey: text("email_key"),
    state: text("state", { enum: DISCOUNT_USE_STATES }).notNull().default("held"),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("discount_uses_once_per_email").on(t.codeId, t.emailKey).where(sql`${t.emailKey} is not null and ${t.state} <> 'released'`),
    index("discount_uses_code_idx").on(t.codeId, t.createdAt),
    index("discount_uses_created_idx").on(t.createdAt),
  ],
);
