import { eq } from "drizzle-orm";
import { formatMoney } from "~/lib/money";
import type { BuyAgainResult } from "~/lib/shopper-order-view";
import { type Db, orderItems, orders } from "../../platform/index.server";
import { buyAgain } from "../orders/buy-again.server";
import { isCartRestoreToken } from "./reminder-links.server";

/**
 * The reminder's "Return to your cart" link (docs/rules/after-sale.md, The abandoned-checkout
 * reminder): the checkout's lines as the shop sells them now. Which lines can go back, at what
 * price and how many, is 'Buy again''s answer (orders/buy-again.server.ts, settlement's stock
 * rule); only the notes are reworded, since this checkout was never paid. Null for a link that is
 * not good: malformed, tampered, made for another order, or an order that does not exist — all
 * alike, so the link reveals nothing.
 */
export async function restorableCart(db: Db, orderNumber: unknown, token: unknown): Promise<BuyAgainResult | null> {
  if (typeof orderNumber !== "string" || orderNumber.length === 0 || orderNumber.length > 64) return null;
  if (typeof token !== "string" || token.length !== 43) return null;
  const [order] = await db
    .select({ id: orders.id, orderNumber: orders.orderNumber, email: orders.email })
    .from(orders)
    .where(eq(orders.orderNumber, orderNumber));
  if (!order || !isCartRestoreToken(order, token)) return null;

  const result = await buyAgain(db, order.id);
  const lines = await db
    .select({ productId: orderItems.productId, unitPriceCents: orderItems.unitPriceCents, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id));
  const wanted = new Map<string, { quantity: number; priceCents: number }>();
  for (const l of lines) {
    if (!l.productId) continue;
    const prev = wanted.get(l.productId);
    wanted.set(l.productId, { quantity: (prev?.quantity ?? 0) + l.quantity, priceCents: l.unitPriceCents });
  }
  return {
    skipped: result.skipped,
    added: result.added.map((line) => {
      const want = wanted.get(line.id);
      const notes: string[] = [];
      if (want && line.quantity < want.quantity) notes.push(`Only ${line.quantity} left in stock (your checkout had ${want.quantity}).`);
      if (want && line.priceCents !== want.priceCents) notes.push(`Now ${formatMoney(line.priceCents)} (it was ${formatMoney(want.priceCents)}).`);
      return { ...line, notes };
    }),
  };
}
