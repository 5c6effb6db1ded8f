import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PaymentVerification } from "~/lib/checkout";
import { action as payAction, loader as payLoader } from "~/routes/resources/test-payment";
import { action as verifyAction } from "~/routes/resources/verify-payment";
import { mailOutbox, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { useTestDatabase } from "../setup/database";
import { openCheckout, orderBySession, orderLines, orderTimeline, routeArgs, stockOf, verifyRequest } from "../factories/orders";
import { makeProduct } from "../factories/products";

const t = useTestDatabase();

function payRequest(sessionId: string, card: Record<string, string>) {
  return new Request(`http://localhost:3000/pay/test/${sessionId}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(card),
  });
}

const GOOD_CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123" };
const DECLINED_CARD = { cardNumber: "4000 0000 0000 0002", expiry: "12/34", cvc: "123" };

async function pay(sessionId: string, card: Record<string, string>) {
  return (await payAction(routeArgs(payRequest(sessionId, card), { sessionId }))) as unknown;
}

async function verify(sessionId: unknown) {
  const res = (await verifyAction(routeArgs(verifyRequest(sessionId)))) as Response;
  return { status: res.status, body: (await res.json()) as PaymentVerification & { error?: string } };
}

describe("the test payment provider, confirmation and /api/verify-payment", () => {
  it("shows the hosted payment page with the order's total", async () => {
    const product = await makeProduct(t.db, { priceCents: 3250 });
    const checkout = await openCheckout(t.db, [[product, 2]]);
    const page = await payLoader(routeArgs(new Request(checkout.url), { sessionId: checkout.sessionId }));
    expect(page).toMatchObject({ orderNumber: checkout.orderNumber, amountCents: 6500, state: "open" });
    // Cancel leaves through the link that closes this checkout, then back to the cart.
    expect(page.cancelPath).toMatch(new RegExp(`^/api/checkout/leave\\?order=${checkout.orderId}&t=[\\w-]{43}$`));
    expect(page.resultPath).toBe(`/order-success?session_id=${checkout.sessionId}`);
  });

  it("answers an unknown payment session with 404", async () => {
    await expect(payLoader(routeArgs(new Request("http://localhost:3000/pay/test/nope"), { sessionId: "nope" }))).rejects.toMatchObject({
      init: { status: 404 },
    });
  });

  it("4242 pays: the order is paid once, stock drops once, one confirmation email with the lines and total", async () => {
    const sheets = await makeProduct(t.db, { name: "Percale Sheet Set", priceCents: 8900, stockQuantity: 5 });
    const throw_ = await makeProduct(t.db, { name: "Waffle Throw", priceCents: 4550, unlimitedStock: true, stockQuantity: 0 });
    const checkout = await openCheckout(t.db, [[sheets, 2], [throw_, 3]], { form: { email: "ada@example.test" } });

    const res = (await pay(checkout.sessionId, GOOD_CARD)) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/order-success?session_id=${checkout.sessionId}`);

    const order = await orderBySession(t.db, checkout.sessionId);
    expect(order).toMatchObject({ paymentStatus: "paid", status: "processing" });
    expect(order.paidAt).toBeInstanceOf(Date);
    expect(order.paymentReference).toMatch(/^test_pi_/);
    expect(await stockOf(t.db, sheets.id)).toBe(3);
    expect(await stockOf(t.db, throw_.id)).toBe(0);
    const lines = await orderLines(t.db, order.id);
    expect(lines.find((l) => l.name === "Waffle Throw")!.stockTracked).toBe(false);

    // The result page, a reload, and a late "webhook" all see the same single paid order.
    for (let i = 0; i < 3; i++) {
      const v = await verify(checkout.sessionId);
      expect(v.status).toBe(200);
      expect(v.body).toEqual({
        payment_successful: true,
        status: "paid",
        order_number: checkout.orderNumber,
        total_amount: 314.5,
        total_amount_cents: 31450,
        customer_email: "ada@example.test",
      });
    }
    await Promise.all([confirmPayment(t.db, checkout.sessionId), confirmPayment(t.db, checkout.sessionId)]);
    expect(await stockOf(t.db, sheets.id)).toBe(3);

    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "ada@example.test"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Order ${checkout.orderNumber} confirmed`);
    expect(mails[0]!.text).toContain("2 × Percale Sheet Set ($89.00 each): $178.00");
    expect(mails[0]!.text).toContain("3 × Waffle Throw ($45.50 each): $136.50");
    expect(mails[0]!.text).toContain("Total: $314.50");
    expect(mails[0]!.html).toContain("$314.50");

    const timeline = await orderTimeline(t.db, order.id);
    expect(timeline.map((e) => [e.kind, e.toStatus])).toEqual([
      ["status", "pending"],
      ["payment", "processing"],
    ]);
  });

  it("two concurrent Pay submissions charge once", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 4 });
    const checkout = await openCheckout(t.db, [[product, 1]]);
    await Promise.all([pay(checkout.sessionId, GOOD_CARD), pay(checkout.sessionId, GOOD_CARD), pay(checkout.sessionId, DECLINED_CARD)]);
    const order = await orderBySession(t.db, checkout.sessionId);
    const [session] = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, checkout.sessionId));
    // Whichever submission won, the order agrees with the session and stock moved at most once.
    expect(order.paymentStatus).toBe(session!.status === "paid" ? "paid" : "failed");
    expect(await stockOf(t.db, product.id)).toBe(session!.status === "paid" ? 3 : 4);
  });

  it("4000…0002 is declined: the order is cancelled as failed, stock untouched, 'payment_successful' false", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 2 });
    const checkout = await openCheckout(t.db, [[product, 1]]);
    const res = (await pay(checkout.sessionId, DECLINED_CARD)) as Response;
    expect(res.headers.get("location")).toBe(`/order-success?session_id=${checkout.sessionId}`);
    const order = await orderBySession(t.db, checkout.sessionId);
    expect(order).toMatchObject({ paymentStatus: "failed", status: "cancelled" });
    expect(await stockOf(t.db, product.id)).toBe(2);
    const v = await verify(checkout.sessionId);
    expect(v.body).toMatchObject({ payment_successful: false, status: "failed", order_number: checkout.orderNumber });
    // A declined session cannot be paid afterwards.
    await pay(checkout.sessionId, GOOD_CARD);
    expect((await orderBySession(t.db, checkout.sessionId)).paymentStatus).toBe("failed");
    expect(await stockOf(t.db, product.id)).toBe(2);
  });

  it("refuses a bad card form beside each field, and nothing changes", async () => {
    const product = await makeProduct(t.db);
    const checkout = await openCheckout(t.db, [[product, 1]]);
    const res = (await pay(checkout.sessionId, { cardNumber: "1234 5678 9012 3456", expiry: "13/99", cvc: "1" })) as {
      data: { fieldErrors: Record<string, string> };
      init: { status: number };
    };
    expect(res.init.status).toBe(400);
    expect(res.data.fieldErrors).toEqual({
      cardNumber: "Your card number is invalid",
      expiry: "Use the format MM / YY",
      cvc: "The security code is 3 or 4 digits",
    });
    const other = (await pay(checkout.sessionId, { cardNumber: "5555 5555 5555 4444", expiry: "01/20", cvc: "123" })) as typeof res;
    expect(other.data.fieldErrors).toEqual({
      cardNumber: "Use the test card 4242 4242 4242 4242 (or 4000 0000 0000 0002 to see a decline)",
      expiry: "Your card has expired",
    });
    expect((await orderBySession(t.db, checkout.sessionId)).paymentStatus).toBe("unpaid");
  });

  it("an unpaid session is 'pending'; a lapsed one expires the order", async () => {
    const product = await makeProduct(t.db);
    const checkout = await openCheckout(t.db, [[product, 1]]);
    expect((await verify(checkout.sessionId)).body).toMatchObject({ status: "pending", payment_successful: false });
    await t.db
      .update(testPaymentSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(testPaymentSessions.id, checkout.sessionId));
    expect((await verify(checkout.sessionId)).body).toMatchObject({ status: "expired", payment_successful: false });
    expect(await orderBySession(t.db, checkout.sessionId)).toMatchObject({ paymentStatus: "expired", status: "cancelled" });
    const res = (await pay(checkout.sessionId, GOOD_CARD)) as Response;
    expect(res.status).toBe(302);
    expect((await orderBySession(t.db, checkout.sessionId)).paymentStatus).toBe("expired");
  });

  it("an unknown or malformed session_id reveals nothing and creates nothing", async () => {
    const unknown = await verify("test_cs_doesnotexist");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "Payment not found" });
    const missing = await verify(undefined);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "No session ID found" });
    // Over the body limit: refused as too large (413), nothing looked up.
    const huge = await verify("x".repeat(5000));
    expect(huge.status).toBe(413);
  });

  it("a session whose provider record points at another order is refused, without confirming either", async () => {
    const product = await makeProduct(t.db, { stockQuantity: 3 });
    const mine = await openCheckout(t.db, [[product, 1]]);
    const theirs = await openCheckout(t.db, [[product, 1]]);
    await pay(theirs.sessionId, GOOD_CARD);
    // Re-point my order at a session paid for the other order.
    const before = await stockOf(t.db, product.id);
    await t.db.update(testPaymentSessions).set({ orderId: theirs.orderId }).where(eq(testPaymentSessions.id, mine.sessionId));
    await t.db
      .update(testPaymentSessions)
      .set({ status: "paid" })
      .where(and(eq(testPaymentSessions.id, mine.sessionId), eq(testPaymentSessions.status, "open")));
    const v = await verify(mine.sessionId);
    expect(v.status).toBe(502);
    expect(v.body).toEqual({ error: "Failed to verify payment" });
    expect((await orderBySession(t.db, mine.sessionId)).paymentStatus).toBe("unpaid");
    expect(await stockOf(t.db, product.id)).toBe(before);
  });
});
