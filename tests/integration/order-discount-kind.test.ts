import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { MemoryRouter } from "react-router";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { OrdersList } from "~/components/account/orders-list";
import { orderMoneyRows } from "~/lib/order-money";
import { loader as profileLoader } from "~/routes/account/profile";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { mailOutbox, testPaymentSessions } from "~/server/platform/db/schema";
import { cartLines, shippingForm } from "../factories/orders";
import { makeDiscountCode, makeZone, withoutDefaultZone } from "../factories/pricing";
import { makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get } from "./admin-catalog-helpers";
import { openOrderPage, orderRow } from "./admin-orders-helpers";

const t = useTestDatabase();
let admin: TestUser;
let shopper: TestUser;
const MINUS = "\u2212";
const pairs = (rows: { label: string; value: string }[]) => rows.map((r) => [r.label, r.value]);

/** A paid order through the real checkout with `code`, for `quantity` of a product at `priceCents`. */
async function paidWithCode(code: string, priceCents: number, opts: { rateId?: string } = {}) {
  const product = await makeProduct(t.db, { priceCents, stockQuantity: 10 });
  const result = await createCheckout(
    t.db,
    { lines: cartLines([product, 1]), form: shippingForm({ email: shopper.email }), idempotencyKey: null, discountCode: code, shippingRateId: opts.rateId },
    { userId: shopper.id, baseUrl: "http://localhost:3000" },
  );
  if (!result.ok) throw new Error(`checkout refused: ${JSON.stringify(result.refusal)}`);
  await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: `test_pi_${result.orderId.slice(0, 8)}` }).where(eq(testPaymentSessions.id, result.sessionId));
  expect((await confirmPayment(t.db, result.sessionId)).state).toBe("paid");
  return result;
}

/** The money lines of an order as the admin page, the shopper's Orders tab and the confirmation mail print them. */
async function printed(orderId: string, orderNumber: string) {
  const admin_ = pairs(orderMoneyRows((await openOrderPage(t.db, admin, orderNumber)).body.order, { alwaysTax: true }));
  const profile = await get(t.db, profileLoader, shopper, "/profile");
  const mine = profile.body.orders.find((o: { id: string }) => o.id === orderId);
  const html = renderToStaticMarkup(createElement(MemoryRouter, null, createElement(OrdersList, { orders: [mine] })));
  const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "order-confirmation"));
  const mail = mails.find((m) => m.subject.includes(orderNumber))!;
  return { admin: admin_, shopper: pairs(orderMoneyRows(mine)), html, mailText: mail.text, mailHtml: mail.html! };
}

let standardId: string;
let overnightId: string;

beforeAll(async () => {
  admin = await makeAdmin(t.db);
  shopper = await makeCustomer(t.db);
  await withoutDefaultZone(t.db);
  const { rates } = await makeZone(t.db, { name: "US", countries: ["US"] }, [
    { name: "Standard", priceCents: 500 },
    { name: "Overnight", priceCents: 2500 },
  ]);
  standardId = rates.find((r) => r.name === "Standard")!.id;
  overnightId = rates.find((r) => r.name === "Overnight")!.id;
  await makeDiscountCode(t.db, { code: "TENOFF", kind: "percent", percentBasisPoints: 1000 });
  await makeDiscountCode(t.db, { code: "SHIPFREE", kind: "free_shipping", percentBasisPoints: null });
});

describe("an order's discount line says what the code did", () => {
  it("a 10% code that took 0¢ off a 4¢ item reads −$0.00 beside $5.00 shipping, never 'Free shipping', on the order page, the shopper's pages and the mail", async () => {
    const order = await paidWithCode("TENOFF", 4, { rateId: standardId });
    expect(await orderRow(t.db, order.orderId)).toMatchObject({ discountCode: "TENOFF", discountKind: "percent", discountCents: 0, shippingCents: 500 });
    const seen = await printed(order.orderId, order.orderNumber);
    const expected = [
      ["Subtotal", "$0.04"],
      ["Discount (TENOFF)", `${MINUS}$0.00`],
      ["Shipping (Standard)", "$5.00"],
    ];
    expect(seen.admin.slice(0, 3)).toEqual(expected);
    expect(seen.shopper.slice(0, 3)).toEqual(expected);
    expect(seen.mailText).toContain(`Discount (TENOFF): ${MINUS}$0.00\nShipping (Standard): $5.00`);
    for (const text of [seen.html, seen.mailHtml, seen.mailText]) expect(text).not.toContain("Free shipping");
  });

  it("a free-shipping code reads 'Free shipping' when it made the shipping free", async () => {
    const order = await paidWithCode("SHIPFREE", 2000, { rateId: standardId });
    expect(await orderRow(t.db, order.orderId)).toMatchObject({ discountKind: "free_shipping", shippingCents: 0 });
    const seen = await printed(order.orderId, order.orderNumber);
    expect(seen.admin.slice(1, 3)).toEqual([
      ["Discount (SHIPFREE)", "Free shipping"],
      ["Shipping (Standard)", "Free"],
    ]);
    expect(seen.mailText).toContain("Discount (SHIPFREE): Free shipping\nShipping (Standard): Free");
  });

  it("a free-shipping code that left the picked rate paid (Overnight $25.00) does not read 'Free shipping'", async () => {
    const order = await paidWithCode("SHIPFREE", 2000, { rateId: overnightId });
    expect(await orderRow(t.db, order.orderId)).toMatchObject({ discountKind: "free_shipping", shippingCents: 2500 });
    const seen = await printed(order.orderId, order.orderNumber);
    expect(seen.admin.slice(1, 3)).toEqual([
      ["Discount (SHIPFREE)", `${MINUS}$0.00`],
      ["Shipping (Overnight)", "$25.00"],
    ]);
    expect(seen.shopper.slice(1, 3)).toEqual(seen.admin.slice(1, 3));
    expect(seen.mailText).not.toContain("Free shipping");
  });
});
