import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { CHECKOUT_MESSAGES, type CheckoutErrorBody } from "~/lib/checkout";
import { formatMoney } from "~/lib/money";
import { firstImageUrl } from "~/lib/product";
import type { Db } from "../db/client.server";
import { orderItems, orders } from "../db/schema";
import { logger } from "../logger.server";
import { closeUnpaidOrder, confirmPayment } from "../orders/confirm.server";
import { addOrderEvent } from "../orders/events.server";
import { newOrderNumber } from "../orders/order-number.server";
import { CHECKOUT_SESSION_ID_PLACEHOLDER, type PaymentProvider, type RemoteSession } from "../payments/index.server";
import { loadCartProducts } from "./cart-products.server";
import type { CheckoutInput } from "./parse-request.server";

/** Stripe's ceiling for one USD payment ($999,999.99), well inside an integer column. */
export const MAX_ORDER_TOTAL_CENTS = 99_999_999;

export type CheckoutResult =
  | { ok: true; url: string; orderId: string; orderNumber: string; sessionId: string }
  | { ok: false; status: 400 | 409 | 502; body: CheckoutErrorBody };

type Ctx = { userId: string | null; provider: PaymentProvider; baseUrl: string };

const failed = (status: 400 | 409 | 502, error: string, extra: Partial<CheckoutErrorBody> = {}): CheckoutResult => ({
  ok: false,
  status,
  body: { title: CHECKOUT_MESSAGES.checkoutFailed.title, error, ...extra },
});

/**
 * Turns a cart into a pending, unpaid order and opens its payment session (DESIGN "Money flow").
 * Only ids and quantities are taken from the browser: products are reloaded and priced here.
 * A resubmitted idempotency key returns the order it already made instead of a second one.
 */
export async function createCheckout(db: Db, input: CheckoutInput, ctx: Ctx): Promise<CheckoutResult> {
  if (input.idempotencyKey) {
    const [existing] = await db.select().from(orders).where(eq(orders.checkoutKey, input.idempotencyKey));
    if (existing) {
      const resumed = await resume(db, existing, ctx.provider);
      if (resumed) return resumed;
      // That order was paid, declined or lapsed: this submission is a new purchase, so the key moves to it.
      await db
        .update(orders)
        .set({ checkoutKey: null })
        .where(and(eq(orders.id, existing.id), eq(orders.checkoutKey, input.idempotencyKey)));
    }
  }

  const found = await loadCartProducts(db, input.lines.map((l) => l.id));
  const byId = new Map(found.map((p) => [p.id, p]));

  const problems: { id: string; message: string }[] = [];
  const priced = [];
  for (const line of input.lines) {
    const product = byId.get(line.id);
    if (!product || !product.active) {
      const name = product?.name ?? line.name?.trim().slice(0, 100);
      problems.push({ id: line.id, message: name ? `"${name}" is no longer available.` : "A product in your cart is no longer available." });
      continue;
    }
    const name = `"${product.name}"`;
    if (!product.unlimitedStock && product.stockQuantity <= 0) {
      problems.push({ id: line.id, message: `${name} is out of stock.` });
    } else if (!product.unlimitedStock && product.stockQuantity < line.quantity) {
      problems.push({ id: line.id, message: `Only ${product.stockQuantity} of ${name} left in stock.` });
    } else if (line.priceCents !== undefined && line.priceCents !== product.priceCents) {
      problems.push({
        id: line.id,
        message: `The price of ${name} is ${formatMoney(product.priceCents)}, not ${formatMoney(line.priceCents)}. Review your cart and try again.`,
      });
    }
    priced.push({ line, product });
  }
  if (problems.length) return failed(400, problems.map((p) => p.message).join(" "), { problems });

  const lines = priced.map(({ line, product }) => ({
    productId: product.id,
    name: product.name,
    imageUrl: firstImageUrl(product.imageUrl),
    unitPriceCents: product.priceCents,
    quantity: line.quantity,
    lineTotalCents: product.priceCents * line.quantity,
    stockTracked: !product.unlimitedStock,
  }));
  const subtotalCents = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  // SPEC §9: shipping is always free and tax is $0.00.
  const totalAmountCents = subtotalCents;
  if (totalAmountCents > MAX_ORDER_TOTAL_CENTS) {
    return failed(400, `An order can total at most ${formatMoney(MAX_ORDER_TOTAL_CENTS)}. Remove some items and try again.`);
  }

  const order = await insertOrder(db, input, ctx, { lines, subtotalCents, totalAmountCents });
  if (!order) {
    // Another request with the same key won the race; answer as if this one had been the retry.
    const [existing] = await db.select().from(orders).where(eq(orders.checkoutKey, input.idempotencyKey!));
    return (existing && (await resume(db, existing, ctx.provider))) || failed(409, "This checkout is already being processed.");
  }

  let session: { id: string; url: string };
  try {
    session = await ctx.provider.createSession(
      { id: order.id, orderNumber: order.orderNumber, email: order.email, currency: order.currency, totalAmountCents, lines },
      {
        successUrl: `${ctx.baseUrl}/order-success?session_id=${CHECKOUT_SESSION_ID_PLACEHOLDER}`,
        cancelUrl: `${ctx.baseUrl}/cart?checkout=cancelled`,
      },
      { idempotencyKey: `checkout-${order.id}` },
    );
  } catch (err) {
    logger.error({ err: (err as Error).message, orderId: order.id }, "payment session could not be opened");
    await closeUnpaidOrder(db, order.id, "failed", ctx.provider.name);
    return failed(502, CHECKOUT_MESSAGES.checkoutFailed.description);
  }
  const [saved] = await db
    .update(orders)
    .set({ paymentSessionId: session.id, updatedAt: new Date() })
    .where(eq(orders.id, order.id))
    .returning({ status: orders.status, paymentStatus: orders.paymentStatus });
  if (saved?.status !== "pending" || saved.paymentStatus !== "unpaid") {
    // The order was closed while its payment page opened (an admin cancelled it): that page must
    // not take money. Closed at the provider; a payment that got in first is found and refunded.
    await ctx.provider.expireSession(session.id).catch((err: Error) => {
      logger.error({ err: err.message, orderId: order.id }, "payment session of a closed order could not be closed");
    });
    await confirmPayment(db, session.id, { provider: ctx.provider });
    return failed(409, CHECKOUT_MESSAGES.checkoutFailed.description);
  }
  return { ok: true, url: session.url, orderId: order.id, orderNumber: order.orderNumber, sessionId: session.id };
}

type Priced = {
  lines: Omit<typeof orderItems.$inferInsert, "orderId">[];
  subtotalCents: number;
  totalAmountCents: number;
};

/** The order and its line snapshots in one transaction; null when the idempotency key is taken. */
async function insertOrder(db: Db, input: CheckoutInput, ctx: Ctx, priced: Priced) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        const [order] = await tx
          .insert(orders)
          .values({
            userId: ctx.userId,
            orderNumber: newOrderNumber(),
            status: "pending",
            paymentStatus: "unpaid",
            subtotalCents: priced.subtotalCents,
            shippingCents: 0,
            taxCents: 0,
            totalAmountCents: priced.totalAmountCents,
            email: input.form.email,
            firstName: input.form.firstName,
            lastName: input.form.lastName,
            phone: input.form.phone,
            address: input.form.address,
            city: input.form.city,
            state: input.form.state,
            zipCode: input.form.zipCode,
            country: input.form.country,
            paymentProvider: ctx.provider.name,
            checkoutKey: input.idempotencyKey,
          })
          .returning();
        await tx.insert(orderItems).values(priced.lines.map((l) => ({ ...l, orderId: order!.id })));
        await addOrderEvent(tx, {
          orderId: order!.id,
          kind: "status",
          toStatus: "pending",
          note: "Order placed",
          actorUserId: ctx.userId,
          actorLabel: ctx.userId ? "customer" : "guest",
        });
        return order!;
      });
    } catch (err) {
      const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
      const code = e.code ?? e.cause?.code;
      const constraint = e.constraint ?? e.cause?.constraint ?? "";
      if (code !== "23505") throw err;
      if (constraint.includes("checkout_key")) return null;
      // Two orders drew the same number the same day: draw again.
      if (attempt >= 5) throw err;
    }
  }
}

/** Longer than the Stripe SDK can take to open a session (20 s, retried twice). */
export const SESSION_OPEN_LIMIT_MS = 2 * 60_000;

/**
 * An order whose payment session was never opened, well after it should have been (its server
 * was killed mid-checkout): cancelled, so its idempotency key and the shopper can try again.
 */
export async function closeInterruptedCheckout(db: Db, order: Pick<typeof orders.$inferSelect, "id" | "createdAt" | "paymentSessionId">, now = Date.now()) {
  if (order.paymentSessionId || now - order.createdAt.getTime() < SESSION_OPEN_LIMIT_MS) return false;
  // Checked again under the order's lock, by the database's clock: the session may have been
  // saved since, and this server's clock may run ahead of the one that stamped created_at.
  const stillInterrupted = and(
    isNull(orders.paymentSessionId),
    lt(orders.createdAt, sql`now() - make_interval(secs => ${SESSION_OPEN_LIMIT_MS / 1000})`),
  );
  return closeUnpaidOrder(db, order.id, "failed", "system", "The checkout was interrupted before its payment page opened", stillInterrupted);
}

/**
 * A resubmission while its order is still open: the same payment page again (a double click, two
 * tabs, a retry after a lost answer). null when that order is settled and a new one may be made.
 */
async function resume(db: Db, found: typeof orders.$inferSelect, provider: PaymentProvider): Promise<CheckoutResult | null> {
  let order = found;
  // The first submission is still opening its payment session: wait for it briefly, then share it.
  const mayStillOpen = () => Date.now() - order.createdAt.getTime() < SESSION_OPEN_LIMIT_MS;
  for (let i = 0; i < 25 && !order.paymentSessionId && order.paymentStatus === "unpaid" && mayStillOpen(); i++) {
    await new Promise((r) => setTimeout(r, 200));
    const [again] = await db.select().from(orders).where(eq(orders.id, order.id));
    if (!again) return null;
    order = again;
  }
  if (order.paymentStatus !== "unpaid" || order.status === "cancelled") return null;
  if (!order.paymentSessionId) {
    // Long past any provider's time to open a session: the server that made it died on the way.
    if (!(await closeInterruptedCheckout(db, order))) return failed(409, "This checkout is already being processed.");
    return null;
  }
  const sessionId = order.paymentSessionId;
  let remote: RemoteSession | null;
  try {
    remote = await provider.retrieveSession(sessionId);
  } catch (err) {
    // Unknown whether that page can still be paid: a second order now could be paid twice.
    logger.error({ err: (err as Error).message, orderId: order.id }, "payment session of a resubmitted checkout could not be read");
    return failed(502, CHECKOUT_MESSAGES.checkoutFailed.description);
  }
  if (remote?.state === "paid") {
    // Paid, and its confirmation has not arrived yet: settle it now. This cart is bought.
    await confirmPayment(db, sessionId, { provider });
    return failed(409, "This order has already been paid.");
  }
  if (remote?.state === "open") {
    // Open without a page: a bank payment is on its way.
    if (!remote.url) return failed(409, "This checkout is already being processed.");
    return { ok: true, url: remote.url, orderId: order.id, orderNumber: order.orderNumber, sessionId };
  }
  // Declined, lapsed or unknown to the provider: close the old order now; a new one may be made.
  if (remote) await confirmPayment(db, sessionId, { provider });
  return null;
}
