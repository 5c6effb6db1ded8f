import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action, loader } from "~/routes/resources/saved-cart";
import { cartLines, orders, products, testPaymentSessions } from "~/server/platform/db/schema";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { payWithTestCard } from "~/server/commerce/settlement/test-payments.server";
import { openCheckout } from "../factories/orders";
import { makeProduct, makeProducts } from "../factories/products";
import { makeCustomer, requestAs } from "../factories/users";
import { runShopJobs } from "../factories/jobs";
import { useTestDatabase } from "../setup/database";
import { args } from "./route-args";

/**
 * /api/cart, the signed-in shopper's saved cart (docs/rules/after-sale.md, The cart of a signed-in
 * shopper): saving, reading, merging on sign-in, and every bad input answered with a message.
 */
const t = useTestDatabase();

/** "save" and "merge" are POSTs with that mode; GET reads. */
async function call(as: { id: string } | null, how: "GET" | "save" | "merge" | "raw", body?: unknown) {
  const method = how === "GET" ? "GET" : "POST";
  if (how === "save" || how === "merge") body = { mode: how, ...(body as object) };
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const request = await requestAs(t.db, as, "/api/cart", init);
  const res = (method === "GET" ? await loader(args(request)) : await action(args(request))) as Response;
  return { status: res.status, body: await res.json(), cacheControl: res.headers.get("cache-control") };
}

const line = (p: { id: string }, quantity: number, name?: string) => ({ id: p.id, quantity, ...(name ? { name } : {}) });

async function savedOf(userId: string) {
  return t.db.select({ id: cartLines.productId, quantity: cartLines.quantity }).from(cartLines).where(eq(cartLines.userId, userId));
}

describe("saving and reading the cart", () => {
  it("saving replaces the saved cart, GET gives it back in order with the products as they are now, and only to its shopper", async () => {
    const [a, b] = await makeProducts(t.db, 2, (i) => ({ name: `Saved ${i}`, priceCents: 1000 + i }));
    const shopper = await makeCustomer(t.db);
    const other = await makeCustomer(t.db);
    expect(await call(shopper, "save", { lines: [line(b!, 2), line(a!, 1)] })).toMatchObject({ status: 200, body: { saved: 2 } });
    const read = await call(shopper, "GET");
    expect(read.status).toBe(200);
    expect(read.cacheControl).toBe("no-store");
    expect(read.body.items.map((i: { name: string; quantity: number }) => [i.name, i.quantity])).toEqual([
      ["Saved 1", 2],
      ["Saved 0", 1],
    ]);
    expect(read.body.items[0]).toMatchObject({ id: b!.id, priceCents: 1001, stockQuantity: 10, unlimitedStock: false });
    expect((await call(other, "GET")).body).toEqual({ items: [], dropped: [], owner: other.id });

    await call(shopper, "save", { lines: [line(a!, 5)] });
    expect(await savedOf(shopper.id)).toEqual([{ id: a!.id, quantity: 5 }]);
    await call(shopper, "save", { lines: [] });
    expect(await savedOf(shopper.id)).toEqual([]);
  });

  it("a signed-out visitor gets 401 with a message for every method", async () => {
    for (const method of ["GET", "save", "merge"] as const) {
      const res = await call(null, method, method === "GET" ? undefined : { lines: [] });
      expect(res, method).toMatchObject({ status: 401, body: { error: "Sign in to keep your cart on your account." } });
    }
  });

  it("refuses bad input with a message: 101 lines, quantities 0, 100 and 1.5, a bad id, not JSON, a wrong shape, an unknown mode, a body too large", async () => {
    const shopper = await makeCustomer(t.db);
    const p = await makeProduct(t.db);
    const many = await makeProducts(t.db, 101);
    expect(await call(shopper, "save", { lines: many.map((m) => line(m, 1)) })).toMatchObject({
      status: 400,
      body: { error: "A saved cart holds at most 100 products." },
    });
    for (const quantity of [0, 100, 1.5, -1, "2"]) {
      expect(await call(shopper, "save", { lines: [{ id: p.id, quantity }] }), String(quantity)).toMatchObject({
        status: 400,
        body: { error: "Quantities must be whole numbers from 1 to 99." },
      });
    }
    expect((await call(shopper, "save", { lines: [{ id: "1; drop table", quantity: 1 }] })).body).toEqual({ error: "A product id is not valid." });
    expect(await call(shopper, "raw", "{not json")).toMatchObject({ status: 400, body: { error: "The request body must be JSON." } });
    expect(await call(shopper, "raw", { items: [] })).toMatchObject({ status: 400, body: { error: "Send { lines: [{ id, quantity }] }." } });
    expect(await call(shopper, "raw", { mode: "delete", lines: [] })).toMatchObject({ status: 400, body: { error: 'mode is "save" or "merge".' } });
    expect((await call(shopper, "save", { lines: [], pad: "x".repeat(600_000) })).status).toBe(413);
    expect(await savedOf(shopper.id)).toEqual([]);
  });

  it("does not keep products that are gone or inactive", async () => {
    const shopper = await makeCustomer(t.db);
    const kept = await makeProduct(t.db);
    const inactive = await makeProduct(t.db, { active: false });
    await call(shopper, "save", { lines: [line(kept, 1), line(inactive, 1), { id: "00000000-0000-4000-8000-000000000000", quantity: 1 }] });
    expect(await savedOf(shopper.id)).toEqual([{ id: kept.id, quantity: 1 }]);
  });

  it("reading a saved cart whose product was since deactivated or sold down reports it", async () => {
    const shopper = await makeCustomer(t.db);
    const later = await makeProduct(t.db, { name: "Later Inactive" });
    const low = await makeProduct(t.db, { name: "Nearly Gone", stockQuantity: 9 });
    await call(shopper, "save", { lines: [line(later, 1), line(low, 5)] });
    await t.db.update(products).set({ active: false }).where(eq(products.id, later.id));
    await t.db.update(products).set({ stockQuantity: 2 }).where(eq(products.id, low.id));
    const read = await call(shopper, "GET");
    expect(read.body.items.map((i: { id: string; quantity: number }) => [i.id, i.quantity])).toEqual([[low.id, 2]]);
    expect(read.body.dropped).toEqual([
      { id: later.id, name: "Later Inactive", reason: "unavailable" },
      { id: low.id, name: "Nearly Gone", reason: "reduced", quantity: 2 },
    ]);
  });
});

describe("merging this device's cart on signing in", () => {
  it("the same product takes the larger quantity capped by stock; a deactivated one is dropped and named; the result is saved", async () => {
    const shopper = await makeCustomer(t.db);
    const sheet = await makeProduct(t.db, { name: "Percale Sheet", stockQuantity: 4 });
    const pillow = await makeProduct(t.db, { name: "Down Pillow", stockQuantity: 10 });
    const throwBlanket = await makeProduct(t.db, { name: "Wool Throw" });
    await call(shopper, "save", { lines: [line(sheet, 2), line(throwBlanket, 1)] });
    await t.db.update(products).set({ active: false }).where(eq(products.id, throwBlanket.id));

    const merged = await call(shopper, "merge", { lines: [line(sheet, 7, "Percale Sheet"), line(pillow, 3, "Down Pillow")] });
    expect(merged.status).toBe(200);
    expect(merged.body.items.map((i: { name: string; quantity: number }) => [i.name, i.quantity])).toEqual([
      ["Percale Sheet", 4],
      ["Down Pillow", 3],
    ]);
    expect(merged.body.dropped).toEqual([
      { id: sheet.id, name: "Percale Sheet", reason: "reduced", quantity: 4 },
      { id: throwBlanket.id, name: "Wool Throw", reason: "unavailable" },
    ]);
    expect(await savedOf(shopper.id)).toEqual(
      expect.arrayContaining([
        { id: sheet.id, quantity: 4 },
        { id: pillow.id, quantity: 3 },
      ]),
    );
    expect(await savedOf(shopper.id)).toHaveLength(2);
  });

  it("a product deleted since this device added it is dropped under the name the device knew", async () => {
    const shopper = await makeCustomer(t.db);
    const gone = await makeProduct(t.db);
    await t.db.delete(products).where(eq(products.id, gone.id));
    const merged = await call(shopper, "merge", { lines: [line(gone, 1, "Retired Quilt")] });
    expect(merged.body).toEqual({ items: [], dropped: [{ id: gone.id, name: "Retired Quilt", reason: "unavailable" }], owner: shopper.id });
  });

  it("500 lines: the saved cart keeps the first 100 that can be bought and reports the other 400", async () => {
    const shopper = await makeCustomer(t.db);
    const many = await makeProducts(t.db, 500, (i) => ({ active: i % 100 !== 5, stockQuantity: i % 100 === 7 ? 0 : 10 }));
    const merged = await call(shopper, "merge", { lines: many.map((m) => line(m, 2)) });
    expect(merged.status).toBe(200);
    expect(merged.body.items).toHaveLength(100);
    const reasons = merged.body.dropped.reduce((n: Record<string, number>, d: { reason: string }) => ({ ...n, [d.reason]: (n[d.reason] ?? 0) + 1 }), {});
    expect(reasons).toEqual({ unavailable: 5, out_of_stock: 5, limit: 390 });
    expect(await savedOf(shopper.id)).toHaveLength(100);
    // More than a browser can hold is refused outright.
    const tooMany = await call(shopper, "merge", { lines: Array.from({ length: 1001 }, () => line(many[0]!, 1)) });
    expect(tooMany).toMatchObject({ status: 400, body: { error: "At most 1000 products can be merged at once." } });
  });

  it("two devices merging at once both end in the saved cart", async () => {
    const shopper = await makeCustomer(t.db);
    const [a, b] = await makeProducts(t.db, 2);
    await Promise.all([call(shopper, "merge", { lines: [line(a!, 1)] }), call(shopper, "merge", { lines: [line(b!, 2)] })]);
    expect(await savedOf(shopper.id)).toEqual(expect.arrayContaining([{ id: a!.id, quantity: 1 }, { id: b!.id, quantity: 2 }]));
  });
});

describe("paying empties what was bought from the saved cart", () => {
  const CARD = { cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" };
  const DECLINED = { cardNumber: "4000000000000002", expiry: "12/34", cvc: "123" };

  it("the paid order's products leave the shopper's saved cart by a job the payment's transaction adds; what was not bought stays", async () => {
    const [sheet, pillow, throw_] = await makeProducts(t.db, 3, (i) => ({ name: `Bought ${i}`, stockQuantity: 10 }));
    const shopper = await makeCustomer(t.db);
    // The paying device's empty-cart save never arrived (the tab was closed on the payment page).
    await call(shopper, "save", { lines: [line(sheet!, 2), line(pillow!, 1), line(throw_!, 1)] });
    const declined = await openCheckout(t.db, [[sheet!, 2], [pillow!, 1]], { userId: shopper.id });
    expect((await payWithTestCard(t.db, declined.sessionId, DECLINED)).kind).toBe("done");
    await runShopJobs(t.db);
    // Not paid: the saved cart is untouched.
    expect(await savedOf(shopper.id)).toHaveLength(3);

    const paid = await openCheckout(t.db, [[sheet!, 2], [pillow!, 1]], { userId: shopper.id });
    expect((await payWithTestCard(t.db, paid.sessionId, CARD)).kind).toBe("done");
    // Decided and committed; the clean-up is the job's, done after the commit.
    expect(await savedOf(shopper.id)).toHaveLength(3);
    await runShopJobs(t.db);
    expect(await savedOf(shopper.id)).toEqual([{ id: throw_!.id, quantity: 1 }]);
    // Another device signing in with nothing in its cart gets only what was not bought.
    const merged = await call(shopper, "merge", { lines: [] });
    expect(merged.body.items.map((i: { name: string }) => i.name)).toEqual(["Bought 2"]);
  });

  it("through the result page or the webhook too; a guest's order or another shopper's cart is never touched", async () => {
    const [duvet] = await makeProducts(t.db, 1, () => ({ name: "Bought by webhook", stockQuantity: 10 }));
    const shopper = await makeCustomer(t.db);
    const other = await makeCustomer(t.db);
    await call(shopper, "save", { lines: [line(duvet!, 1)] });
    await call(other, "save", { lines: [line(duvet!, 3)] });

    const guest = await openCheckout(t.db, [[duvet!, 1]]);
    expect((await payWithTestCard(t.db, guest.sessionId, CARD)).kind).toBe("done");
    await runShopJobs(t.db);
    expect(await savedOf(shopper.id)).toEqual([{ id: duvet!.id, quantity: 1 }]);

    const checkout = await openCheckout(t.db, [[duvet!, 1]], { userId: shopper.id });
    await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_saved" }).where(eq(testPaymentSessions.id, checkout.sessionId));
    expect((await confirmPayment(t.db, checkout.sessionId)).state).toBe("paid");
    await runShopJobs(t.db);
    expect(await savedOf(shopper.id)).toEqual([]);
    expect(await savedOf(other.id)).toEqual([{ id: duvet!.id, quantity: 3 }]);
  });

  it("a payment that cannot complete the order (sold out) leaves the saved cart as it was", async () => {
    const [last] = await makeProducts(t.db, 1, () => ({ name: "Last one", stockQuantity: 1 }));
    const shopper = await makeCustomer(t.db);
    const first = await openCheckout(t.db, [[last!, 1]]);
    const late = await openCheckout(t.db, [[last!, 1]], { userId: shopper.id });
    await call(shopper, "save", { lines: [line(last!, 1)] });
    expect((await payWithTestCard(t.db, first.sessionId, CARD)).kind).toBe("done");
    expect((await payWithTestCard(t.db, late.sessionId, CARD)).kind).toBe("done");
    await runShopJobs(t.db);
    const [order] = await t.db.select({ status: orders.status }).from(orders).where(eq(orders.id, late.orderId));
    expect(order!.status).toBe("cancelled");
    expect(await savedOf(shopper.id)).toEqual([{ id: last!.id, quantity: 1 }]);
  });
});
