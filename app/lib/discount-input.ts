import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import type { DiscountForEdit, DiscountKind } from "./discounts-view";
import { parseMoneyToCents } from "./money-input";
import { isUuid } from "./uuid";

/**
 * The discount code editor's form, checked the same way in the browser (messages beside the
 * fields as the owner saves) and on the server (the only check that counts). Every field
 * arrives as typed text; every problem is reported at once, each beside its field, and nothing
 * is saved. Rules: docs/rules/admin.md, Discounts.
 */

export { DISCOUNT_CODE_PATTERN } from "./pricing-view";
import { DISCOUNT_CODE_PATTERN } from "./pricing-view";
export const DISCOUNT_CODE_MAX = 64;
export const MAX_DISCOUNT_AMOUNT_CENTS = 100_000_000; // $1,000,000.00, as the catalogue's prices
export const MAX_USAGE_LIMIT = 1_000_000_000;
export const MAX_RESTRICTION_IDS = 500;

export const DISCOUNT_MESSAGES_ADMIN = {
  codeRequired: "Code is required",
  codeTooLong: `Code must be at most ${DISCOUNT_CODE_MAX} characters`,
  codeCharacters: "Code may contain only letters, digits, - and _ (no spaces or other characters)",
  kind: "Choose a kind of discount",
  percentRequired: "Percentage is required",
  percentNumber: "Percentage must be a number, like 10 or 12.5",
  percentDecimals: "Percentage can have at most 2 decimals",
  percentPositive: "Percentage must be more than 0",
  percentMax: "Percentage must be at most 100",
  amountRequired: "Amount is required",
  amountNumber: "Amount must be an amount in dollars, like 5 or 5.50",
  amountDecimals: "Amount can have at most 2 decimals",
  amountPositive: "Amount must be more than $0.00",
  amountMax: "Amount must be at most $1,000,000.00",
  minimumNumber: "Minimum subtotal must be an amount in dollars, like 50 or 49.99",
  minimumDecimals: "Minimum subtotal can have at most 2 decimals",
  minimumNegative: "Minimum subtotal cannot be negative",
  minimumMax: "Minimum subtotal must be at most $1,000,000.00",
  startsAt: "Start must be a date and time (UTC), like 2026-05-01 09:00",
  endsAt: "End must be a date and time (UTC), like 2026-05-31 23:59",
  endBeforeStart: "End must be after the start",
  limitWhole: "Usage limit must be a whole number, like 100",
  limitMin: "Usage limit must be at least 1",
  limitMax: "Usage limit must be at most 1,000,000,000",
  categories: "Choose categories from the list",
  products: "Choose products from the list",
  tooManyCategories: `Choose at most ${MAX_RESTRICTION_IDS} categories`,
  tooManyProducts: `Choose at most ${MAX_RESTRICTION_IDS} products`,
} as const;

const M = DISCOUNT_MESSAGES_ADMIN;

const KINDS: readonly DiscountKind[] = ["percent", "fixed", "free_shipping"];

/** Checks a code as typed (surrounding spaces ignored); the message to show, or null. */
export function codeProblem(code: string): string | null {
  if (code === "") return M.codeRequired;
  if (code.length > DISCOUNT_CODE_MAX) return M.codeTooLong;
  if (!DISCOUNT_CODE_PATTERN.test(code)) return M.codeCharacters;
  return null;
}

/** '10', '12.5', '7.25%' → basis points (1000, 1250, 725), or the message to show. */
export function parsePercent(raw: string): number | string {
  const s = raw.trim().replace(/\s*%$/, "");
  if (s === "") return M.percentRequired;
  if (/^-\s*\d/.test(s)) return M.percentPositive;
  if (!/^\+?(\d+(\.\d*)?|\.\d+)$/.test(s)) return M.percentNumber;
  const [whole = "", frac = ""] = s.replace(/^\+/, "").split(".");
  if (frac.length > 2) return M.percentDecimals;
  const basisPoints = Number(whole || "0") * 100 + Number(frac.padEnd(2, "0"));
  if (!Number.isSafeInteger(basisPoints) || basisPoints > 10_000) return M.percentMax;
  if (basisPoints <= 0) return M.percentPositive;
  return basisPoints;
}

type MoneyMessages = { number: string; decimals: string; max: string; negative: string };

/** Typed dollars → cents (parseMoneyToCents), or the message to show. Zero is allowed here. */
function parseDollarAmount(raw: string, m: MoneyMessages): number | string {
  const s = raw.trim();
  if (/^-\s*\$?\s*\d/.test(s)) return m.negative;
  const cents = parseMoneyToCents(s);
  if (cents === null) return /^\$?[\d,]*\.\d{3,}$/.test(s) ? m.decimals : m.number;
  if (cents > MAX_DISCOUNT_AMOUNT_CENTS) return m.max;
  return cents;
}

/** A fixed discount's amount: dollars → cents, more than zero. */
export function parseAmount(raw: string): number | string {
  if (raw.trim() === "") return M.amountRequired;
  const cents = parseDollarAmount(raw, { number: M.amountNumber, decimals: M.amountDecimals, max: M.amountMax, negative: M.amountPositive });
  if (typeof cents === "string") return cents;
  return cents > 0 ? cents : M.amountPositive;
}

/** The optional minimum subtotal: empty is none (null). */
export function parseMinimum(raw: string): number | null | string {
  if (raw.trim() === "") return null;
  return parseDollarAmount(raw, { number: M.minimumNumber, decimals: M.minimumDecimals, max: M.minimumMax, negative: M.minimumNegative });
}

/** The optional usage limit: empty is no limit (null); otherwise a whole number ≥ 1. */
export function parseUsageLimit(raw: string): number | null | string {
  const s = raw.trim().replace(/,/g, "");
  if (s === "") return null;
  if (/^-\s*\d/.test(s)) return M.limitMin;
  if (!/^\+?\d+$/.test(s)) return /^\+?\d*\.\d+$/.test(s) && Number(s) < 1 ? M.limitMin : M.limitWhole;
  const n = Number(s);
  if (n < 1) return M.limitMin;
  if (!Number.isSafeInteger(n) || n > MAX_USAGE_LIMIT) return M.limitMax;
  return n;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|\+00:?00)?$/;

/**
 * A moment typed as UTC: '2026-05-01T09:00' (what a datetime-local input gives), with seconds or
 * a 'Z' allowed; empty is none (null). A date that does not exist (Feb 30) is refused.
 */
export function parseUtcDateTime(raw: string, message: string): Date | null | string {
  const s = raw.trim();
  if (s === "") return null;
  const m = DATE_TIME.exec(s);
  if (!m) return message;
  const [y, mo, d, h, mi, sec] = m.slice(1).map((part) => Number(part ?? "0"));
  const ms = Date.UTC(y!, mo! - 1, d!, h!, mi!, sec);
  const date = new Date(ms);
  if (
    Number.isNaN(ms) ||
    y! < 1970 ||
    y! > 9999 ||
    date.getUTCMonth() !== mo! - 1 ||
    date.getUTCDate() !== d! ||
    date.getUTCHours() !== h! ||
    date.getUTCMinutes() !== mi!
  ) {
    return message;
  }
  return date;
}

/** What a datetime-local input shows for a stored moment, in UTC ('2026-05-01T09:00'); null → empty. */
export function isoToUtcInput(iso: string | null): string {
  if (!iso) return "";
  const s = new Date(iso).toISOString();
  return s.endsWith(":00.000Z") ? s.slice(0, 16) : s.slice(0, 19);
}

const text = z
  .union([z.string(), z.number(), z.null(), z.undefined()])
  .transform((v) => (v === null || v === undefined ? "" : String(v).trim()));

const flag = z
  .union([z.boolean(), z.enum(["true", "false", "on", "off"]), z.undefined()])
  .transform((v) => v === true || v === "true" || v === "on");

const ids = z.union([z.array(z.unknown()), z.undefined(), z.null()]).transform((v) => v ?? []);

export const DiscountInput = z
  .object({
    code: text,
    kind: text,
    value: text,
    minSubtotal: text,
    startsAt: text,
    endsAt: text,
    usageLimit: text,
    oncePerEmail: flag,
    active: z.union([flag, z.undefined()]).transform((v) => v ?? true),
    categoryIds: ids,
    productIds: ids,
  })
  .transform((v, ctx) => {
    let failed = false;
    const problem = (path: string, message: string) => {
      failed = true;
      ctx.addIssue({ code: "custom", message, path: [path] });
    };

    const codeIssue = codeProblem(v.code);
    if (codeIssue) problem("code", codeIssue);

    const kind = KINDS.find((k) => k === v.kind);
    if (!kind) problem("kind", M.kind);

    let percentBasisPoints: number | null = null;
    let amountCents: number | null = null;
    if (kind === "percent") {
      const bp = parsePercent(v.value);
      if (typeof bp === "string") problem("value", bp);
      else percentBasisPoints = bp;
    } else if (kind === "fixed") {
      const cents = parseAmount(v.value);
      if (typeof cents === "string") problem("value", cents);
      else amountCents = cents;
    }

    const minimum = parseMinimum(v.minSubtotal);
    if (typeof minimum === "string") problem("minSubtotal", minimum);

    const startsAt = parseUtcDateTime(v.startsAt, M.startsAt);
    if (typeof startsAt === "string") problem("startsAt", startsAt);
    const endsAt = parseUtcDateTime(v.endsAt, M.endsAt);
    if (typeof endsAt === "string") problem("endsAt", endsAt);
    if (startsAt instanceof Date && endsAt instanceof Date && endsAt <= startsAt) problem("endsAt", M.endBeforeStart);

    const usageLimit = parseUsageLimit(v.usageLimit);
    if (typeof usageLimit === "string") problem("usageLimit", usageLimit);

    const uuids = (list: unknown[], path: string, bad: string, tooMany: string): string[] => {
      if (list.some((id) => !isUuid(id))) problem(path, bad);
      else if (new Set(list).size > MAX_RESTRICTION_IDS) problem(path, tooMany);
      return [...new Set(list.filter((id): id is string => typeof id === "string").map((id) => id.toLowerCase()))];
    };
    // Free shipping takes nothing off the lines, so it is never limited to some of them.
    const categoryIds = kind === "free_shipping" ? [] : uuids(v.categoryIds, "categoryIds", M.categories, M.tooManyCategories);
    const productIds = kind === "free_shipping" ? [] : uuids(v.productIds, "productIds", M.products, M.tooManyProducts);

    if (failed) return z.NEVER;
    return {
      code: v.code,
      kind: kind!,
      percentBasisPoints,
      amountCents,
      minSubtotalCents: minimum as number | null,
      startsAt: startsAt as Date | null,
      endsAt: endsAt as Date | null,
      usageLimit: usageLimit as number | null,
      oncePerEmail: v.oncePerEmail,
      active: v.active,
      categoryIds,
      productIds,
    };
  });
export type DiscountInput = z.output<typeof DiscountInput>;

/** What the editor holds while someone types: text, as the inputs give it. */
export type DiscountFormValues = {
  code: string;
  kind: DiscountKind;
  value: string;
  minSubtotal: string;
  startsAt: string;
  endsAt: string;
  usageLimit: string;
  oncePerEmail: boolean;
  active: boolean;
  categoryIds: string[];
  productIds: string[];
};

export const EMPTY_DISCOUNT_FORM: DiscountFormValues = {
  code: "",
  kind: "percent",
  value: "",
  minSubtotal: "",
  startsAt: "",
  endsAt: "",
  usageLimit: "",
  oncePerEmail: false,
  active: true,
  categoryIds: [],
  productIds: [],
};

const centsText = (cents: number | null) => (cents === null ? "" : `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`);
const percentText = (bp: number | null) => (bp === null ? "" : String(bp / 100));

/** A stored code as the editor's form shows it. */
export function discountToForm(d: DiscountForEdit | null): DiscountFormValues {
  if (!d) return EMPTY_DISCOUNT_FORM;
  return {
    code: d.code,
    kind: d.kind,
    value: d.kind === "percent" ? percentText(d.percentBasisPoints) : d.kind === "fixed" ? centsText(d.amountCents) : "",
    minSubtotal: centsText(d.minSubtotalCents),
    startsAt: isoToUtcInput(d.startsAt),
    endsAt: isoToUtcInput(d.endsAt),
    usageLimit: d.usageLimit === null ? "" : String(d.usageLimit),
    oncePerEmail: d.oncePerEmail,
    active: d.active,
    categoryIds: d.categoryIds,
    productIds: d.productIds,
  };
}
