import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { MemoryRouter } from "react-router";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { OrdersList } from "~/components/account/orders-list";
import { orderMoneyRows, type OrderMoney } from "~/lib/order-money";
import { loader as profileLoader } from "~/routes/account/profile";
import { loader as exportLoader } from "~/routes/admin/orders/export";
import { createCheckout } from "~/server/commerce/checkout/create-checkout.server";
import { discountCodes, mailOutbox, shippingRates, shippingZones, taxRates, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { makeOrder } from "../factories/account-orders";
import { cartLines, shippingForm } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get } from "./admin-catalog-helpers";
import { openOrderPage, orderRow, paidOrder } from "./admin-orders-helpers";

const t = useTestDatabase();
let admin: TestUser;
let shopper: TestUser;
/** The order placed with a code, a paid shipping rate and tax, through the real checkout. */
let priced: { id: string; orderNumber: string; email: string };

const MINUS = "\u2212";
const pairs = (rows: { label: string; value: string }[]) => rows.map((r) => [r.label, r.value]);

/** Cells of a CSV where every cell is quoted (the export's form), line breaks inside cells kept. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      let cell = "";
      i++;
      for (;;) {
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else cell += text[i++];
      }
      cells.push(cell);
    } else {
      const end = text.slice(i).search(/[,\r\n]/);
      const stop = end === -1 ? text.length : i + end;
      cells.push(text.slice(i, stop));
      i = stop;
    }
    if (text[i] === ",") i++;
    else if (text[i] === "\r" || text[i] === "\n") {
      i += text[i] === "\r" && text[i + 1] === "\n" ? 2 : 1;
      records.push(cells);
      cells = [];
    }
  }
  if (cells.length) records.push(cells);
  return records;
}

async function exportFor(q: string) {
  const res = await get(t.db, exportLoader, admin, `/admin/orders/export?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  const [header, ...rows] = parseCsv(res.body);
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
}

beforeAll(async () => {
  admin = await makeAdmin(t.db);
  shopper = await makeCustomer(t.db);
  // The shop's pricing: a paid US rate, 7.25% tax in Illinois, a $5.00 code.
  const [zone] = await t.db.insert(shippingZones).values({ name: "United States", countries: ["US"] }).returning();
  const [express] = await t.db
    .insert(shippingRates)
    .values([
      { zoneId: zone!.id, name: "Ground", kind: "flat", priceCents: 499, position: 0 },
      { zoneId: zone!.id, name: "Express", kind: "flat", priceCents: 999, position: 1 },
    ])
    .returning()
    .then((rows) => rows.filter((r) => r.name === "Express"));
  await t.db.insert(taxRates).values({ country: "US", region: "IL", rateBasisPoints: 725 });
  await t.db.insert(discountCodes).values({ code: "SAVE5", kind: "fixed", amountCents: 500 });

  const product = await makeProduct(t.db, { name: "Linen Pillowcase", priceCents: 2500, stockQuantity: 10 });
  const result = await createCheckout(
    t.db,
    {
      lines: cartLines([product, 2]),
      form: shippingForm({ email: shopper.email, state: "IL" }),
      idempotencyKey: null,
      discountCode: "save5",
      shippingRateId: express!.id,
    },
    { userId: shopper.id, baseUrl: "http://localhost:3000" },
  );
  if (!result.ok) throw new Error(`checkout refused: ${JSON.stringify(result.refusal)}`);
  await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_money" }).where(eq(testPaymentSessions.id, result.sessionId));
  expect((await confirmPayment(t.db, result.sessionId)).state).toBe("paid");
  priced = { id: result.orderId, orderNumber: result.orderNumber, email: shopper.email };
});

describe("an order with a discount, paid shipping and tax", () => {
  // $50.00 of goods, SAVE5 takes $5.00, Express $9.99, 7.25% of $45.00 = $3.2625 → $3.26.
  const lines = [
    ["Subtotal", "$50.00"],
    ["Discount (SAVE5)", `${MINUS}$5.00`],
    ["Shipping (Express)", "$9.99"],
    ["Tax 7.25%", "$3.26"],
    ["Total", "$58.25"],
  ];

  it("stores the quote on the order", async () => {
    expect(await orderRow(t.db, priced.id)).toMatchObject({
      subtotalCents: 5000,
      discountCents: 500,
      discountCode: "SAVE5",
      shippingName: "Express",
      shippingCents: 999,
      taxName: "Tax",
      taxRateBasisPoints: 725,
      pricesIncludeTax: false,
      taxCents: 326,
      totalAmountCents: 5825,
    });
  });

  it("the admin order page gets every money line", async () => {
    const page = await openOrderPage(t.db, admin, priced.orderNumber);
    expect(page.status).toBe(200);
    const order = page.body.order;
    expect(order).toMatchObject({
      subtotalCents: 5000,
      discountCents: 500,
      discountCode: "SAVE5",
      shippingName: "Express",
      shippingCents: 999,
      taxName: "Tax",
      taxRateBasisPoints: 725,
      pricesIncludeTax: false,
      taxCents: 326,
      totalAmountCents: 5825,
    });
    expect(pairs(orderMoneyRows(order, { alwaysTax: true }))).toEqual(lines);
  });

  it("the shopper's Orders tab gets every money line, and shows them", async () => {
    const res = await get(t.db, profileLoader, shopper, "/profile");
    expect(res.status).toBe(200);
    const [order] = res.body.orders;
    expect(order).toMatchObject({ orderNumber: priced.orderNumber, discountCents: 500, discountCode: "SAVE5", shippingName: "Express", taxCents: 326, totalAmountCents: 5825 });
    expect(pairs(orderMoneyRows(order))).toEqual(lines);

    // Each order links to its own page, so the list renders inside a router.
    const html = renderToStaticMarkup(
      createElement(MemoryRouter, null, createElement(OrdersList, { orders: res.body.orders })),
    );
    // The card's total, then the lines it is made of.
    expect(html).toContain('<span class="font-semibold" data-testid="account-order-total">$58.25</span>');
    for (const [label, value] of lines.slice(0, -1)) {
      expect(html).toMatch(new RegExp(`<dt[^>]*>${label.replace(/[()]/g, "\\$&")}</dt><dd[^>]*>${value.replace("$", "\\$")}</dd>`));
    }
  });

  it("the orders CSV has the discount, its code, the shipping rate and the tax, beside the old columns", async () => {
    const [row] = await exportFor(priced.orderNumber);
    expect(row).toMatchObject({
      order_number: priced.orderNumber,
      subtotal: "50.00",
      discount: "5.00",
      discount_code: "SAVE5",
      shipping_name: "Express",
      shipping: "9.99",
      tax_name: "Tax 7.25%",
      tax: "3.26",
      total: "58.25",
      refunded: "0.00",
      net: "58.25",
      currency: "USD",
      payment_reference: "test_pi_money",
    });
    const res = await get(t.db, exportLoader, admin, "/admin/orders/export");
    expect(parseCsv(res.body)[0]).toEqual([
      "order_number",
      "created_at",
      "status",
      "payment_status",
      "first_name",
      "last_name",
      "email",
      "phone",
      "items",
      "subtotal",
      "discount",
      "discount_code",
      "shipping_name",
      "shipping",
      "tax_name",
      "tax",
      "total",
      "refunded",
      "net",
      "currency",
      "address",
      "city",
      "state",
      "zip_code",
      "country",
      "payment_reference",
    ]);
  });

  it("the confirmation mail in the outbox has every money line, in text and HTML", async () => {
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "order-confirmation"));
    expect(mail).toMatchObject({ to: priced.email, subject: `Order ${priced.orderNumber} confirmed` });
    expect(mail!.text).toContain(lines.map(([label, value]) => `${label}: ${value}`).join("\n"));
    // Each money line is one row of the mail's table: its label, then its amount.
    const rows = [...mail!.html!.matchAll(/<tr data-money="[a-z]+"><td[^>]*>([^<]*)<\/td><td[^>]*>([^<]*)<\/td><\/tr>/g)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(lines.map(([label, value]) => [label, value]));
  });
});

describe("other quotes", () => {
  const money = (o: Partial<OrderMoney>): OrderMoney => ({
    subtotalCents: 5000,
    discountCents: 0,
    discountCode: null,
    discountKind: null,
    shippingName: "Standard",
    shippingCents: 0,
    taxName: "Tax",
    taxRateBasisPoints: 0,
    pricesIncludeTax: false,
    taxCents: 0,
    totalAmountCents: 5000,
    ...o,
  });

  it("a fresh shop's order: shipping 'Free', tax $0.00 where it always showed, no discount row; the profile shows no tax row", async () => {
    // Back to a fresh shop's pricing: only the default 'Everywhere' zone (Standard, free), no tax.
    await t.db.delete(shippingZones).where(eq(shippingZones.name, "United States"));
    await t.db.delete(taxRates);
    const { orderId } = await paidOrder(t.db, { userId: shopper.id, quantity: 2, priceCents: 2500 });
    const order = (await openOrderPage(t.db, admin, orderId)).body.order;
    expect(pairs(orderMoneyRows(order, { alwaysTax: true }))).toEqual([
      ["Subtotal", "$50.00"],
      ["Shipping (Standard)", "Free"],
      ["Tax", "$0.00"],
      ["Total", "$50.00"],
    ]);
    const mine = (await get(t.db, profileLoader, shopper, "/profile")).body.orders.find((o: { id: string }) => o.id === orderId);
    expect(pairs(orderMoneyRows(mine))).toEqual([
      ["Subtotal", "$50.00"],
      ["Shipping (Standard)", "Free"],
      ["Total", "$50.00"],
    ]);
    const row = await orderRow(t.db, orderId);
    const [mail] = (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, row.email))).filter((m) => m.kind === "order-confirmation");
    expect(mail!.text).toContain("Subtotal: $50.00\nShipping (Standard): Free\nTax: $0.00\nTotal: $50.00");
    const [csv] = await exportFor(row.orderNumber);
    expect(csv).toMatchObject({ discount: "0.00", discount_code: "", shipping_name: "Standard", shipping: "0.00", tax_name: "Tax", tax: "0.00", total: "50.00" });
  });

  it("tax included in the prices is labelled '(included)' and not added; a free-shipping code reads 'Free shipping'", async () => {
    const vat = await makeOrder(t.db, {
      userId: shopper.id,
      subtotalCents: 6000,
      discountCode: "SHIPFREE",
      discountKind: "free_shipping",
      discountCents: 0,
      shippingName: "Royal Mail",
      shippingCents: 0,
      taxName: "VAT",
      taxRateBasisPoints: 2000,
      pricesIncludeTax: true,
      taxCents: 1000,
      totalAmountCents: 6000,
      email: "vat@money.test",
    });
    const expected = [
      ["Subtotal", "$60.00"],
      ["Discount (SHIPFREE)", "Free shipping"],
      ["Shipping (Royal Mail)", "Free"],
      ["VAT 20% (included)", "$10.00"],
      ["Total", "$60.00"],
    ];
    expect(pairs(orderMoneyRows((await openOrderPage(t.db, admin, vat.id)).body.order, { alwaysTax: true }))).toEqual(expected);
    const mine = (await get(t.db, profileLoader, shopper, "/profile")).body.orders.find((o: { id: string }) => o.id === vat.id);
    expect(pairs(orderMoneyRows(mine))).toEqual(expected);
    const [csv] = await exportFor("vat@money.test");
    expect(csv).toMatchObject({ discount: "0.00", discount_code: "SHIPFREE", shipping_name: "Royal Mail", tax_name: "VAT 20% (included)", tax: "10.00", total: "60.00" });
  });

  it("a tax row shows on the profile whenever a rate was set, even at $0.00", () => {
    expect(pairs(orderMoneyRows(money({ taxRateBasisPoints: 500 }))).map(([l]) => l)).toEqual(["Subtotal", "Shipping (Standard)", "Tax 5%", "Total"]);
    expect(pairs(orderMoneyRows(money({})))).not.toContainEqual(["Tax", "$0.00"]);
    expect(pairs(orderMoneyRows(money({ shippingName: "", discountCents: 250 })))).toEqual([
      ["Subtotal", "$50.00"],
      ["Discount", `${MINUS}$2.50`],
      ["Shipping", "Free"],
      ["Total", "$50.00"],
    ]);
  });
});
