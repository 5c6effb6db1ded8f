import { MAX_LINE_QUANTITY, type CartItem } from "./cart";
import type { BuyAgainLine, BuyAgainResult } from "./shopper-order-view";

/** A buyable line as a cart line: the product's current name, price, image and stock. */
export function cartItemOf(line: BuyAgainLine, quantity: number): CartItem {
  const { id, name, priceCents, imageUrl, unlimitedStock, stockQuantity } = line;
  return { id, name, priceCents, imageUrl, unlimitedStock, stockQuantity, quantity };
}

export type BuyAgainOutcome = {
  items: CartItem[];
  /** What went in: name, how many were added, and what differs from the order. */
  added: { name: string; quantity: number; notes: string[] }[];
  /** What did not, with the reason (the server's, or the cart already holding all there is). */
  skipped: { name: string; reason: string }[];
};

/**
 * Puts the lines the server found buyable into the cart: each adds its quantity to what the cart
 * already holds, never beyond what can be bought now (the stock, and the cart's limit per line).
 * The cart takes the product's current name, price and image.
 */
export function mergeBuyAgain(cart: CartItem[], result: BuyAgainResult): BuyAgainOutcome {
  const items = [...cart];
  const added: BuyAgainOutcome["added"] = [];
  const skipped: BuyAgainOutcome["skipped"] = [...result.skipped];
  for (const line of result.added) {
    const max = Math.min(line.maxQuantity, MAX_LINE_QUANTITY);
    const at = items.findIndex((i) => i.id === line.id);
    const have = at >= 0 ? items[at]!.quantity : 0;
    const next = Math.min(have + line.quantity, max);
    if (next <= have) {
      skipped.push({ name: line.name, reason: `"${line.name}" is already in your cart: ${have}, all you can buy now.` });
      continue;
    }
    const item = cartItemOf(line, next);
    if (at >= 0) items[at] = item;
    else items.push(item);
    const notes = [...line.notes];
    if (next - have < line.quantity && have > 0) notes.push(`Your cart already had ${have}.`);
    added.push({ name: line.name, quantity: next - have, notes });
  }
  return { items, added, skipped };
}
