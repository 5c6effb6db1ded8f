import { orderItems } from "~/server/platform/db/schema";
import type { Db } from "~/server/platform/db/client.server";
import { makeOrder } from "../factories/account-orders";
import { makeCustomer, requestAs } from "../factories/users";
import { args } from "./route-args";

type Product = { id: string; name: string; priceCents: number };

/** An order of the user's with one line for the product; paid and processing unless overridden. */
export async function orderFor(
  db: Db,
  userId: string,
  product: Product,
  overrides: { paymentStatus?: "unpaid" | "paid" | "refunded"; status?: "pending" | "processing" | "cancelled" | "shipped" } = {},
) {
  const paid = (overrides.paymentStatus ?? "paid") !== "unpaid";
  const order = await makeOrder(db, {
    userId,
    paymentStatus: overrides.paymentStatus ?? "paid",
    status: overrides.status ?? (paid ? "processing" : "pending"),
    paidAt: paid ? new Date() : null,
    subtotalCents: product.priceCents,
    totalAmountCents: product.priceCents,
  });
  await db.insert(orderItems).values({
    orderId: order.id,
    productId: product.id,
    name: product.name,
    unitPriceCents: product.priceCents,
    quantity: 1,
    lineTotalCents: product.priceCents,
  });
  return order;
}

/** A signed-in customer with a paid order for the product. */
export async function verifiedBuyer(db: Db, product: Product, name?: { firstName: string; lastName: string }) {
  const customer = await makeCustomer(db, name);
  await orderFor(db, customer.id, product);
  return customer;
}

/** A review form posted to /product/:id as `as` (anonymous when null). */
export async function reviewRequest(db: Db, as: { id: string } | null, productId: string, fields: Record<string, string>) {
  const request = await requestAs(db, as, `/product/${productId}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  return args(request, { id: productId });
}

/** React Router's data() unwrapped into status and body (a plain object is a 200). */
export function unwrap<T = any>(result: unknown): { status: number; body: T } {
  const r = result as { init?: { status?: number }; data?: unknown; type?: string };
  if (r && typeof r === "object" && r.type === "DataWithResponseInit") return { status: r.init?.status ?? 200, body: r.data as T };
  return { status: 200, body: result as T };
}
