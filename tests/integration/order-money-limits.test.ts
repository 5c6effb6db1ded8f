import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatMoney } from "~/lib/money";
import { orderMoneyRows } from "~/lib/order-money";
import { action as checkoutAction } from "~/routes/resources/checkout";
import { MAX_ORDER_TOTAL_CENTS } from "~/server/commerce/checkout/create-checkout.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { orderItems, orders, rateLimits, salesDaily, testPaymentSessions } from "~/server/platform/db/schema";
import { cartLines, checkoutRequest, countOrders, routeArgs, shippingForm } from "../factories/orders";
import { makeDiscountCode, makeZone, withoutDefaultZone } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { makeAdmin, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { openOrderPage } from "./admin-orders-helpers";

const t = useTestDatabase();
let admin: TestUser;
const MILLION = 100_000_000; // $1,000,000.00, the dearest price a product may have

async function post(body: unknown) {
  const res = (await checkoutAction(routeArgs(checkoutRequest(body)))) as Response;
  return { status: res.status, body: (await res.json()) as { url?: string; orderNumber?: string; error?: string } };
}

const body = (product: { id: string; name: string; priceCents: number }, quantity: number, code?: string) => ({
  cartItems: cartLines([product, quantity]),
  formData: shippingForm(),
  idempotencyKey: crypto.randomUUID(),
  ...(code ? { discountCode: code } : {}),
});

beforeAll(async () => {
  admin = await makeAdmin(t.db);
  await withoutDefaultZone(t.db);
  await makeZone(t.db, { name: "US", countries: ["US"] }, [{ name: "Standard", priceCents: 500 }]);
  await makeDiscountCode(t.db, { code: "ALLFREE", kind: "percent", percentBasisPoints: 10000 });
});

beforeEach(async () => {
  await t.db.delete(rateLimits);
});

describe("amounts past a 32-bit integer", () => {
  it("$1,000,000.00 × 99 with a 100% code is placed for its $5.00 shipping, every figure stored exactly, and counts in the sales figures once paid", async () => {
    const product = await makeProduct(t.db, { priceCents: MILLION, stockQuantity: 100 });
    const res = await post(body(product, 99, "ALLFREE"));
    expect(res.status, res.body.error).toBe(200);
    const [order] = await t.db.select().from(orders).where(eq(orders.orderNumber, res.body.orderNumber!));
    expect(order).toMatchObject({ subtotalCents: 9_900_000_000, discountCents: 9_900_000_000, shippingCents: 500, totalAmountCents: 500 });
    const [line] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, order!.id));
    expect(line).toMatchObject({ quantity: 99, lineTotalCents: 9_900_000_000, discountCents: 9_900_000_000 });

    await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_big" }).where(eq(testPaymentSessions.id, order!.paymentSessionId!));
    expect((await confirmPayment(t.db, order!.paymentSessionId!)).state).toBe("paid");
    const page = await openOrderPage(t.db, admin, order!.orderNumber);
    expect(orderMoneyRows(page.body.order).map((r) => [r.label, r.value]).slice(0, 2)).toEqual([
      ["Subtotal", "$99,000,000.00"],
      ["Discount (ALLFREE)", "\u2212$99,000,000.00"],
    ]);
    const [day] = await t.db.select().from(salesDaily);
    expect(day).toMatchObject({ subtotalCents: 9_900_000_000, discountCents: 9_900_000_000, revenueCents: 500 });
  });

  it("an order whose total passes the shop's largest is refused with a message, before any write", async () => {
    const product = await makeProduct(t.db, { priceCents: MILLION, stockQuantity: 100 });
    const before = await countOrders(t.db);
    const res = await post(body(product, 99));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`An order can total at most ${formatMoney(MAX_ORDER_TOTAL_CENTS)}. Remove some items and try again.`);
    expect(formatMoney(MAX_ORDER_TOTAL_CENTS)).toBe("$999,999.99");
    expect(await countOrders(t.db)).toBe(before);
  });
});
