import type { CartItem } from "./cart";

/**
 * The cart of a signed-in shopper, saved on the server (docs/rules/after-sale.md, The cart of a
 * signed-in shopper): the shapes GET/PUT/POST /api/cart answer and the words that tell the
 * shopper what a merge could not keep. Plain TypeScript, no zod (the schemas are in saved-cart-input.ts).
 */

/** A saved cart holds at most this many lines (the checkout takes as many). */
export const MAX_SAVED_CART_LINES = 100;

/** Why a line did not come through a merge as it was. */
export type CartDropReason = "unavailable" | "out_of_stock" | "reduced" | "limit";

export type CartDrop = { id: string; name: string; reason: CartDropReason; /** For `reduced`: what the cart holds now. */ quantity?: number };

/** The saved cart as the shop sees it now, and what it could not keep. */
export type SavedCartAnswer = { items: CartItem[]; dropped: CartDrop[] };

/**
 * What GET and the merge answer: the cart, and whose it is. The pages carry no one's identity
 * (they are shared by every signed-in customer), so the device learns here whose cart it follows.
 */
export type SavedCartReply = SavedCartAnswer & { owner: string };

/** One sentence per change, the lines over the limit counted together. */
export function describeCartDrops(dropped: CartDrop[]): string[] {
  const out: string[] = [];
  let overLimit = 0;
  for (const d of dropped) {
    if (d.reason === "limit") overLimit++;
    else if (d.reason === "unavailable") out.push(`${d.name} is no longer available and was removed.`);
    else if (d.reason === "out_of_stock") out.push(`${d.name} is out of stock and was removed.`);
    else out.push(`${d.name}: only ${d.quantity} left, so your cart holds ${d.quantity}.`);
  }
  if (overLimit > 0) {
    out.push(
      `${overLimit === 1 ? "1 product was" : `${overLimit.toLocaleString("en-US")} products were`} left out: a cart holds at most ${MAX_SAVED_CART_LINES} products.`,
    );
  }
  return out;
}
