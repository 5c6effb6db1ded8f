import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutAnswer } from "~/routes/_edge/checkout.server";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { discountCodes, discountUses, orders, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { cartLines, shippingForm } from "../factories/orders";
import { makeDiscountCode } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

describe("a discount code's last uses, raced on PostgreSQL", () => {
  it("10 uses left, 50 checkouts at once: exactly 10 orders carry it; after 5 of them are declined, 5 new checkouts can use it", async () => {
    const code = await makeDiscountCode(t.db, { code: "RACE10", usageLimit: 10 });
    const product = await makeProduct(t.db, { priceCents: 4000, unlimitedStock: true });
    const attempt = (n: number) =>
      createCheckout(
        t.db,
        { lines: cartLines([product, 1]), form: shippingForm({ email: `racer-${n}@example.test` }), idempotencyKey: null, discountCode: "race10" },
        { userId: null, baseUrl: "http://localhost:3000" },
      );

    const results = await Promise.all(Array.from({ length: 50 }, (_, n) => attempt(n)));
    const won = results.filter((r) => r.ok);
    const lost = results.filter((r) => !r.ok).map((r) => checkoutAnswer(r));
    expect(won).toHaveLength(10);
    expect(lost).toHaveLength(40);
    for (const answer of lost) expect(answer).toMatchObject({ status: 400, body: { error: "This code is not valid." } }); // a used-up code reads like an unknown one
    const carrying = await t.db.select().from(orders).where(eq(orders.discountCode, "RACE10"));
    expect(carrying).toHaveLength(10);
    expect(carrying.every((o) => o.discountCents === 400 && o.totalAmountCents === 3600)).toBe(true);
    expect((await t.db.select().from(discountCodes).where(eq(discountCodes.id, code.id)))[0]!.usesCount).toBe(10);

    // Five shoppers' cards are declined: their orders close and give their uses back.
    for (const r of won.slice(0, 5)) {
      if (!r.ok) continue;
      await t.db.update(testPaymentSessions).set({ status: "declined" }).where(eq(testPaymentSessions.id, r.sessionId));
      expect((await confirmPayment(t.db, r.sessionId)).state).toBe("failed");
    }
    // The other five pay: their uses are kept.
    for (const r of won.slice(5)) {
      if (!r.ok) continue;
      await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: `test_pi_${r.orderId.slice(0, 8)}` }).where(eq(testPaymentSessions.id, r.sessionId));
      expect((await confirmPayment(t.db, r.sessionId)).state).toBe("paid");
    }
    const again = await Promise.all(Array.from({ length: 20 }, (_, n) => attempt(100 + n)));
    expect(again.filter((r) => r.ok)).toHaveLength(5);
    expect((await t.db.select().from(discountCodes).where(eq(discountCodes.id, code.id)))[0]!.usesCount).toBe(10);
    const uses = await t.db.select({ state: discountUses.state }).from(discountUses).where(eq(discountUses.codeId, code.id));
    expect(uses.filter((u) => u.state === "held")).toHaveLength(5);
    expect(uses.filter((u) => u.state === "kept")).toHaveLength(5);
    expect(uses.filter((u) => u.state === "released")).toHaveLength(5);
  }, 60_000);
});
