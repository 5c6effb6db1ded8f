import { and, asc, eq, gte, isNull, sql } from "drizzle-orm";
import { MAX_LINE_QUANTITY } from "~/lib/cart";
import type { LineProblem } from "~/lib/pricing-view";
import { type Db, orderItems, orders } from "../../platform/index.server";
import { giveBackProductUnits, takeProductUnits, type LowStockAlert } from "../../catalog/index.server";
import { addOrderEvent } from "../orders/events.server";
import { unitsComeBack } from "./refunds.server";

/**
 * The shop's stock rules, in one place: whether a cart line can be bought (the cart page and the
 * checkout ask here), taking stock when a payment is confirmed, and giving it back when a paid
 * order is cancelled. The product rows themselves are the catalogue's: stock is taken and given
 * back by asking it (docs/decisions/0004).
 */

export type StockedProduct = { active: boolean; unlimitedStock: boolean; stockQuantity: number };

export type LineVerdict = { problem: LineProblem | null; maxQuantity: number };

/** Whether `quantity` of a product can be bought now, and the most a cart may hold of it. */
export function judgeLine(product: StockedProduct | undefined, quantity: number): LineVerdict {
  if (!product || !product.active) return { problem: "unavailable", maxQuantity: 0 };
  if (product.unlimitedStock) return { problem: null, maxQuantity: MAX_LINE_QUANTITY };
  const maxQuantity = Math.max(0, Math.min(MAX_LINE_QUANTITY, product.stockQuantity));
  if (product.stockQuantity <= 0) return { problem: "out_of_stock", maxQuantity };
  if (product.stockQuantity < quantity) return { problem: "short", maxQuantity };
  return { problem: null, maxQuantity };
}

type StockLine = Pick<typeof orderItems.$inferSelect, "id" | "productId" | "name" | "quantity">;

export type TakenStock = {
  /** Lines whose stock was taken (counted products). */
  taken: string[];
  /** Lines of unlimited-stock products: nothing to take. */
  untracked: string[];
  /** Names of lines that could not be served; when any, nothing was taken. */
  short: string[];
  /**
   * Products this sale took to or below their low-stock threshold, marked alerted in this
   * transaction: the caller records the shop's mail about each in it too (queueLowStockAlerts).
   */
  lowStock: LowStockAlert[];
};

class Shortfall extends Error {}

/**
 * Inside the payment's transaction: takes every line's stock with a conditional UPDATE (never
 * below zero), in product order so two confirmations never deadlock. All or nothing: when a line
 * cannot be served, the lines already taken roll back to a savepoint.
 */
export async function takeOrderStock(tx: Db, lines: StockLine[]): Promise<TakenStock> {
  // Code-unit order of the lower-case ids is PostgreSQL's uuid order, as releaseOrderStock uses.
  const key = (l: StockLine) => l.productId ?? "";
  const sorted = [...lines].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const result: TakenStock = { taken: [], untracked: [], short: [], lowStock: [] };
  try {
    await tx.transaction(async (sp) => {
      for (const line of sorted) {
        if (!line.productId) {
          result.short.push(line.name);
          continue;
        }
        const took = await takeProductUnits(sp, line.productId, line.quantity);
        if (took.taken) {
          result.taken.push(line.id);
          if (took.lowStock) result.lowStock.push(took.lowStock);
        } else if (took.unlimited) result.untracked.push(line.id);
        else result.short.push(line.name);
      }
      if (result.short.length) throw new Shortfall();
    });
  } catch (err) {
    if (!(err instanceof Shortfall)) throw err;
    // Rolled back with the savepoint: no stock taken, so no product was marked alerted either.
    return { taken: [], untracked: [], short: result.short, lowStock: [] };
  }
  return result;
}

/**
 * Puts back the stock a paid order took, once (a cancelled paid order). Only lines that took
 * stock (`stock_tracked`) count; unpaid orders never took any. False when unpaid or already released.
 */
export async function releaseOrderStock(db: Db, orderId: string, actor: { userId?: string | null; label?: string } = {}) {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order || !order.paidAt || order.stockReleasedAt) return false;
    const lines = await tx
      .select()
      .from(orderItems)
      .where(and(eq(orderItems.orderId, orderId), eq(orderItems.stockTracked, true)))
      .orderBy(asc(orderItems.productId));
    // Units a refund or a return already restocked or wrote off are not given back again.
    const comeBack = await unitsComeBack(tx, orderId);
    let units = 0;
    for (const line of lines) {
      const quantity = line.quantity - (comeBack.get(line.id) ?? 0);
      if (quantity <= 0) continue;
      units += quantity;
      if (line.productId) await giveBackProductUnits(tx, line.productId, quantity);
    }
    await tx.update(orders).set({ stockReleasedAt: new Date(), updatedAt: new Date() }).where(eq(orders.id, orderId));
    await addOrderEvent(tx, {
      orderId,
      kind: "status",
      note: `Stock returned: ${units} units`,
      actorUserId: actor.userId ?? null,
      actorLabel: actor.label ?? "system",
    });
    return true;
  });
}
