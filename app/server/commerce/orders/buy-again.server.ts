import { eq } from "drizzle-orm";
import type { BuyAgainLine, BuyAgainResult } from "~/lib/shopper-order-view";
import { formatMoney } from "~/lib/money";
import { firstImageUrl } from "~/lib/product";
import { type Db, orderItems } from "../../platform/index.server";
import { loadCartProducts } from "../checkout/cart-products.server";
import { judgeLine } from "../settlement/stock.server";

/**
 * 'Buy again' (docs/rules/after-sale.md, The shopper's order page): the order's lines as the
 * shop sells them now. A line goes back in the cart when its product is still for sale and in
 * stock, at today's price, capped by the stock (the stock rule is settlement's judgeLine, as the
 * cart and checkout use it); every other line is named with the reason. The caller has already
 * checked that the viewer may see this order.
 */
export async function buyAgain(db: Db, orderId: string): Promise<BuyAgainResult> {
  const lines = await db
    .select({ productId: orderItems.productId, name: orderItems.name, unitPriceCents: orderItems.unitPriceCents, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.name, orderItems.id);

  // One line per product, in the order's order (an order normally has one already).
  const wanted = new Map<string, { name: string; paidCents: number; quantity: number }>();
  const skipped: BuyAgainResult["skipped"] = [];
  for (const l of lines) {
    if (!l.productId) {
      skipped.push({ name: l.name, reason: `"${l.name}" is no longer sold.` });
      continue;
    }
    const prev = wanted.get(l.productId);
    wanted.set(l.productId, { name: l.name, paidCents: l.unitPriceCents, quantity: (prev?.quantity ?? 0) + l.quantity });
  }

  const products = new Map((await loadCartProducts(db, [...wanted.keys()])).map((p) => [p.id, p]));
  const added: BuyAgainLine[] = [];
  for (const [id, want] of wanted) {
    const product = products.get(id);
    const verdict = judgeLine(product, want.quantity);
    if (!product || verdict.problem === "unavailable") {
      skipped.push({ name: want.name, reason: `"${product?.name ?? want.name}" is no longer available.` });
      continue;
    }
    if (verdict.problem === "out_of_stock") {
      skipped.push({ name: product.name, reason: `"${product.name}" is out of stock.` });
      continue;
    }
    const quantity = Math.min(want.quantity, verdict.maxQuantity);
    const notes: string[] = [];
    if (quantity < want.quantity) notes.push(`Only ${quantity} left in stock (you ordered ${want.quantity}).`);
    if (product.priceCents !== want.paidCents) notes.push(`Now ${formatMoney(product.priceCents)} (you paid ${formatMoney(want.paidCents)}).`);
    added.push({
      id: product.id,
      name: product.name,
      priceCents: product.priceCents,
      imageUrl: firstImageUrl(product.imageUrl),
      unlimitedStock: product.unlimitedStock,
      stockQuantity: product.stockQuantity,
      quantity,
      maxQuantity: verdict.maxQuantity,
      notes,
    });
  }
  return { added, skipped };
}
