import { randomBytes } from "node:crypto";
import type { Db } from "~/server/platform/db/client.server";
import { orderItems, orders } from "~/server/platform/db/schema";
import type { ProductRow } from "./products";

/** A line: its product (null: a product deleted since), quantity, unit price, and its share of the order discount. */
export type SoldLine = [product: ProductRow | null, quantity: number, unitCents: number, discountShareCents?: number];

export type SoldOrder = {
  email: string;
  /** Paid at this instant (ISO): paid and processing unless told otherwise. Without it, unpaid and pending. */
  paidAt?: string;
  paymentStatus?: "unpaid" | "paid" | "failed" | "expired" | "refunded";
  status?: "pending" | "processing" | "shipped" | "completed" | "cancelled";
  lines: SoldLine[];
  shippingCents?: number;
  taxCents?: number;
  discountCode?: string;
};

/**
 * An order inserted as it stands, with its lines in the same transaction (the way a bulk import
 * or a paid order arriving whole would), for the sales figures. Total = lines − discount +
 * shipping + tax.
 */
export async function placeOrder(db: Db, spec: SoldOrder) {
  const subtotal = spec.lines.reduce((s, [, q, u]) => s + q * u, 0);
  const discount = spec.lines.reduce((s, [, , , d = 0]) => s + d, 0);
  const shipping = spec.shippingCents ?? 0;
  const tax = spec.taxCents ?? 0;
  return db.transaction(async (tx) => {
    const [order] = await tx
      .insert(orders)
      .values({
        orderNumber: `T-${randomBytes(5).toString("hex")}`,
        status: spec.status ?? (spec.paymentStatus === "paid" || spec.paidAt ? "processing" : "pending"),
        paymentStatus: spec.paymentStatus ?? (spec.paidAt ? "paid" : "unpaid"),
        paidAt: spec.paidAt ? new Date(spec.paidAt) : null,
        subtotalCents: subtotal,
        discountCents: discount,
        discountCode: spec.discountCode ?? null,
        shippingCents: shipping,
        taxCents: tax,
        totalAmountCents: subtotal - discount + shipping + tax,
        email: spec.email,
        firstName: "Test",
        lastName: "Shopper",
        address: "1 Linen Lane",
        city: "Springfield",
        state: "IL",
        zipCode: "62701",
        createdAt: spec.paidAt ? new Date(spec.paidAt) : undefined,
      })
      .returning();
    if (spec.lines.length) {
      await tx.insert(orderItems).values(
        spec.lines.map(([p, quantity, unit, share = 0]) => ({
          orderId: order!.id,
          productId: p?.id ?? null,
          name: p?.name ?? "Old Blanket",
          unitPriceCents: unit,
          quantity,
          lineTotalCents: quantity * unit,
          discountCents: share,
        })),
      );
    }
    return order!;
  });
}
