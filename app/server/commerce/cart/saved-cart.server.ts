import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { CartItem } from "~/lib/cart";
import { firstImageUrl } from "~/lib/product";
import type { SavedCartAnswer } from "~/lib/saved-cart-view";
import { cartLines, type Db, orderItems, products } from "../../platform/index.server";
import { mergeCarts, type CartLineIn, type CartProductNow } from "./merge-carts.server";

/**
 * The cart of a signed-in shopper, kept on the server (docs/rules/after-sale.md, The cart of a
 * signed-in shopper). The browser saves its cart here as it changes (PUT), reads it back on each
 * start (GET), and merges this device's cart into it on signing in (POST).
 */

type ProductRow = CartProductNow & { priceCents: number; imageUrl: string | null };

async function productsNow(db: Db, ids: string[]): Promise<Map<string, ProductRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      active: products.active,
      unlimitedStock: products.unlimitedStock,
      stockQuantity: products.stockQuantity,
      priceCents: products.priceCents,
      imageUrl: products.imageUrl,
    })
    .from(products)
    .where(inArray(products.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The saved lines in the cart's order: each write stamps them a millisecond apart. */
async function savedLines(db: Db, userId: string): Promise<CartLineIn[]> {
  return db
    .select({ id: cartLines.productId, quantity: cartLines.quantity })
    .from(cartLines)
    .where(eq(cartLines.userId, userId))
    .orderBy(asc(cartLines.updatedAt), asc(cartLines.productId));
}

/** One shopper's cart is written by one request at a time (two tabs, two devices). */
async function lockCartOf(tx: Db, userId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`cart:${userId}`}, 0))`);
}

async function replaceLines(tx: Db, userId: string, lines: { id: string; quantity: number }[]) {
  await tx.delete(cartLines).where(eq(cartLines.userId, userId));
  if (lines.length === 0) return;
  const base = Date.now() - lines.length;
  await tx.insert(cartLines).values(lines.map((l, i) => ({ userId, productId: l.id, quantity: l.quantity, updatedAt: new Date(base + i) })));
}

function toItems(lines: { id: string; quantity: number }[], now: Map<string, ProductRow>): CartItem[] {
  return lines.map((l) => {
    const p = now.get(l.id)!;
    return {
      id: p.id,
      name: p.name,
      priceCents: p.priceCents,
      imageUrl: firstImageUrl(p.imageUrl),
      unlimitedStock: p.unlimitedStock,
      stockQuantity: p.stockQuantity,
      quantity: l.quantity,
    };
  });
}

/** The saved cart as the shop stands now (what can no longer be bought is reported, not returned). */
export async function readSavedCart(db: Db, userId: string): Promise<SavedCartAnswer> {
  const saved = await savedLines(db, userId);
  const now = await productsNow(db, saved.map((l) => l.id));
  const { lines, dropped } = mergeCarts(saved, [], now);
  return { items: toItems(lines, now), dropped };
}

/**
 * Saves the browser's cart in place of the saved one. Lines of products that no longer exist or
 * are inactive are not kept (the cart page tells the shopper about those itself).
 */
export async function saveCart(db: Db, userId: string, lines: { id: string; quantity: number }[]): Promise<{ saved: number }> {
  return db.transaction(async (tx) => {
    await lockCartOf(tx, userId);
    const now = await productsNow(tx, [...new Set(lines.map((l) => l.id))]);
    const kept = new Map<string, number>();
    for (const l of lines) if (now.get(l.id)?.active) kept.set(l.id, Math.max(kept.get(l.id) ?? 0, l.quantity));
    const rows = [...kept].map(([id, quantity]) => ({ id, quantity }));
    await replaceLines(tx, userId, rows);
    return { saved: rows.length };
  });
}

/** Signing in on this device: its cart and the saved one become one (mergeCarts), saved and returned. */
export async function mergeIntoSavedCart(db: Db, userId: string, local: CartLineIn[]): Promise<SavedCartAnswer> {
  return db.transaction(async (tx) => {
    await lockCartOf(tx, userId);
    const saved = await savedLines(tx, userId);
    const now = await productsNow(tx, [...new Set([...saved, ...local].map((l) => l.id))]);
    const { lines, dropped } = mergeCarts(saved, local, now);
    await replaceLines(tx, userId, lines);
    return { items: toItems(lines, now), dropped };
  });
}

/**
 * In the payment's transaction: what the shopper just bought leaves their saved cart, so another
 * device signing in does not bring it back (the paying device's own empty-cart save may never
 * arrive: a tab closed on the payment page). Only the order's products go; anything added since
 * stays. Under the shopper's cart lock, so a save in flight lands before and is cleared too.
 */
export async function clearBoughtFromSavedCart(tx: Db, userId: string, orderId: string): Promise<void> {
  await lockCartOf(tx, userId);
  await tx
    .delete(cartLines)
    .where(
      and(
        eq(cartLines.userId, userId),
        inArray(cartLines.productId, tx.select({ id: orderItems.productId }).from(orderItems).where(eq(orderItems.orderId, orderId))),
      ),
    );
}
