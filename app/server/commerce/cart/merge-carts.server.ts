import { MAX_LINE_QUANTITY } from "~/lib/cart";
import { MAX_SAVED_CART_LINES, type CartDrop } from "~/lib/saved-cart-view";

/**
 * The rules that make one cart of two (docs/rules/after-sale.md, The cart of a signed-in
 * shopper), kept pure so each rule is tested alone.
 */

export type CartLineIn = { id: string; quantity: number; name?: string };

/** What the rules need to know of a product now; a product missing from the map was deleted. */
export type CartProductNow = { id: string; name: string; active: boolean; unlimitedStock: boolean; stockQuantity: number };

/**
 * Server lines first, in their order, then this device's new ones. The same product: the larger
 * quantity. Then every line as the shop stands now: a deleted or deactivated product is dropped,
 * so is one out of stock; a quantity above the stock (or 99) comes down to it; past 100 lines the
 * rest are left out. Each change is reported.
 */
export function mergeCarts(
  server: CartLineIn[],
  local: CartLineIn[],
  productsNow: Map<string, CartProductNow>,
  maxLines = MAX_SAVED_CART_LINES,
): { lines: { id: string; quantity: number }[]; dropped: CartDrop[] } {
  const wanted = new Map<string, { quantity: number; name: string }>();
  for (const line of [...server, ...local]) {
    const known = wanted.get(line.id);
    const quantity = Math.max(known?.quantity ?? 0, line.quantity);
    wanted.set(line.id, { quantity, name: known?.name || line.name || "" });
  }
  const lines: { id: string; quantity: number }[] = [];
  const dropped: CartDrop[] = [];
  for (const [id, want] of wanted) {
    const product = productsNow.get(id);
    const name = product?.name || want.name || "A product";
    if (!product || !product.active) {
      dropped.push({ id, name, reason: "unavailable" });
      continue;
    }
    const limit = product.unlimitedStock ? MAX_LINE_QUANTITY : Math.min(product.stockQuantity, MAX_LINE_QUANTITY);
    if (limit <= 0) {
      dropped.push({ id, name, reason: "out_of_stock" });
      continue;
    }
    if (lines.length >= maxLines) {
      dropped.push({ id, name, reason: "limit" });
      continue;
    }
    const quantity = Math.min(want.quantity, limit);
    // Above 99 with stock to spare is the cart's own cap, not news for the shopper.
    if (quantity < want.quantity && quantity < MAX_LINE_QUANTITY) dropped.push({ id, name, reason: "reduced", quantity });
    lines.push({ id, quantity });
  }
  return { lines, dropped };
}
