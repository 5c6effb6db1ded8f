import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { normalizePostcode, normalizeRegion } from "./address";
import { isCountryCode } from "./countries";
import { parseMoneyToCents } from "./money-input";
import type { AdminWeightBand, RateKind } from "./shipping-settings-view";

/**
 * The Shipping & Tax screen's forms (docs/rules/admin.md, Shipping & Tax), checked the same way
 * in the browser (messages beside the fields at once) and on the server (the check that counts).
 * Amounts arrive as typed dollars ("12.50", "$5") and leave as integer cents; percentages ("20",
 * "7.25") leave as basis points; weights are whole grams. Field errors are keyed by the form's
 * field names ("name", "bands.1.to").
 */

export const SHIPPING_LIMITS = {
  zoneName: 100,
  rateName: 100,
  estimate: 200,
  taxName: 40,
  /** A region or state as typed, and how many one zone may list. */
  region: 100,
  regions: 200,
  /** A postcode prefix, and how many one zone may list. */
  postcode: 20,
  postcodes: 1000,
  bands: 50,
  /** 100 tonnes. */
  grams: 100_000_000,
  /** $1,000,000.00 */
  cents: 100_000_000,
} as const;


type Ctx = z.RefinementCtx;
const issue = (ctx: Ctx, path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", message, path });

/** Text from a form or JSON: a string or a number, trimmed; missing is "". */
const text = (label: string) =>
  z.unknown().optional().transform((v, ctx) => {
    if (v === undefined || v === null) return "";
    if (typeof v === "string" || typeof v === "number") return String(v).trim();
    ctx.addIssue({ code: "custom", message: `${label} must be text` });
    return z.NEVER;
  });

const requiredText = (label: string, max: number) =>
  text(label).pipe(z.string().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`));

/** A switch: true, "true" or "on" is on; anything else off. */
const flag = z.unknown().optional().transform((v) => v === true || v === "true" || v === "on");

/** A list typed in one box (split on `separators`) or sent as an array of strings. */
const list = (label: string, separators: RegExp) =>
  z.unknown().optional().transform((v, ctx) => {
    if (v === undefined || v === null) return [] as string[];
    const items = typeof v === "string" ? v.split(separators) : Array.isArray(v) && v.every((x) => typeof x === "string") ? v : null;
    if (!items) {
      ctx.addIssue({ code: "custom", message: `${label} must be text` });
      return z.NEVER;
    }
    return items.map((s) => s.trim()).filter(Boolean);
  });

const unique = (items: string[]) => [...new Set(items)];

/** Typed dollars → cents, or the message to show. Never negative. */
export function parseAmount(raw: string, label: string): number | string {
  const s = raw.trim();
  if (s === "") return `${label} is required`;
  if (/^(-|\$\s*-)/.test(s)) return `${label} cannot be negative`;
  const cents = parseMoneyToCents(s);
  if (cents === null) return `${label} must be an amount like 12.50`;
  if (cents > SHIPPING_LIMITS.cents) return `${label} must be at most $1,000,000.00`;
  return cents;
}

/** Typed whole grams → grams, or the message to show; "" is `empty` (required, or no bound). */
export function parseGrams(raw: string, label: string): number | string {
  const s = raw.trim().replace(/\s*g$/i, "").replace(/,(?=\d{3}(\D|$))/g, "");
  if (s === "") return `${label} is required`;
  if (/^-/.test(s)) return `${label} cannot be negative`;
  if (/^\d+\.\d*$/.test(s)) return `${label} must be a whole number of grams`;
  if (!/^\d+$/.test(s)) return `${label} must be a number of grams`;
  const grams = Number(s);
  if (grams > SHIPPING_LIMITS.grams) return `${label} must be at most ${SHIPPING_LIMITS.grams.toLocaleString("en-US")} g`;
  return grams;
}

/** A typed percentage ("20", "7.25", "20%") → basis points (2000), or the message to show. */
export function parsePercent(raw: string, label = "Rate"): number | string {
  const s = raw.trim().replace(/\s*%$/, "");
  if (s === "") return `${label} is required`;
  if (/^-/.test(s)) return `${label} cannot be negative`;
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(s)) return `${label} must be a percentage like 20 or 7.25`;
  const [whole = "", frac = ""] = s.split(".");
  if (frac.length > 2) return `${label} can have at most 2 decimals`;
  const bp = Number(whole || "0") * 100 + Number(frac.padEnd(2, "0"));
  if (!Number.isSafeInteger(bp) || bp > 10_000) return `${label} must be at most 100%`;
  return bp;
}

// ---- Zones ----

export type ZoneFormValues = {
  name: string;
  /** Codes typed in one box: "FR, BE, LU". */
  countries: string;
  /** One box, comma or line separated: "CA, New York". */
  regions: string;
  /** One box, comma or line separated: "75, 92, SW1A". */
  postcodePrefixes: string;
  restOfWorld: boolean;
};

export const EMPTY_ZONE_FORM: ZoneFormValues = { name: "", countries: "", regions: "", postcodePrefixes: "", restOfWorld: false };

export const ZoneInput = z
  .object({
    name: requiredText("Zone name", SHIPPING_LIMITS.zoneName),
    countries: list("Countries", /[\s,;]+/).transform((items, ctx) => {
      const codes = unique(items.map((c) => c.toUpperCase()));
      const unknown = codes.filter((c) => !isCountryCode(c));
      if (unknown.length) {
        ctx.addIssue({
          code: "custom",
          message: `${unknown.length === 1 ? "Unknown country code" : "Unknown country codes"}: ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? "…" : ""}. Use two-letter ISO codes such as US, GB, FR`,
        });
      }
      return codes;
    }),
    regions: list("Regions", /[,;\n]+/).transform((items, ctx) => {
      const regions = unique(items.map(normalizeRegion));
      if (regions.some((r) => r.length > SHIPPING_LIMITS.region)) {
        ctx.addIssue({ code: "custom", message: `Each region must be at most ${SHIPPING_LIMITS.region} characters` });
      } else if (regions.length > SHIPPING_LIMITS.regions) {
        ctx.addIssue({ code: "custom", message: `A zone can list at most ${SHIPPING_LIMITS.regions} regions` });
      }
      return regions;
    }),
    postcodePrefixes: list("Postcode prefixes", /[,;\n]+/).transform((items, ctx) => {
      const prefixes = unique(items.map(normalizePostcode).filter(Boolean));
      if (prefixes.some((p) => !/^[A-Z0-9]+$/.test(p))) {
        ctx.addIssue({ code: "custom", message: "Postcode prefixes may contain only letters and digits" });
      } else if (prefixes.some((p) => p.length > SHIPPING_LIMITS.postcode)) {
        ctx.addIssue({ code: "custom", message: `Each postcode prefix must be at most ${SHIPPING_LIMITS.postcode} characters` });
      } else if (prefixes.length > SHIPPING_LIMITS.postcodes) {
        ctx.addIssue({ code: "custom", message: `A zone can list at most ${SHIPPING_LIMITS.postcodes} postcode prefixes` });
      }
      return prefixes;
    }),
    restOfWorld: flag,
  })
  .superRefine((zone, ctx) => {
    if (zone.restOfWorld) {
      // The rest-of-world zone takes whatever no other zone covers: naming places would mean nothing.
      if (zone.countries.length) issue(ctx, ["countries"], "The rest-of-the-world zone names no countries: leave this empty");
      if (zone.regions.length) issue(ctx, ["regions"], "The rest-of-the-world zone names no regions: leave this empty");
      if (zone.postcodePrefixes.length) issue(ctx, ["postcodePrefixes"], "The rest-of-the-world zone names no postcodes: leave this empty");
    } else if (!zone.countries.length) {
      issue(ctx, ["countries"], "Add at least one country (or make this the rest-of-the-world zone)");
    }
  });

export type ZoneValues = z.output<typeof ZoneInput>;

// ---- Rates ----

export type BandFormValues = { from: string; to: string; price: string };

export type RateFormValues = {
  name: string;
  kind: RateKind;
  /** flat: the price; free_over: the price below the threshold. */
  price: string;
  freeOver: string;
  bands: BandFormValues[];
  estimate: string;
  freeWithCode: boolean;
};

export const EMPTY_RATE_FORM: RateFormValues = {
  name: "",
  kind: "flat",
  price: "",
  freeOver: "",
  bands: [{ from: "0", to: "", price: "" }],
  estimate: "",
  freeWithCode: false,
};

export const RateInput = z
  .object({
    name: requiredText("Rate name", SHIPPING_LIMITS.rateName),
    kind: z.enum(["flat", "free_over", "weight"], "Choose how this rate is priced"),
    price: text("Price"),
    freeOver: text("Free over"),
    bands: z.unknown().optional(),
    estimate: text("Estimate").pipe(z.string().max(SHIPPING_LIMITS.estimate, `Estimate must be at most ${SHIPPING_LIMITS.estimate} characters`)),
    freeWithCode: flag,
  })
  .transform((raw, ctx) => {
    let priceCents = 0;
    let freeOverCents: number | null = null;
    let weightBands: AdminWeightBand[] = [];
    if (raw.kind === "flat" || raw.kind === "free_over") {
      const price = parseAmount(raw.price, "Price");
      if (typeof price === "string") issue(ctx, ["price"], price);
      else priceCents = price;
    }
    if (raw.kind === "free_over") {
      const over = parseAmount(raw.freeOver, "Free over amount");
      if (typeof over === "string") issue(ctx, ["freeOver"], over);
      else freeOverCents = over;
    }
    if (raw.kind === "weight") {
      const bands = parseBands(raw.bands, ctx);
      if (bands) weightBands = bands;
    }
    return { name: raw.name, kind: raw.kind, priceCents, freeOverCents, weightBands, estimate: raw.estimate, freeWithCode: raw.freeWithCode };
  });

export type RateValues = z.output<typeof RateInput>;

const bandText = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v).trim() : "");

/**
 * Weight bands: at least one; each from < to in whole grams and a price; in order of weight,
 * lightest first, without overlaps (gaps are allowed: a cart in a gap cannot use the rate); only
 * the last band may have no upper bound.
 */
function parseBands(value: unknown, ctx: Ctx): AdminWeightBand[] | null {
  if (!Array.isArray(value) || value.length === 0) {
    issue(ctx, ["bands"], "Add at least one weight band");
    return null;
  }
  if (value.length > SHIPPING_LIMITS.bands) {
    issue(ctx, ["bands"], `A rate can have at most ${SHIPPING_LIMITS.bands} weight bands`);
    return null;
  }
  let ok = true;
  const bands: AdminWeightBand[] = [];
  value.forEach((entry: unknown, i) => {
    const raw = (entry && typeof entry === "object" ? entry : {}) as Record<string, unknown>;
    const from = parseGrams(bandText(raw.from), "From");
    const toText = bandText(raw.to);
    const to = toText === "" ? null : parseGrams(toText, "To");
    const price = parseAmount(bandText(raw.price), "Price");
    if (typeof from === "string") issue(ctx, ["bands", i, "from"], from);
    if (typeof to === "string") issue(ctx, ["bands", i, "to"], to);
    if (typeof price === "string") issue(ctx, ["bands", i, "price"], price);
    if (typeof from === "number" && typeof to === "number" && to <= from) {
      issue(ctx, ["bands", i, "to"], "To must be more than From");
      ok = false;
    }
    if (typeof from === "string" || typeof to === "string" || typeof price === "string") {
      ok = false;
      return;
    }
    bands.push({ fromGrams: from, toGrams: to, priceCents: price });
  });
  if (!ok) return null;
  bands.forEach((band, i) => {
    if (band.toGrams === null && i < bands.length - 1) {
      issue(ctx, ["bands", i, "to"], "Only the last band can have no upper limit");
      ok = false;
    }
    const prev = bands[i - 1];
    if (!prev) return;
    if (band.fromGrams < prev.fromGrams) {
      issue(ctx, ["bands", i, "from"], "Bands must be in order of weight, lightest first");
      ok = false;
    } else if (prev.toGrams !== null && band.fromGrams < prev.toGrams) {
      issue(ctx, ["bands", i, "from"], `Overlaps the band before it, which runs to ${prev.toGrams.toLocaleString("en-US")} g`);
      ok = false;
    }
  });
  return ok ? bands : null;
}

// ---- Tax ----

export type TaxRateFormValues = { country: string; region: string; rate: string };

export const EMPTY_TAX_RATE_FORM: TaxRateFormValues = { country: "", region: "", rate: "" };

/**
 * The browser's checks of a zone and a tax rate; the server reads their regions too
 * (shipping-regions-input.ts), so these pages do not load the ISO 3166-2 list.
 */
export const TaxRateInput = z.object({
  country: text("Country").transform((s, ctx) => {
    const code = s.toUpperCase();
    if (code === "") issue(ctx, [], "Choose a country");
    else if (!isCountryCode(code)) issue(ctx, [], `Unknown country code: ${code.slice(0, 10)}. Use a two-letter ISO code such as US, GB, FR`);
    return code;
  }),
  region: text("Region").transform((s, ctx) => {
    const region = normalizeRegion(s);
    if (region.length > SHIPPING_LIMITS.region) issue(ctx, [], `Region must be at most ${SHIPPING_LIMITS.region} characters`);
    return region;
  }),
  rate: text("Rate").transform((s, ctx) => {
    const bp = parsePercent(s);
    if (typeof bp === "string") {
      issue(ctx, [], bp);
      return z.NEVER;
    }
    return bp;
  }),
});

export type TaxRateValues = { country: string; region: string; rateBasisPoints: number };

export const toTaxRateValues = (v: z.output<typeof TaxRateInput>): TaxRateValues => ({
  country: v.country,
  region: v.region,
  rateBasisPoints: v.rate,
});

export type TaxSettingsFormValues = { taxName: string; pricesIncludeTax: boolean; shippingTaxable: boolean };

export const TaxSettingsInput = z.object({
  taxName: requiredText("Tax name", SHIPPING_LIMITS.taxName),
  pricesIncludeTax: flag,
  shippingTaxable: flag,
});

// ---- Messages ----

/** Messages by field ("bands.1.to"), the first one per field. */
export function shippingFieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of error.issues) out[i.path.length ? i.path.join(".") : "form"] ??= i.message;
  return out;
}

/** "12.50" for 1250, "" for null: what the form shows for a stored amount. */
export const centsToText = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));

/** "7.25" for 725. */
export const basisPointsToText = (bp: number) => String(bp / 100);
