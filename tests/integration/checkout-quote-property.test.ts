import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { reviewCart } from "~/server/commerce/checkout/cart-review.server";
import { orderItems, orders, testPaymentSessions } from "~/server/platform/db/schema";
import { getPaymentProvider, type PaymentOrder, type PaymentProvider } from "~/server/commerce/payments/index.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { cartLines, shippingForm } from "../factories/orders";
import { makeProducts } from "../factories/products";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

const CARTS = 1000;

describe("the quote is the order is the charge", () => {
  it(`for ${CARTS} random carts: the cart page's quote, the order's figures and the amount the provider is asked for agree to the cent`, async () => {
    const products = await makeProducts(t.db, 40, (i) => ({
      // 1¢ to $999.99, with odd cents, and stock that never runs out.
      priceCents: 1 + ((i * 7919) % 99_999),
      unlimitedStock: true,
    }));
    const test = getPaymentProvider(t.db, "test");
    const asked: PaymentOrder[] = [];
    const recording: PaymentProvider = Object.assign(Object.create(test) as PaymentProvider, {
      async createSession(...args: Parameters<PaymentProvider["createSession"]>) {
        asked.push(args[0]);
        return test.createSession(...args);
      },
    });
    let seed = 12345;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };

    for (let c = 0; c < CARTS; c++) {
      const picked = [...new Set(Array.from({ length: 1 + rand(8) }, () => products[rand(products.length)]!))];
      const lines = picked.map((p) => [p, 1 + rand(99)] as [(typeof products)[number], number]);
      const context = `cart ${c}`;

      const shown = (await reviewCart(t.db, lines.map(([p, quantity]) => ({ id: p.id, quantity })))).quote;
      const result = await createCheckout(
        t.db,
        { lines: cartLines(...lines), form: shippingForm(), idempotencyKey: null },
        { userId: null, baseUrl: "http://localhost:3000", providers: onlyProvider(recording) },
      );
      if (!result.ok) throw new Error(`${context}: refused ${JSON.stringify(result.refusal)}`);
      const [order] = await t.db.select().from(orders).where(eq(orders.id, result.orderId));
      const items = await t.db.select().from(orderItems).where(eq(orderItems.orderId, result.orderId));
      const [session] = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, result.sessionId));
      const sent = asked.at(-1)!;

      const sumLines = items.reduce((s, l) => s + l.lineTotalCents, 0);
      expect(order!.subtotalCents, context).toBe(sumLines);
      expect(order!.totalAmountCents, context).toBe(sumLines - order!.discountCents + order!.shippingCents + (order!.pricesIncludeTax ? 0 : order!.taxCents));
      expect(order!.totalAmountCents, context).toBe(shown.totalCents);
      expect(sent.quote, context).toEqual(shown);
      expect(session!.amountCents, context).toBe(order!.totalAmountCents);
    }
    expect(asked).toHaveLength(CARTS);
  }, 180_000);
});
