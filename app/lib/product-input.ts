import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { parseLowStockThreshold } from "./low-stock";

/**
 * The admin catalogue's forms, checked the same way in the browser (instant messages beside the
 * fields) and on the server (the only check that counts). Prices arrive as typed text ("12.50")
 * and leave as integer cents.
 */

export const MAX_PRICE_CENTS = 100_000_000; // $1,000,000.00
export const MAX_STOCK = 1_000_000;

const text = z.union([z.string(), z.number()]).transform((v) => String(v).trim());

type MoneyRule = { label: string; allowNegative?: boolean };

/** Parses typed dollars into cents, or returns the message a person should see. */
export function parseDollars(raw: string, { label, allowNegative = false }: MoneyRule): number | string {
  const s = raw.trim().replace(/^\$/, "");
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return `${label} must be a number`;
  const negative = s.startsWith("-");
  if (negative && !allowNegative) return `${label} cannot be negative`;
  const [whole = "", frac = ""] = s.replace(/^[-+]/, "").split(".");
  if (frac.length > 2) return `${label} can have at most 2 decimals`;
  const cents = Number(whole || "0") * 100 + Number(frac.padEnd(2, "0"));
  if (!Number.isSafeInteger(cents) || cents > MAX_PRICE_CENTS) return `${label} must be at most $1,000,000.00`;
  return negative ? -cents : cents;
}

function money(rule: MoneyRule) {
  return text.transform((s, ctx) => {
    if (s === "") {
      ctx.addIssue({ code: "custom", message: `${rule.label} is required` });
      return z.NEVER;
    }
    const cents = parseDollars(s, rule);
    if (typeof cents === "string") {
      ctx.addIssue({ code: "custom", message: cents });
      return z.NEVER;
    }
    return cents;
  });
}

/** Empty means "no original price" (null), as docs/rules/admin.md says. */
function optionalMoney(rule: MoneyRule) {
  return text.transform((s, ctx) => {
    if (s === "") return null;
    const cents = parseDollars(s, rule);
    if (typeof cents === "string") {
      ctx.addIssue({ code: "custom", message: cents });
      return z.NEVER;
    }
    return cents;
  });
}

/** Parses a typed unit count, or returns the message a person should see. */
export function parseStock(raw: string, label = "Stock quantity"): number | string {
  const s = raw.trim();
  if (s === "") return `${label} is required`;
  if (!/^[-+]?\d+(\.\d+)?$/.test(s)) return `${label} must be a number`;
  const n = Number(s);
  if (n < 0) return `${label} cannot be negative`;
  if (!Number.isInteger(n)) return `${label} must be a whole number`;
  if (n > MAX_STOCK) return `${label} must be at most 1,000,000`;
  return n;
}

function stock(label = "Stock quantity") {
  return text.transform((s, ctx) => {
    const n = parseStock(s, label);
    if (typeof n === "string") {
      ctx.addIssue({ code: "custom", message: n });
      return z.NEVER;
    }
    return n;
  });
}

export const MAX_WEIGHT_GRAMS = 1_000_000; // 1,000 kg

/** Parses typed grams: empty is "not given" (null); whole grams 0–1,000,000, or the message a person should see. */
export function parseWeightGrams(raw: string, label = "Weight"): number | null | string {
  const s = raw.trim();
  if (s === "") return null;
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return `${label} must be a number of grams`;
  const n = Number(s);
  if (n < 0) return `${label} cannot be negative`;
  if (!Number.isInteger(n)) return `${label} must be a whole number of grams`;
  if (n > MAX_WEIGHT_GRAMS) return `${label} must be at most 1,000,000 g`;
  return n;
}

/** Weight in grams; empty means "not given" (null). */
function optionalWeight(label = "Weight") {
  return text.transform((s, ctx) => {
    const n = parseWeightGrams(s, label);
    if (typeof n === "string") {
      ctx.addIssue({ code: "custom", message: n });
      return z.NEVER;
    }
    return n;
  });
}

/** A low-stock threshold; empty means "the shop's default" (null). */
function optionalThreshold(label = "Low-stock threshold") {
  return text.transform((s, ctx) => {
    const n = parseLowStockThreshold(s, label);
    if (typeof n === "string") {
      ctx.addIssue({ code: "custom", message: n });
      return z.NEVER;
    }
    return n;
  });
}

const flag = z.union([z.boolean(), z.enum(["true", "false", "on"])]).transform((v) => v === true || v === "true" || v === "on");

const IMAGE_URL = /^(https?:\/\/|\/)/i;

export const ProductInput = z
  .object({
    name: text.pipe(z.string().min(1, "Product name is required").max(200, "Product name must be at most 200 characters")),
    sku: text.pipe(z.string().max(64, "SKU must be at most 64 characters")).default(""),
    description: text.pipe(z.string().max(10_000, "Description must be at most 10,000 characters")).default(""),
    imageUrl: text
      .pipe(
        z
          .string()
          .max(2000, "Image URL is too long")
          .refine((s) => s === "" || IMAGE_URL.test(s), "Image URL must start with http:// or https://"),
      )
      .default(""),
    price: money({ label: "Price" }),
    originalPrice: optionalMoney({ label: "Original price" }).default(null),
    unlimitedStock: flag.default(false),
    // Checked below: it only matters when stock is not unlimited.
    stockQuantity: text.default("0"),
    /** Absent: the weight stays as it is (a client that predates the field); empty: not given. */
    weightGrams: optionalWeight().optional(),
    /** Absent: left as it is (like the weight); empty: the shop's default. */
    lowStockThreshold: optionalThreshold().optional(),
    /** What one unit costs the shop. Absent: left as it is; empty: not given. */
    cost: optionalMoney({ label: "Cost per item" }).optional(),
    category: text.pipe(z.string().min(1, "Choose a category").max(100, "Category must be at most 100 characters")),
    active: flag.default(true),
    featured: flag.default(false),
    /** The version the editor loaded; a save over a newer version is refused as a conflict. */
    version: z.string().max(64).optional(),
  })
  .transform((v, ctx) => {
    // With unlimited stock on, the quantity is saved as 0 whatever was typed (docs/rules/admin.md).
    if (v.unlimitedStock) return { ...v, stockQuantity: 0 };
    const n = parseStock(v.stockQuantity);
    if (typeof n === "string") {
      ctx.addIssue({ code: "custom", message: n, path: ["stockQuantity"] });
      return z.NEVER;
    }
    return { ...v, stockQuantity: n };
  });
export type ProductInput = z.output<typeof ProductInput>;

/** What the product form holds while someone types: text for numbers, as the inputs give it. */
export type ProductFormValues = {
  name: string;
  sku: string;
  description: string;
  imageUrl: string;
  price: string;
  originalPrice: string;
  unlimitedStock: boolean;
  stockQuantity: string;
  /** Grams, as typed; empty: not given. */
  weightGrams: string;
  /** As typed; empty: the shop's default. */
  lowStockThreshold: string;
  /** Dollars as typed; empty: not given. */
  cost: string;
  category: string;
  active: boolean;
  featured: boolean;
};

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  name: "",
  sku: "",
  description: "",
  imageUrl: "",
  price: "",
  originalPrice: "",
  unlimitedStock: false,
  stockQuantity: "0",
  weightGrams: "",
  lowStockThreshold: "",
  cost: "",
  category: "",
  active: true,
  featured: false,
};

/** Cents to the text a price input shows ("12.50"); null to empty. */
export function centsToInput(cents: number | null): string {
  if (cents === null) return "";
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

export const NO_FIELDS_SELECTED = "No fields selected: Please select at least one field to update";
export const NO_PRODUCTS_SELECTED = "No products selected: Please select at least one product to edit";
export const MAX_BULK_PRODUCTS = 500;

/** Bulk Edit: only the fields present are applied (the dialog sends the checked ones). */
export const BulkEditInput = z
  .object({
    ids: z
      .array(z.uuid("Unknown product"))
      .max(MAX_BULK_PRODUCTS, `Select at most ${MAX_BULK_PRODUCTS} products at once`)
      .default([])
      .refine((ids) => ids.length > 0, NO_PRODUCTS_SELECTED),
    category: text.pipe(z.string().min(1, "Choose a category")).optional(),
    priceAdjustment: z
      .object({
        type: z.enum(["amount", "percentage"], "Choose amount or percentage"),
        value: text,
      })
      .transform((adj, ctx) => {
        const label = adj.type === "amount" ? "Price adjustment" : "Percentage";
        const parsed = parseDollars(adj.value, { label, allowNegative: true });
        if (adj.value === "") {
          ctx.addIssue({ code: "custom", message: `${label} is required`, path: ["value"] });
          return z.NEVER;
        }
        if (typeof parsed === "string") {
          ctx.addIssue({ code: "custom", message: parsed, path: ["value"] });
          return z.NEVER;
        }
        // Amounts are cents; percentages are hundredths of a percent (basis points).
        return { type: adj.type, value: parsed };
      })
      .optional(),
    exactPrice: money({ label: "Price" }).optional(),
    originalPrice: optionalMoney({ label: "Original price" }).optional(),
    stockQuantity: stock().optional(),
    /** Empty removes the weight (null). */
    weightGrams: optionalWeight().optional(),
    unlimitedStock: flag.optional(),
    active: flag.optional(),
    featured: flag.optional(),
    /**
     * Each product's stock as the list showed it (null: unlimited), sent with a stock change so
     * sales made since are not overwritten (docs/rules/admin.md, Bulk Edit dialog).
     */
    stockSeen: z.record(z.string(), z.number().int().nullable()).optional(),
  })
  .superRefine((v, ctx) => {
    const { ids: _ids, stockSeen: _seen, ...fields } = v;
    if (Object.values(fields).every((f) => f === undefined)) {
      ctx.addIssue({ code: "custom", message: NO_FIELDS_SELECTED, path: ["fields"] });
    }
    if (v.priceAdjustment !== undefined && v.exactPrice !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: "Choose either Price Adjustment or Set Exact Price, not both",
        path: ["exactPrice"],
      });
    }
  });
export type BulkEditInput = z.output<typeof BulkEditInput>;

export const CategoryInput = z.object({
  name: text.pipe(z.string().min(1, "Category name is required").max(100, "Category name must be at most 100 characters")),
  description: text.pipe(z.string().max(500, "Description must be at most 500 characters")).default(""),
});

export const CategoryName = text.pipe(
  z.string().min(1, "Category name is required").max(100, "Category name must be at most 100 characters"),
);

export const VariationTypeName = text.pipe(
  z.string().min(1, "Please enter a variation type name").max(60, "Name must be at most 60 characters"),
);
export const VariationTypeRename = text.pipe(z.string().min(1, "Name cannot be empty").max(60, "Name must be at most 60 characters"));
export const VariationValueName = text.pipe(z.string().min(1, "Please enter a value").max(60, "Value must be at most 60 characters"));
export const VariationValueRename = text.pipe(
  z.string().min(1, "Value cannot be empty").max(60, "Value must be at most 60 characters"),
);

/** One field of an attached variation, saved on its own (docs/rules/admin.md, Edit Product dialog). */
export const ProductVariationField = z.discriminatedUnion("field", [
  z.object({ field: z.literal("priceAdjustment"), value: money({ label: "Price adjustment", allowNegative: true }) }),
  z.object({ field: z.literal("stockQuantity"), value: stock("Variation stock") }),
  z.object({ field: z.literal("skuSuffix"), value: text.pipe(z.string().max(32, "SKU suffix must be at most 32 characters")) }),
]);
export type ProductVariationField = z.output<typeof ProductVariationField>;

/** The first message per field, keyed by its dotted path: what a form shows beside each input. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "form";
    out[key] ??= issue.message;
  }
  return out;
}

/** The first message of a failed parse, for a toast. */
export function firstError(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Invalid input";
}

/** What every admin catalogue action answers: the toast to show, and messages per field on failure. */
export type AdminActionResult =
  | { ok: true; message?: string; [extra: string]: unknown }
  | {
      ok: false;
      /** The toast title (docs/rules/errors.md, for example 'Failed to update product'). */
      title: string;
      /** What went wrong, in words the admin can act on. */
      message: string;
      errors?: Record<string, string>;
      code?: string;
      [extra: string]: unknown;
    };
