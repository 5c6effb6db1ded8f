import { eq } from "drizzle-orm";
import { action as orderAction, loader as orderLoader } from "~/routes/admin/orders/order";
import type { Db } from "~/server/platform/db/client.server";
import { mailOutbox, orders, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { openCheckout } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { requestAs } from "../factories/users";
import { args, get, settle } from "./admin-catalog-helpers";

/** A paid order (through the real checkout and the test provider) for `quantity` units of a fresh product. */
export async function paidOrder(db: Db, opts: { stock?: number; quantity?: number; userId?: string | null; priceCents?: number } = {}) {
  const product = await makeProduct(db, { stockQuantity: opts.stock ?? 10, priceCents: opts.priceCents ?? 2500 });
  const checkout = await openCheckout(db, [[product, opts.quantity ?? 2]], { userId: opts.userId ?? null });
  await db
    .update(testPaymentSessions)
    .set({ status: "paid", paymentReference: `test_pi_${checkout.orderId.slice(0, 8)}` })
    .where(eq(testPaymentSessions.id, checkout.sessionId));
  const outcome = await confirmPayment(db, checkout.sessionId);
  if (outcome.state !== "paid") throw new Error(`payment not confirmed: ${outcome.state}`);
  return { product, orderId: checkout.orderId, sessionId: checkout.sessionId };
}

/** An unpaid (pending) order through the real checkout. */
export async function unpaidOrder(db: Db, opts: { userId?: string | null } = {}) {
  const product = await makeProduct(db, { stockQuantity: 10 });
  const checkout = await openCheckout(db, [[product, 1]], { userId: opts.userId ?? null });
  return { product, orderId: checkout.orderId, sessionId: checkout.sessionId };
}

export async function orderRow(db: Db, orderId: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row!;
}

/** Posts the order page's status form as `as` would. */
export async function moveOrder(
  db: Db,
  as: { id: string } | null,
  idOrNumber: string,
  fields: { to: string; version: number | string; trackingNumber?: string; refund?: "yes"; intent?: string },
) {
  const body = new URLSearchParams({ intent: fields.intent ?? "status", to: fields.to, version: String(fields.version) });
  if (fields.trackingNumber !== undefined) body.set("trackingNumber", fields.trackingNumber);
  if (fields.refund) body.set("refund", fields.refund);
  const request = await requestAs(db, as, `/admin/orders/${idOrNumber}`, { method: "POST", body });
  return settle(() => orderAction(args(request, { id: idOrNumber })));
}

/** Moves the order as the admin, from the version it has now. */
export async function moveNow(db: Db, admin: { id: string }, orderId: string, to: string, extra: { trackingNumber?: string; refund?: "yes" } = {}) {
  return moveOrder(db, admin, orderId, { to, version: (await orderRow(db, orderId)).version, ...extra });
}

export const openOrderPage = (db: Db, as: { id: string } | null, idOrNumber: string) =>
  get(db, orderLoader, as, `/admin/orders/${idOrNumber}`, { id: idOrNumber });

export async function mailsTo(db: Db, to: string) {
  return db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(mailOutbox.createdAt);
}
