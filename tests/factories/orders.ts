import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { checkoutRefusalBody, type CheckoutForm, type CheckoutLine } from "~/lib/checkout";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import type { Db } from "~/server/platform/db/client.server";
import { orderEvents, orderItems, orders, products } from "~/server/platform/db/schema";
import { getPaymentProvider, type PaymentProvider } from "~/server/commerce/payments/index.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";

/** A complete, valid shipping form; override any field. */
export function shippingForm(overrides: Partial<CheckoutForm> = {}): CheckoutForm {
  return {
    firstName: "Casey",
    lastName: "Buyer",
    email: `buyer-${randomBytes(4).toString("hex")}@example.test`,
    phone: "",
    address: "1 Linen Lane",
    city: "Springfield",
    state: "IL",
    zipCode: "62701",
    country: "US",
    ...overrides,
  };
}

type LineProduct = { id: string; name: string; priceCents: number };

/** Cart lines as the checkout page posts them: id, quantity, and the price the cart shows. */
export const cartLines = (...lines: [LineProduct, number][]): CheckoutLine[] =>
  lines.map(([p, quantity]) => ({ id: p.id, quantity, priceCents: p.priceCents, name: p.name }));

/** POST /api/checkout as a browser would send it (JSON unless `body` is already a string). */
export function checkoutRequest(body: unknown, opts: { ip?: string; cookie?: string; contentType?: string } = {}) {
  const headers = new Headers({ "content-type": opts.contentType ?? "application/json" });
  headers.set("x-shop-client-ip", opts.ip ?? `198.51.100.${Math.floor(Math.random() * 250) + 1}`);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  return new Request("http://localhost:3000/api/checkout", {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** POST /api/verify-payment `{ session_id }`. */
export function verifyRequest(sessionId: unknown, ip = "203.0.113.50") {
  return new Request("http://localhost:3000/api/verify-payment", {
    method: "POST",
    headers: { "content-type": "application/json", "x-shop-client-ip": ip },
    body: JSON.stringify({ session_id: sessionId }),
  });
}

/** Route arguments for calling a loader or action directly. */
export const routeArgs = <T,>(request: Request, params: Record<string, string> = {}) =>
  ({ request, params, context: {}, url: new URL(request.url), pattern: "" }) as unknown as T;

/**
 * A pending order with its payment session, made by the real checkout (products reloaded and
 * priced by the server). The test provider unless another is given.
 */
export async function openCheckout(
  db: Db,
  lines: [LineProduct, number][],
  opts: { provider?: PaymentProvider; userId?: string | null; form?: Partial<CheckoutForm>; key?: string } = {},
) {
  const result = await createCheckout(
    db,
    { lines: cartLines(...lines), form: shippingForm(opts.form), idempotencyKey: opts.key ?? null },
    { userId: opts.userId ?? null, providers: onlyProvider(opts.provider ?? getPaymentProvider(db, "test")), baseUrl: "http://localhost:3000" },
  );
  if (!result.ok) throw new Error(`checkout refused: ${checkoutRefusalBody(result.refusal).error}`);
  return result;
}

export async function orderBySession(db: Db, sessionId: string) {
  const [order] = await db.select().from(orders).where(eq(orders.paymentSessionId, sessionId));
  return order!;
}

export async function orderLines(db: Db, orderId: string) {
  return db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
}

export async function orderTimeline(db: Db, orderId: string) {
  return db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(orderEvents.createdAt);
}

export async function stockOf(db: Db, productId: string) {
  const [p] = await db.select({ stock: products.stockQuantity }).from(products).where(eq(products.id, productId));
  return p!.stock;
}

export async function countOrders(db: Db) {
  return (await db.select({ id: orders.id }).from(orders)).length;
}
