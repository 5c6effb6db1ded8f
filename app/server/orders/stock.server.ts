import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { orderItems, orders, products } from "../db/schema";
import { addOrderEvent } from "./events.server";

/**
 * Puts back the stock a paid order took, once (for an admin cancelling it). Only lines that took
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
    for (const line of lines) {
      if (!line.productId) continue;
      await tx
        .update(products)
        .set({ stockQuantity: sql`${products.stockQuantity} + ${line.quantity}`, updatedAt: new Date() })
        .where(and(eq(products.id, line.productId), eq(products.unlimitedStock, false)));
    }
    await tx.update(orders).set({ stockReleasedAt: new Date(), updatedAt: new Date() }).where(eq(orders.id, orderId));
    await addOrderEvent(tx, {
      orderId,
      kind: "status",
      note: `Stock returned: ${lines.reduce((n, l) => n + l.quantity, 0)} units`,
      actorUserId: actor.userId ?? null,
      actorLabel: actor.label ?? "system",
    });
    return true;
  });
}
