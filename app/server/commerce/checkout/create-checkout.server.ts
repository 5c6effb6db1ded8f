import { and, eq } from "drizzle-orm";
import { mergeCartLines } from "~/lib/cart-lines";
import type { CartProblem, CheckoutRefusal } from "~/lib/checkout";
import type { Quote } from "~/lib/pricing-view";
import { regionCode, regionMayBeBlank } from "~/lib/regions";
import { type Db, orderItems, orders } from "../../platform/index.server";
import { addOrderEvent } from "../orders/events.server";
import { newOrderNumber } from "../orders/order-number.server";
import { SESSION_OPEN_LIMIT_MS } from "../settlement/close.server";
import { shopProviders, type Providers } from "../settlement/providers.server";
import { newCheckoutProviderName, openPaymentSession, reviewOpenCheckout } from "../settlement/sessions.server";
import { DiscountUnavailable, holdDiscountUse } from "../discounts/uses.server";
import { minimumChargeCents } from "../payments/minimum-charge.server";
import { reviewCart, type CartReviewResult } from "./cart-review.server";
import { completeWithoutPayment, freeSessionId } from "./free-order.server";
import type { CheckoutInput } from "./parse-request.server";

/** Stripe's ceiling for one USD payment ($999,999.99), well inside an integer column. */
export const MAX_ORDER_TOTAL_CENTS = 99_999_999;

export type CheckoutResult =
  | { ok: true; url: string; orderId: string; orderNumber: string; sessionId: string }
  | { ok: false; refusal: CheckoutRefusal };

type Ctx = { userId: string | null; baseUrl: string; providers?: Providers };

const refuse = (refusal: CheckoutRefusal): CheckoutResult => ({ ok: false, refusal });

/**
 * Turns a cart into a pending, unpaid order at the server's quote, then asks settlement to open
 * its payment page (docs/money-path.md). Only ids and quantities are taken from the browser. A
 * resubmitted idempotency key returns the order it already made instead of a second one.
 */
export async function createCheckout(db: Db, input: CheckoutInput, ctx: Ctx): Promise<CheckoutResult> {
  const providers = ctx.providers ?? shopProviders(db);
  if (input.idempotencyKey) {
    const [existing] = await db.select().from(orders).where(eq(orders.checkoutKey, input.idempotencyKey));
    if (existing) {
      const resumed = await resume(db, existing, providers, ctx.baseUrl);
      if (resumed) return resumed;
      // That order was paid, declined or lapsed: this submission is a new purchase, so the key moves to it.
      await db
        .update(orders)
        .set({ checkoutKey: null })
        .where(and(eq(orders.id, existing.id), eq(orders.checkoutKey, input.idempotencyKey)));
    }
  }

  // The region as its ISO 3166-2 code; a name or an abbreviation is read as one, anything else
  // refused. Left empty where the country allows it (the UK), pricing says whether it was needed.
  const blank = !input.form.state?.trim() && regionMayBeBlank(input.form.country);
  const state = blank ? "" : regionCode(input.form.country, input.form.state);
  if (state === null) return refuse({ kind: "no_region" });
  // One line per product under its canonical id (the parser did this already for what a browser sends).
  input = { ...input, lines: mergeCartLines(input.lines), form: { ...input.form, state } };

  const review = await reviewCart(db, input.lines, {
    destination: { country: input.form.country, state: input.form.state, zipCode: input.form.zipCode },
    code: input.discountCode,
    rateId: input.shippingRateId,
    email: input.form.email,
  });
  const problems: CartProblem[] = [];
  // Each line has its one reviewed line under its canonical id.
  const reviewed = new Map(review.lines.map((l) => [l.id, l]));
  input.lines.forEach((line) => {
    const seen = reviewed.get(line.id)!;
    if (!seen.available) {
      problems.push({ id: line.id, problem: "unavailable", name: review.withdrawnNames.get(line.id) ?? (line.name?.trim().slice(0, 100) || null) });
    } else if (seen.problem === "out_of_stock" || seen.problem === "short") {
      problems.push({ id: line.id, problem: seen.problem, name: seen.name, stockQuantity: seen.stockQuantity });
    } else if (line.priceCents !== undefined && line.priceCents !== seen.priceCents) {
      problems.push({ id: line.id, problem: "price_changed", name: seen.name, priceCents: seen.priceCents, cartPriceCents: line.priceCents });
    }
  });
  if (problems.length) return refuse({ kind: "cart_problems", problems });
  if (review.discount && !review.discount.applied) return refuse({ kind: "discount_refused", message: review.discount.message });
  if (review.regionMissing) return refuse({ kind: "no_region" });
  if (review.shipping.state === "unavailable") return refuse({ kind: "no_shipping", message: review.shipping.message });
  const { quote } = review;
  // As a changed unit price is refused above: shipping or tax the page did not show is never charged unseen.
  const changed = quoteChanges(input, quote);
  if (changed) return refuse(changed);
  if (quote.totalCents > MAX_ORDER_TOTAL_CENTS) return refuse({ kind: "too_large", limitCents: MAX_ORDER_TOTAL_CENTS });
  // A provider refuses a charge under its minimum (Stripe: 50 cents in USD): say so before any order.
  const providerName = newCheckoutProviderName(providers);
  const minimumCents = minimumChargeCents(providerName, quote.currency);
  if (quote.totalCents > 0 && quote.totalCents < minimumCents) {
    return refuse({ kind: "below_minimum", minimumCents, totalCents: quote.totalCents });
  }

  const unlimited = new Set(review.lines.flatMap((l) => (l.available && l.unlimitedStock ? [l.id] : [])));
  let order;
  try {
    order = await insertOrder(db, input, ctx.userId, providerName, quote, unlimited, review);
  } catch (err) {
    if (err instanceof DiscountUnavailable) return refuse({ kind: "discount_refused", message: err.message });
    throw err;
  }
  if (!order) {
    // Another request with the same key won the race; answer as if this one had been the retry.
    const [existing] = await db.select().from(orders).where(eq(orders.checkoutKey, input.idempotencyKey!));
    return (existing && (await resume(db, existing, providers, ctx.baseUrl))) || refuse({ kind: "in_progress" });
  }

  if (quote.totalCents === 0) {
    // Nothing to charge: no payment page, paid at once (free-order.server.ts).
    if ((await completeWithoutPayment(db, order)) === "sold_out") return refuse(await soldOutSince(db, input));
    return { ok: true, url: freeOrderUrl(ctx.baseUrl, order.id), orderId: order.id, orderNumber: order.orderNumber, sessionId: freeSessionId(order.id) };
  }

  const opened = await openPaymentSession(db, order, quote, { baseUrl: ctx.baseUrl }, providers);
  if (!opened.ok) return refuse({ kind: opened.reason });
  return { ok: true, url: opened.url, orderId: order.id, orderNumber: order.orderNumber, sessionId: opened.sessionId };
}

/** The result page of a $0.00 order, found by its own session id. */
const freeOrderUrl = (baseUrl: string, orderId: string) => `${baseUrl}/order-success?session_id=${freeSessionId(orderId)}`;

/** A $0.00 order whose stock ran out between the check and the order: the lines as they stand now. */
async function soldOutSince(db: Db, input: CheckoutInput): Promise<CheckoutRefusal> {
  const review = await reviewCart(db, input.lines);
  const problems: CartProblem[] = review.lines.flatMap((l): CartProblem[] =>
    !l.available
      ? [{ id: l.id, problem: "unavailable", name: null }]
      : l.problem
        ? [{ id: l.id, problem: l.problem === "short" ? "short" : "out_of_stock", name: l.name, stockQuantity: l.stockQuantity }]
        : [],
  );
  return problems.length ? { kind: "cart_problems", problems } : { kind: "provider_unavailable" };
}

/** Shipping and tax that differ from the figures the page showed (those it sent), or null. */
function quoteChanges(input: CheckoutInput, quote: Quote): Extract<CheckoutRefusal, { kind: "quote_changed" }> | null {
  const differs = (shown: number | null | undefined, now: number) => (shown !== null && shown !== undefined && shown !== now ? now : null);
  const shippingCents = differs(input.quotedShippingCents, quote.shipping.amountCents);
  const taxCents = differs(input.quotedTaxCents, quote.tax.amountCents);
  return shippingCents === null && taxCents === null ? null : { kind: "quote_changed", shippingCents, taxCents };
}

/** The order and its line snapshots, exactly as quoted, in one transaction; null when the idempotency key is taken. */
async function insertOrder(
  db: Db,
  input: CheckoutInput,
  userId: string | null,
  paymentProvider: string,
  quote: Quote,
  unlimited: ReadonlySet<string>,
  review: Pick<CartReviewResult, "code" | "shipping">,
) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        const [order] = await tx
          .insert(orders)
          .values({
            userId,
            orderNumber: newOrderNumber(),
            status: "pending",
            paymentStatus: "unpaid",
            currency: quote.currency,
            subtotalCents: quote.subtotalCents,
            discountCents: quote.discount?.amountCents ?? 0,
            discountCode: quote.discount?.code ?? null,
            discountKind: review.code?.kind ?? null,
            shippingRateId: review.shipping.state === "known" ? review.shipping.selectedId : null,
            shippingCents: quote.shipping.amountCents,
            shippingName: quote.shipping.name,
            taxCents: quote.tax.amountCents,
            taxName: quote.tax.name,
            taxRateBasisPoints: quote.tax.rateBasisPoints,
            pricesIncludeTax: quote.tax.included,
            totalAmountCents: quote.totalCents,
            email: input.form.email,
            firstName: input.form.firstName,
            lastName: input.form.lastName,
            phone: input.form.phone,
            address: input.form.address,
            city: input.form.city,
            state: input.form.state,
            zipCode: input.form.zipCode,
            country: input.form.country,
            paymentProvider,
            checkoutKey: input.idempotencyKey,
            emailAboutOrder: input.emailAboutOrder === true,
          })
          .returning();
        await tx.insert(orderItems).values(
          quote.lines.map((l) => ({
            orderId: order!.id,
            productId: l.productId,
            name: l.name,
            imageUrl: l.imageUrl,
            unitPriceCents: l.unitPriceCents,
            quantity: l.quantity,
            lineTotalCents: l.lineTotalCents,
            discountCents: l.discountCents,
            taxCents: l.taxCents,
            // Settlement marks what it really took when the payment is confirmed.
            stockTracked: !unlimited.has(l.productId),
          })),
        );
        // The code's use is taken with the order, or neither is made.
        if (review.code) await holdDiscountUse(tx, review.code, { id: order!.id, email: order!.email, discountCents: quote.discount?.amountCents ?? 0 });
        await addOrderEvent(tx, {
          orderId: order!.id,
          kind: "status",
          toStatus: "pending",
          note: "Order placed",
          actorUserId: userId,
          actorLabel: userId ? "customer" : "guest",
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

/**
 * A resubmission while its order is still open: the same payment page again (a double click, two
 * tabs, a retry after a lost answer). null when that order is settled and a new one may be made.
 */
async function resume(db: Db, found: typeof orders.$inferSelect, providers: Providers, baseUrl: string): Promise<CheckoutResult | null> {
  let order = found;
  // The first submission is still opening its payment session: wait for it briefly, then share it.
  const mayStillOpen = () => Date.now() - order.createdAt.getTime() < SESSION_OPEN_LIMIT_MS;
  for (let i = 0; i < 25 && !order.paymentSessionId && order.paymentStatus === "unpaid" && mayStillOpen(); i++) {
    await new Promise((r) => setTimeout(r, 200));
    const [again] = await db.select().from(orders).where(eq(orders.id, order.id));
    if (!again) return null;
    order = again;
  }
  // A $0.00 order is paid as it is made: the same submission again leads to its result page.
  if (order.paymentSessionId === freeSessionId(order.id) && order.paymentStatus === "paid") {
    return { ok: true, url: freeOrderUrl(baseUrl, order.id), orderId: order.id, orderNumber: order.orderNumber, sessionId: order.paymentSessionId };
  }
  const state = await reviewOpenCheckout(db, order, providers);
  switch (state.state) {
    case "open":
      return { ok: true, url: state.url, orderId: order.id, orderNumber: order.orderNumber, sessionId: state.sessionId };
    case "processing":
      return refuse({ kind: "in_progress" });
    case "paid":
      return refuse({ kind: "already_paid" });
    case "unreadable":
      // Unknown whether that page can still be paid: a second order now could be paid twice.
      return refuse({ kind: "provider_unavailable" });
    case "closed":
      return null;
  }
}
