import { desc, eq } from "drizzle-orm";
import type { AccountOrder } from "~/lib/accounts-view";
import { type Db, orders } from "../../platform/index.server";
import { orderMoneyColumns } from "./order-money.server";

/** The person's own orders, newest first (docs/rules/accounts.md, Account page). */
export async function listOrdersOfUser(db: Db, userId: string, limit = 100): Promise<AccountOrder[]> {
  const rows = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      createdAt: orders.createdAt,
      status: orders.status,
      ...orderMoneyColumns,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.orderNumber))
    .limit(limit);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}
