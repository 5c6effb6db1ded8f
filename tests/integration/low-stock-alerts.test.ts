import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, orders, products, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { releaseOrderStock } from "~/server/commerce/settlement/stock.server";
import { payWithTestCard } from "~/server/commerce/settlement/test-payments.server";
import { saveLowStockDefault } from "~/server/catalog/products/inventory-settings.server";
import { updateProduct } from "~/server/catalog/products/admin-products.server";
import { openCheckout, stockOf } from "../factories/orders";
import { makeProduct, type ProductRow } from "../factories/products";
import { useTestDatabase } from "../setup/database";
import { productForm } from "./admin-catalog-helpers";

const t = useTestDatabase();

const CARD = { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" };

/** A real sale: the checkout, then the test payment page's Pay button. Returns the order's id. */
async function sell(product: ProductRow, quantity: number) {
  const opened = await openCheckout(t.db, [[product, quantity]]);
  const result = await payWithTestCard(t.db, opened.sessionId, CARD);
  expect(result.kind).toBe("done");
  return opened.orderId;
}

/** The low-stock mails about one product, oldest first. */
async function alertsFor(product: ProductRow) {
  const mails = await t.db
    .select({ to: mailOutbox.to, subject: mailOutbox.subject, text: mailOutbox.text, kind: mailOutbox.kind })
    .from(mailOutbox)
    .where(eq(mailOutbox.kind, "low-stock"))
    .orderBy(mailOutbox.createdAt);
  return mails.filter((m) => m.subject.includes(product.name));
}

async function alertedAt(productId: string) {
  const [row] = await t.db.select({ at: products.lowStockAlertedAt }).from(products).where(eq(products.id, productId));
  return row!.at;
}

describe("low-stock alerts", () => {
  it("three sales crossing the shop's default threshold (5) send one mail to the shop's address", async () => {
    const duvet = await makeProduct(t.db, { name: "Alert Duvet A", sku: "ALERT-A", stockQuantity: 8 });
    await sell(duvet, 2); // 6 left: above 5, no mail
    expect(await alertsFor(duvet)).toEqual([]);
    await sell(duvet, 1); // 5 left: at the threshold
    await sell(duvet, 1); // 4
    await sell(duvet, 2); // 2
    expect(await stockOf(t.db, duvet.id)).toBe(2);
    const mails = await alertsFor(duvet);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: "hello@linenandloft.test", subject: "Low stock: Alert Duvet A (5 units left)" });
    expect(mails[0]!.text).toContain("SKU ALERT-A");
    expect(mails[0]!.text).toContain("Its low-stock threshold is 5.");
    expect(mails[0]!.text).toContain("/admin/products?stock=low");
    expect(await alertedAt(duvet.id)).not.toBeNull();
  });

  it("a restock above the threshold ends the crossing: the next fall sends a second mail", async () => {
    const pillow = await makeProduct(t.db, { name: "Alert Pillow B", stockQuantity: 6 });
    await sell(pillow, 2); // 4: first mail
    expect(await alertsFor(pillow)).toHaveLength(1);

    // Restocked to 5: still at the threshold, the crossing goes on.
    await t.db.update(products).set({ stockQuantity: 5 }).where(eq(products.id, pillow.id));
    expect(await alertedAt(pillow.id)).not.toBeNull();
    // The admin's edit to 20: above it, cleared.
    await updateProduct(t.db, pillow.id, productForm({ name: pillow.name, sku: pillow.sku, price: "25.00", stockQuantity: "20" }));
    expect(await alertedAt(pillow.id)).toBeNull();
    await sell(pillow, 10); // 10: no mail
    expect(await alertsFor(pillow)).toHaveLength(1);
    await sell(pillow, 6); // 4: the second crossing
    const mails = await alertsFor(pillow);
    expect(mails.map((m) => m.subject)).toEqual(["Low stock: Alert Pillow B (4 units left)", "Low stock: Alert Pillow B (4 units left)"]);
  });

  it("a cancelled order's stock given back above the threshold ends the crossing too", async () => {
    const throw_ = await makeProduct(t.db, { name: "Alert Throw C", stockQuantity: 7 });
    const orderId = await sell(throw_, 4); // 3: mail
    expect(await alertsFor(throw_)).toHaveLength(1);
    expect(await releaseOrderStock(t.db, orderId)).toBe(true); // back to 7
    expect(await stockOf(t.db, throw_.id)).toBe(7);
    expect(await alertedAt(throw_.id)).toBeNull();
    await sell(throw_, 3); // 4: mails again
    expect(await alertsFor(throw_)).toHaveLength(2);
  });

  it("sales crossing at the same moment send one mail", async () => {
    const sheet = await makeProduct(t.db, { name: "Alert Sheet D", stockQuantity: 12 });
    const opened = await Promise.all(Array.from({ length: 6 }, () => openCheckout(t.db, [[sheet, 2]])));
    const results = await Promise.all(opened.map((o) => payWithTestCard(t.db, o.sessionId, CARD)));
    expect(results.every((r) => r.kind === "done")).toBe(true);
    expect(await stockOf(t.db, sheet.id)).toBe(0);
    expect(await alertsFor(sheet)).toHaveLength(1);
  });

  it("never alerts about a product with unlimited stock", async () => {
    const candle = await makeProduct(t.db, { name: "Alert Candle E", unlimitedStock: true, stockQuantity: 0, lowStockThreshold: 100 });
    await sell(candle, 3);
    await sell(candle, 50);
    expect(await alertsFor(candle)).toEqual([]);
    expect(await alertedAt(candle.id)).toBeNull();
  });

  it("a product's own threshold overrides the shop's default, and the default is the shop's setting", async () => {
    const rug = await makeProduct(t.db, { name: "Alert Rug F", stockQuantity: 30, lowStockThreshold: 20 });
    await sell(rug, 5); // 25: above its own 20
    expect(await alertsFor(rug)).toEqual([]);
    await sell(rug, 5); // 20: at its own threshold, far above the default 5
    expect((await alertsFor(rug)).map((m) => m.subject)).toEqual(["Low stock: Alert Rug F (20 units left)"]);

    const lamp = await makeProduct(t.db, { name: "Alert Lamp G", stockQuantity: 10, lowStockThreshold: 0 });
    await sell(lamp, 9); // 1: its own threshold is 0
    expect(await alertsFor(lamp)).toEqual([]);
    await sell(lamp, 1); // 0
    expect(await alertsFor(lamp)).toHaveLength(1);

    // The shop's default raised to 8: a product without its own threshold follows it.
    await t.db.transaction((tx) => saveLowStockDefault(tx, 8));
    try {
      const quilt = await makeProduct(t.db, { name: "Alert Quilt H", stockQuantity: 10 });
      await sell(quilt, 2); // 8
      expect((await alertsFor(quilt)).map((m) => m.subject)).toEqual(["Low stock: Alert Quilt H (8 units left)"]);
    } finally {
      await t.db.transaction((tx) => saveLowStockDefault(tx, 5));
    }
  });

  it("an import that raises the stock above the threshold ends the crossing", async () => {
    const towel = await makeProduct(t.db, { name: "Alert Towel I", sku: "ALERT-TOWEL-I", stockQuantity: 5 });
    await sell(towel, 1); // 4: mail
    expect(await alertedAt(towel.id)).not.toBeNull();
    const { importProducts } = await import("~/server/catalog/import/run-import.server");
    const csv = `title,sku,price,stock_quantity\nAlert Towel I,ALERT-TOWEL-I,25.00,40\n`;
    await importProducts(t.db, (async function* () { yield Buffer.from(csv); })());
    expect(await stockOf(t.db, towel.id)).toBe(40);
    expect(await alertedAt(towel.id)).toBeNull();
  });

  it("the crossing's mark and its mail commit together: a mail that cannot be recorded takes the sale with it", async () => {
    const blanket = await makeProduct(t.db, { name: "Alert Blanket J", stockQuantity: 6 });
    const opened = await openCheckout(t.db, [[blanket, 3]]);
    // A failure at the commit of any transaction that recorded a low-stock mail.
    await t.db.execute(sql`
      create or replace function fail_low_stock_commit() returns trigger language plpgsql as $$
      begin raise exception 'injected failure at commit'; end $$`);
    await t.db.execute(sql`
      create constraint trigger fail_low_stock_commit after insert on mail_outbox deferrable initially deferred
      for each row when (new.kind = 'low-stock') execute function fail_low_stock_commit()`);
    try {
      await expect(payWithTestCard(t.db, opened.sessionId, CARD)).rejects.toThrow();
    } finally {
      await t.db.execute(sql`drop trigger fail_low_stock_commit on mail_outbox`);
    }
    // Nothing of the sale stayed: not paid, the stock untouched, no mark without its mail.
    const [order] = await t.db.select({ paymentStatus: orders.paymentStatus }).from(orders).where(eq(orders.id, opened.orderId));
    expect(order!.paymentStatus).toBe("unpaid");
    expect(await stockOf(t.db, blanket.id)).toBe(6);
    expect(await alertedAt(blanket.id)).toBeNull();
    expect(await alertsFor(blanket)).toEqual([]);

    // Paid again, it goes through with both.
    expect((await payWithTestCard(t.db, opened.sessionId, CARD)).kind).toBe("done");
    expect(await stockOf(t.db, blanket.id)).toBe(3);
    expect(await alertsFor(blanket)).toHaveLength(1);
    expect(await alertedAt(blanket.id)).not.toBeNull();
  });

  it("a payment confirmed by the result page or the webhook records the alert in the payment's own transaction", async () => {
    const shams = await makeProduct(t.db, { name: "Alert Shams K", stockQuantity: 4 });
    const opened = await openCheckout(t.db, [[shams, 1]]);
    await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_alert_k" }).where(eq(testPaymentSessions.id, opened.sessionId));
    expect((await confirmPayment(t.db, opened.sessionId)).state).toBe("paid");
    const [mail] = await t.db
      .select({ createdAt: mailOutbox.createdAt, subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, "low-stock"))
      .orderBy(sql`${mailOutbox.createdAt} desc`)
      .limit(1);
    expect(mail!.subject).toBe("Low stock: Alert Shams K (3 units left)");
    // now() is the transaction's start: the same instant means the same transaction.
    expect(mail!.createdAt.getTime()).toBe((await alertedAt(shams.id))!.getTime());
  });
});
