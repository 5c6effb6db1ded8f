import sanitizeHtml from "sanitize-html";
import { MAX_PRICE_CENTS, MAX_STOCK } from "~/lib/product-input";

/**
 * Cell parsers shared by every import format. Each returns the value or a `{ error }` whose
 * message completes "Row N: …", so the admin learns what to fix in the file.
 */
export type Parsed<T> = T | { error: string };
export const isError = (v: unknown): v is { error: string } =>
  typeof v === "object" && v !== null && "error" in (v as object);

// The edit dialog's limits (app/lib/product-input.ts), so an imported product can be saved there.
export const MAX_NAME = 200;
export const MAX_SKU = 64;
export const MAX_DESCRIPTION = 10_000;
export const MAX_CATEGORY = 100;
const MAX_LIST_ITEMS = 50;
const MAX_LIST_ITEM = 60;

const quote = (raw: string) => `'${raw.length > 40 ? `${raw.slice(0, 40)}…` : raw}'`;

/**
 * Dollars to cents. Accepts "12.5", "$1,299.00", "USD 12"; more than 2 decimals round to the
 * cent. A decimal comma ("12,50") is refused rather than guessed: it could mean 12.50 or 1250.
 */
export function parsePriceCents(raw: string, label = "Price"): Parsed<number | null> {
  const s = raw.trim();
  if (s === "") return null;
  const bare = s.replace(/^(?:usd|us\$|\$|€|£)\s*/i, "").replace(/\s*(?:usd|\$|€|£)$/i, "");
  if (/^-/.test(bare) && /^-\s*(\d|\.)/.test(bare)) return { error: `${label} cannot be negative (${quote(s)})` };
  if (/^\d+,\d{1,2}$/.test(bare)) return { error: `Invalid ${label.toLowerCase()} ${quote(s)}: use a dot for decimals (for example 12.50)` };
  if (!/^(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?$/.test(bare) || !/\d/.test(bare)) {
    return { error: `Invalid ${label.toLowerCase()} ${quote(s)}: expected an amount such as 12.50` };
  }
  const [whole = "", frac = ""] = bare.replace(/,/g, "").split(".");
  let cents = Number(whole || "0") * 100 + Number(frac.slice(0, 2).padEnd(2, "0"));
  if (frac.length > 2 && Number(frac[2]) >= 5) cents += 1;
  if (!Number.isSafeInteger(cents) || cents > MAX_PRICE_CENTS) return { error: `${label} ${quote(s)} is above $1,000,000.00` };
  return cents;
}

/** A unit count. "12.0" is 12; negative, fractional and non-numeric counts are refused. */
export function parseStock(raw: string, label = "Stock"): Parsed<number | null> {
  const s = raw.trim();
  if (s === "") return null;
  if (!/^[-+]?\d+(\.\d+)?$/.test(s.replace(/,(?=\d{3}\b)/g, ""))) return { error: `Invalid ${label.toLowerCase()} ${quote(s)}: expected a whole number` };
  const n = Number(s.replace(/,/g, ""));
  if (n < 0) return { error: `${label} cannot be negative (${quote(s)})` };
  if (!Number.isInteger(n)) return { error: `${label} must be a whole number (${quote(s)})` };
  if (n > MAX_STOCK) return { error: `${label} ${quote(s)} is above 1,000,000` };
  return n;
}

const TRUE = new Set(["1", "true", "yes", "y", "on", "published", "publish", "active", "visible"]);
const FALSE = new Set(["0", "false", "no", "n", "off", "draft", "archived", "inactive", "hidden", "-1", "private"]);

/** A yes/no cell, or undefined when empty or unrecognised (the default then applies). */
export function parseFlag(raw: string): boolean | undefined {
  const s = raw.trim().toLowerCase();
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  return undefined;
}

/** "a, b; c | a" → ["a", "b", "c"]: trimmed, without blanks or case-insensitive repeats. */
export function splitList(raw: string, separators = /[,;|]/): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const part of raw.split(separators)) {
    const item = stripTags(part).slice(0, MAX_LIST_ITEM).trim();
    const key = item.toLowerCase();
    if (!item || seen.has(key)) continue;
    seen.add(key);
    out.push(item);
    if (out.length >= MAX_LIST_ITEMS) break;
  }
  return out;
}

/** Merges lists keeping the first spelling of each item. */
export function unionLists(...lists: string[][]): string[] {
  return splitList(lists.flat().join("\u0000"), /\u0000/);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (m, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith("#x")) return safeCodePoint(parseInt(lower.slice(2), 16)) ?? m;
    if (lower.startsWith("#")) return safeCodePoint(parseInt(lower.slice(1), 10)) ?? m;
    return ENTITIES[lower] ?? m;
  });
}

function safeCodePoint(n: number) {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff && n !== 0xfffe ? String.fromCodePoint(n) : undefined;
}

/** Plain text from a cell that may hold markup (markup is stripped from the title: docs/rules/catalogue-data.md). */
export function stripTags(raw: string): string {
  if (!/[<&]/.test(raw)) return raw.replace(/\s+/g, " ").trim();
  const text = raw
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<\/?[a-z!][^>]*>/gi, " ");
  return decodeEntities(text).replace(/\s+/g, " ").trim();
}

// Nothing of the markup survives: the shop shows descriptions as text (product page, edit dialog).
const TEXT_ONLY: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "title", "head", "iframe", "object"],
};

/**
 * Description HTML from an export (Shopify's Body (HTML), WooCommerce's Description) as the
 * shop's plain-text description: sanitize-html drops every tag (scripts and styles with their
 * content), paragraphs and line breaks become new lines, list items bullets. A line break
 * between two tags is only layout in HTML (a space at most), so it makes no blank line. Text
 * without markup skips the parser, which keeps large imports fast.
 */
export function sanitizeDescription(raw: string): string {
  const s = raw.trim();
  if (!s.includes("<")) return s.includes("&") ? decodeEntities(s) : s;
  const marked = s
    .replace(/>\s*\n\s*</g, "> <")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "$&• ")
    .replace(/<\/(p|div|h[1-6]|li|tr|blockquote|ul|ol|table|section|article)\s*>/gi, "$&\n");
  return decodeEntities(sanitizeHtml(marked, TEXT_ONLY))
    .replace(/\u00a0/g, " ")
    .replace(/[ \t]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const WEB_ADDRESS = /https?:\/\/[^\s,"'<>]+/i;

/** The first web address in a cell ("a.jpg, b.jpg" → a.jpg); a site path is kept; else empty. */
export function firstImageUrl(raw: string): string {
  const s = raw.trim();
  if (!s) return "";
  const m = WEB_ADDRESS.exec(s);
  if (m) return m[0].slice(0, 2000);
  if (s.startsWith("/") && !s.startsWith("//") && !/\s/.test(s)) return s.slice(0, 2000);
  return "";
}

/** The value of the first column (by exact header name) that is non-empty in this row. */
export function firstNonEmpty(fields: string[], indexes: number[]): string {
  for (const i of indexes) {
    const v = fields[i];
    if (v !== undefined && v.trim() !== "") return v;
  }
  return "";
}

/** "Clothing > Tshirts, Music" → "Tshirts": the shop's categories are flat, so the first path's leaf. */
export function categoryFrom(raw: string): string {
  const first = raw.split(",")[0] ?? "";
  const leaf = first.split(">").pop() ?? "";
  return stripTags(leaf).slice(0, MAX_CATEGORY);
}

/**
 * The limits every format shares, checked once the product is complete: an error refuses the
 * row; a note records a change (a description cut to the edit dialog's 10,000 characters).
 */
export function checkDraftLimits(d: { name: string; sku: string; description: string }): { error?: string; note?: string } {
  if (d.name.length > MAX_NAME) return { error: `The title is longer than ${MAX_NAME} characters` };
  if (d.sku.length > MAX_SKU) return { error: `The SKU is longer than ${MAX_SKU} characters` };
  if (d.description.length > MAX_DESCRIPTION) {
    d.description = d.description.slice(0, MAX_DESCRIPTION).trimEnd();
    return { note: `The description of '${d.name}' was cut to ${MAX_DESCRIPTION.toLocaleString("en-US")} characters` };
  }
  return {};
}

/**
 * A copy of a cell's text that does not keep the parsed chunk alive. V8 cuts substrings of 13+
 * characters as views into their parent string, so one SKU kept for the whole import would keep
 * its ~256 KB chunk; sets and maps that live as long as the file use copies.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, "utf8").toString("utf8");
}
