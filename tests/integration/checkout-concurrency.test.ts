import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PaymentVerification } from "~/lib/checkout";
import { action as checkoutAction } from "~/routes/resources/checkout";
import { action as payAction } from "~/routes/resources/test-payment";
import { action as verifyAction } from "~/routes/resources/verify-payment";
import { mailOutbox, orders, testPaymentSessions } from "~/server/platform/db/schema";
import { useTestDatabase } from "../setup/database";
import { cartLines, checkoutRequest, routeArgs, shippingForm, stockOf, verifyRequest } from "../factories/orders";
import { makeProduct } from "../factories/products";

const t = useTestDatabase();

const GOOD_CARD = { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" };

async function checkout(lines: ReturnType<typeof cartLines>, buyer: number) {
  const res = (await checkoutAction(
    routeArgs(checkoutRequest({ cartItems: lines, formData: shippingForm({ email: `buyer${buyer}@example.test` }) }, { ip: `10.0.0.${buyer}` })),
  )) as Response;
  expect(res.status).toBe(200);
  const { url } = (await res.json()) as { url: string };
  return url.split("/").pop()!;
}

async function pay(sessionId: string) {
  const request = new Request(`http://localhost:3000/pay/test/${sessionId}`, { method: "POST", body: new URLSearchParams(GOOD_CARD) });
  return (await payAction(routeArgs(request, { sessionId }))) as Response;
}

async function verify(sessionId: string) {
  const res = (await verifyAction(routeArgs(verifyRequest(sessionId, `10.1.0.${Math.floor(Math.random() * 250)}`)))) as Response;
  expect(res.status).toBe(200);
  return (await res.json()) as PaymentVerification;
}

describe("no overselling on PostgreSQL", () => {
  it("20 buyers race for the last 5 units: exactly 5 paid orders, stock 0, the other 15 told it sold out and refunded", async () => {
    const duvet = await makeProduct(t.db, { name: "Last Five Duvet", priceCents: 15000, stockQuantity: 5 });
    // Each buyer's checkout is accepted: at that moment 5 units are on the shelf.
    const sessions = await Promise.all(Array.from({ length: 20 }, (_, i) => checkout(cartLines([duvet, 1]), i + 1)));

    // Everybody presses Pay at once.
    const responses = await Promise.all(sessions.map(pay));
    expect(responses.every((r) => r.status === 302)).toBe(true);

    const results = await Promise.all(sessions.map(verify));
    const paid = results.filter((r) => r.status === "paid");
    const soldOut = results.filter((r) => r.status === "sold_out");
    expect(paid).toHaveLength(5);
    expect(soldOut).toHaveLength(15);
    for (const r of soldOut) {
      expect(r.payment_successful).toBe(false);
      expect(r.message).toBe('"Last Five Duvet" sold out before your payment went through. Your payment has been refunded.');
    }
    expect(await stockOf(t.db, duvet.id)).toBe(0);

    const rows = await t.db.select().from(orders).where(inArray(orders.paymentSessionId, sessions));
    expect(rows.filter((o) => o.paymentStatus === "paid" && o.status === "processing")).toHaveLength(5);
    expect(rows.filter((o) => o.paymentStatus === "refunded" && o.status === "cancelled")).toHaveLength(15);
    const refundedSessions = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.status, "refunded"));
    expect(refundedSessions).toHaveLength(15);

    const mails = await t.db.select({ subject: mailOutbox.subject }).from(mailOutbox);
    expect(mails.filter((m) => m.subject.endsWith("confirmed"))).toHaveLength(5);
    expect(mails.filter((m) => m.subject.endsWith("could not be completed"))).toHaveLength(15);

    // Asking again changes nothing.
    const again = await Promise.all(sessions.map(verify));
    expect(again.filter((r) => r.status === "paid")).toHaveLength(5);
    expect(await stockOf(t.db, duvet.id)).toBe(0);
  });

  it("orders holding the same two products in opposite order never deadlock and never oversell", async () => {
    const a = await makeProduct(t.db, { name: "Pillow A", stockQuantity: 3 });
    const b = await makeProduct(t.db, { name: "Pillow B", stockQuantity: 3 });
    const sessions = await Promise.all(
      Array.from({ length: 10 }, (_, i) => checkout(i % 2 ? cartLines([a, 1], [b, 1]) : cartLines([b, 1], [a, 1]), 100 + i)),
    );
    await Promise.all(sessions.map(pay));
    const results = await Promise.all(sessions.map(verify));
    expect(results.filter((r) => r.status === "paid")).toHaveLength(3);
    expect(results.filter((r) => r.status === "sold_out")).toHaveLength(7);
    expect(await stockOf(t.db, a.id)).toBe(0);
    expect(await stockOf(t.db, b.id)).toBe(0);
  });
});
