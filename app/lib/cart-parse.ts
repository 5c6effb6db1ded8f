import { MAX_LINE_QUANTITY, type CartItem } from "./cart-item";
import { canonicalProductId } from "./cart-lines";

/**
 * The checks on a stored cart. Loaded by what changes the cart (./cart, which installs them in
 * ./cart-read), the cart page, and by ./cart-read when a page finds a cart stored; a first
 * visit never loads them.
 */

const isCount = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): v is number =>
  Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;

/**
 * One stored line, checked by hand rather than with zod: any page with a cart loads this (the
 * header's count), and zod would add about 24 KB gzip to it. Required fields must be right;
 * the display-only ones fall back.
 */
function parseStoredItem(entry: unknown): CartItem | null {
  if (!entry || typeof entry !== "object") return null;
  const e = entry as Record<string, unknown>;
  if (typeof e.id !== "string" || e.id.length < 1 || e.id.length > 100) return null;
  if (typeof e.name !== "string" || e.name.length > 500) return null;
  if (!isCount(e.priceCents, 0) || !isCount(e.quantity, 1, MAX_LINE_QUANTITY)) return null;
  return {
    // One spelling of a product id, as the server reads it (cart-lines.ts).
    id: canonicalProductId(e.id),
    name: e.name,
    priceCents: e.priceCents,
    imageUrl: typeof e.imageUrl === "string" && e.imageUrl.length <= 5000 ? e.imageUrl : "",
    unlimitedStock: typeof e.unlimitedStock === "boolean" ? e.unlimitedStock : false,
    stockQuantity: isCount(e.stockQuantity, 0) ? e.stockQuantity : 0,
    quantity: e.quantity,
  };
}

/** Foreign or corrupt content under the key is ignored item by item, never a crash. */
export function parseStoredCart(raw: string | null): CartItem[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  const list = Array.isArray(value) ? value : (value as { items?: unknown })?.items;
  if (!Array.isArray(list)) return [];
  // A product's first line counts; a repeat, its id in any letter case, is dropped.
  const seen = new Set<string>();
  const items: CartItem[] = [];
  for (const entry of list.slice(0, 200)) {
    const item = parseStoredItem(entry);
    if (item && !seen.has(item.id)) {
      seen.add(item.id);
      items.push(item);
    }
  }
  return items;
}
