import { cartItemOf } from "./buy-again";
import { MAX_LINE_QUANTITY, type CartItem } from "./cart";
import type { BuyAgainResult } from "./shopper-order-view";

export type RestoreOutcome = {
  items: CartItem[];
  /** Each line of the checkout now in the cart: how many the cart holds, and what differs from the checkout. */
  inCart: { name: string; quantity: number; notes: string[] }[];
  /** What could not go back, with the server's reason. */
  skipped: { name: string; reason: string }[];
};

/**
 * The reminder's "Return to your cart" (docs/rules/after-sale.md, The abandoned-checkout
 * reminder): the cart holds the checkout's lines that can be bought now. Unlike 'Buy again' it
 * does not add to what is there: a line already in the cart keeps the larger of the two
 * quantities (following the link twice, or after the checkout's cart came back, does not double
 * it), never beyond what can be bought now. Lines take the product's current details.
 */
export function restoreCart(cart: CartItem[], result: BuyAgainResult): RestoreOutcome {
  const items = [...cart];
  const inCart: RestoreOutcome["inCart"] = [];
  for (const line of result.added) {
    const max = Math.min(line.maxQuantity, MAX_LINE_QUANTITY);
    const at = items.findIndex((i) => i.id === line.id);
    const have = at >= 0 ? items[at]!.quantity : 0;
    const quantity = Math.max(1, Math.min(Math.max(have, line.quantity), max));
    const item = cartItemOf(line, quantity);
    if (at >= 0) items[at] = item;
    else items.push(item);
    inCart.push({ name: line.name, quantity, notes: line.notes });
  }
  return { items, inCart, skipped: [...result.skipped] };
}
