import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { PAYMENT_SESSION_LIFETIME_MS } from "~/server/commerce/payments/provider.server";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { closeAbandonedCheckouts } from "~/server/commerce/settlement/sweeper.server";
import { discountCodes, discountUses, orders, products, testPaymentSessions } from "~/server/platform/db/schema";
import { loader as leaveLoader } from "~/routes/resources/leave-payment";
import { cartLines, routeArgs, shippingForm } from "../factories/orders";
import { makeDiscountCode, resetPricing } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { makeAdmin } from "../factories/users";
import { useTestDatabase } from "../setup/database";

/**
 * A code's use held by an unpaid checkout (docs/money-path.md, "Discount codes"): nobody can keep
 * a shopper's once-per-email code, or a limited code's last uses, for long without paying.
 */
const t = useTestDatabase();
beforeEach(() => resetPricing(t.db));

type Line = { id: string; priceCents: number; name: string };

async function checkout(lines: [Line, number][], code: string, email: string) {
  return createCheckout(
    t.db,
    { lines: cartLines(...lines), form: shippingForm({ email }), idempotencyKey: null, discountCode: code, shippingRateId: null },
    { userId: null, baseUrl: "http://localhost:3000" },
  );
}

const usesOf = async (id: string) => (await t.db.select().from(discountCodes).where(eq(discountCodes.id, id)))[0]!.usesCount;
const useStates = async (orderId: string) => (await t.db.select({ state: discountUses.state }).from(discountUses).where(eq(discountUses.orderId, orderId))).map((u) => u.state);

/** The clock moves on: the order and its payment page are `ms` older. */
async function age(orderId: string, sessionId: string, ms: number) {
  const [order] = await t.db.select({ createdAt: orders.createdAt }).from(orders).where(eq(orders.id, orderId));
  const [session] = await t.db.select({ expiresAt: testPaymentSessions.expiresAt }).from(testPaymentSessions).where(eq(testPaymentSessions.id, sessionId));
  await t.db.update(orders).set({ createdAt: new Date(order!.createdAt.getTime() - ms) }).where(eq(orders.id, orderId));
  await t.db.update(testPaymentSessions).set({ expiresAt: new Date(session!.expiresAt.getTime() - ms) }).where(eq(testPaymentSessions.id, sessionId));
}

describe("a discount code's use held by an unpaid checkout", () => {
  it("a checkout someone opened with Ada's email holds her once-per-email code for an hour at most", async () => {
    const code = await makeDiscountCode(t.db, { code: "ADA-ONCE", oncePerEmail: true });
    const p = await makeProduct(t.db, { priceCents: 3000, stockQuantity: 50 });
    const squatter = await checkout([[p, 1]], "ADA-ONCE", "ada@example.test");
    if (!squatter.ok) throw new Error("refused");
    expect(await usesOf(code.id)).toBe(1);
    const [session] = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, squatter.sessionId));
    expect(session!.expiresAt.getTime() - session!.createdAt.getTime()).toBeLessThanOrEqual(60 * 60_000);

    // While the page is open, Ada is refused like anyone would be.
    expect((await checkout([[p, 1]], "ADA-ONCE", "ada@example.test")).ok).toBe(false);
    // An hour and a minute later the shop's sweep closes the lapsed page and gives the use back.
    await age(squatter.orderId, squatter.sessionId, 61 * 60_000);
    await closeAbandonedCheckouts(t.db);
    expect(await useStates(squatter.orderId)).toEqual(["released"]);
    expect(await usesOf(code.id)).toBe(0);
    expect((await checkout([[p, 1]], "ADA-ONCE", "ada@example.test")).ok).toBe(true);
  });

  it("the payment pages of Stripe and the test provider both lapse within an hour", () => {
    expect(PAYMENT_SESSION_LIFETIME_MS).toBeLessThanOrEqual(60 * 60_000);
  });

  it("a paid order that sold out before the payment went through (refunded by the shop) gives the use back", async () => {
    const code = await makeDiscountCode(t.db, { code: "LAST-ONE", usageLimit: 1 });
    const p = await makeProduct(t.db, { priceCents: 3000, stockQuantity: 1 });
    const opened = await checkout([[p, 1]], "LAST-ONE", "ann@example.test");
    if (!opened.ok) throw new Error("refused");
    await t.db.update(products).set({ stockQuantity: 0 }).where(eq(products.id, p.id));
    await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_soldout" }).where(eq(testPaymentSessions.id, opened.sessionId));
    expect((await confirmPayment(t.db, opened.sessionId)).state).toBe("sold_out");
    expect(await useStates(opened.orderId)).toEqual(["released"]);
    expect(await usesOf(code.id)).toBe(0);
    await t.db.update(products).set({ stockQuantity: 5 }).where(eq(products.id, p.id));
    expect((await checkout([[p, 1]], "LAST-ONE", "ann@example.test")).ok).toBe(true);
  });

  it("leaving the payment page ('back to the shop') closes the checkout and gives the use back; a forged link does nothing", async () => {
    const code = await makeDiscountCode(t.db, { code: "ADA-LEAVE", oncePerEmail: true, usageLimit: 5 });
    const p = await makeProduct(t.db, { priceCents: 3000, stockQuantity: 50 });
    const opened = await checkout([[p, 1]], "ADA-LEAVE", "ada@example.test");
    if (!opened.ok) throw new Error("refused");
    const [session] = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, opened.sessionId));
    const cancelUrl = new URL(session!.cancelUrl);

    const leave = async (url: URL) => (await leaveLoader(routeArgs(new Request(url)))) as Response;
    const forged = new URL(cancelUrl);
    forged.searchParams.set("t", "A".repeat(43));
    const ignored = await leave(forged);
    expect(ignored.status).toBe(303);
    expect(await usesOf(code.id)).toBe(1);
    expect((await t.db.select({ status: orders.status }).from(orders).where(eq(orders.id, opened.orderId)))[0]!.status).toBe("pending");

    const left = await leave(cancelUrl);
    expect(left.status).toBe(303);
    expect(left.headers.get("Location")).toBe("/cart?checkout=cancelled");
    expect(await useStates(opened.orderId)).toEqual(["released"]);
    expect(await usesOf(code.id)).toBe(0);
    expect((await t.db.select({ status: orders.status }).from(orders).where(eq(orders.id, opened.orderId)))[0]!.status).toBe("cancelled");
    // The page can no longer take money, and Ada can check out with her code again.
    expect((await t.db.select({ status: testPaymentSessions.status }).from(testPaymentSessions).where(eq(testPaymentSessions.id, opened.sessionId)))[0]!.status).toBe("expired");
    expect((await checkout([[p, 1]], "ADA-LEAVE", "ada@example.test")).ok).toBe(true);
  });

  it("an order the owner accepted unpaid keeps its use while it is open; cancelling it gives the use back", async () => {
    const code = await makeDiscountCode(t.db, { code: "TRADE", usageLimit: 1 });
    const p = await makeProduct(t.db, { priceCents: 3000, stockQuantity: 50 });
    const opened = await checkout([[p, 1]], "TRADE", "trade@example.test");
    if (!opened.ok) throw new Error("refused");
    const admin = await makeAdmin(t.db);
    const actor = { id: admin.id, name: "Owner", email: admin.email };
    const version = async () => (await t.db.select({ v: orders.version }).from(orders).where(eq(orders.id, opened.orderId)))[0]!.v;
    await changeOrderStatus(t.db, { orderId: opened.orderId, to: "processing", expectedVersion: await version(), actor });
    // Its payment page is closed when it is accepted; the sweep, long after, leaves the open order alone.
    await age(opened.orderId, opened.sessionId, 2 * 3600_000);
    await closeAbandonedCheckouts(t.db);
    expect(await useStates(opened.orderId)).toEqual(["held"]);
    expect(await usesOf(code.id)).toBe(1);
    await changeOrderStatus(t.db, { orderId: opened.orderId, to: "cancelled", expectedVersion: await version(), actor });
    expect(await useStates(opened.orderId)).toEqual(["released"]);
    expect(await usesOf(code.id)).toBe(0);
  });
});
