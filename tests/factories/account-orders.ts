import { randomBytes } from "node:crypto";
import type { Db } from "~/server/platform/db/client.server";
import { orders } from "~/server/platform/db/schema";

export type OrderRow = typeof orders.$inferSelect;

/**
 * An order row inserted directly (no checkout, no lines), for pages that list orders. Unique
 * order number; $25.00 pending unpaid unless overridden.
 */
export async function makeOrder(db: Db, overrides: Partial<typeof orders.$inferInsert> = {}): Promise<OrderRow> {
  const [row] = await db
    .insert(orders)
    .values({
      orderNumber: `ORD-TEST-${randomBytes(4).toString("hex").toUpperCase()}`,
      status: "pending",
      paymentStatus: "unpaid",
      subtotalCents: overrides.totalAmountCents ?? 2500,
      totalAmountCents: 2500,
      email: "shopper@example.test",
      firstName: "Casey",
      lastName: "Customer",
      address: "1 Test Street",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      ...overrides,
    })
    .returning();
  return row!;
}
