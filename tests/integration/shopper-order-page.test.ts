import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action as orderPageAction, loader as orderPageLoader } from "~/routes/account/order";
import { loader as profileLoader } from "~/routes/account/profile";
import type { Db } from "~/server/platform/db/client.server";
import { orderItems, orders, products, testPaymentSessions } from "~/server/platform/db/schema";
import { orderLinkToken, orderPageUrl } from "~/server/commerce/orders/order-link.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { openCheckout } from "../factories/orders";
import { makeProduct, type ProductRow } from "../factories/products";
import { makeAdmin, makeCustomer, requestAs, sessionCookie } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { get, post, run } from "./accounts-helpers";
import { action as adminOrderAction } from "~/routes/admin/orders/order";
import { args, settle } from "./admin-catalog-helpers";
import { moveNow, orderRow } from "./admin-orders-helpers";

const t = useTestDatabase();

/** A paid order made through the real checkout and payment confirmation. */
async function paidOrder(db: Db, lines: [ProductRow, number][], opts: { userId?: string | null } = {}) {
  const checkout = await openCheckout(db, lines, { userId: opts.userId ?? null });
  await db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_page" }).where(eq(testPaymentSessions.id, checkout.sessionId));
  const outcome = await confirmPayment(db, checkout.sessionId);
  if (outcome.state !== "paid") throw new Error(`not paid: ${outcome.state}`);
  return orderRow(db, checkout.orderId);
}

/** The admin's 'Mark as shipped' form, posted with these fields. */
async function ship(db: Db, admin: { id: string }, orderId: string, fields: Record<string, string>) {
  const body = new URLSearchParams({ intent: "status", to: "shipped", version: String((await orderRow(db, orderId)).version), ...fields });
  const request = await requestAs(db, admin, `/admin/orders/${orderId}`, { method: "POST", body });
  return settle(() => adminOrderAction(args(request, { id: orderId })));
}

const open = async (path: string, cookie?: string) => {
  const url = new URL(path, "http://localhost:3000");
  const orderNumber = decodeURIComponent(url.pathname.split("/").at(-1)!);
  return run(orderPageLoader, get(path, { cookie }), { orderNumber });
};

const buyAgainAt = async (path: string, cookie?: string) => {
  const url = new URL(path, "http://localhost:3000");
  const orderNumber = decodeURIComponent(url.pathname.split("/").at(-1)!);
  return run(orderPageAction, post(path, { intent: "buy-again" }, { cookie }), { orderNumber });
};

describe("the shopper's order page", () => {
  it("shows its signed-in owner the status and timeline, the lines with pictures, every money line and the address; the Orders tab links to it", async () => {
    const shopper = await makeCustomer(t.db);
    const sheet = await makeProduct(t.db, { name: "Linen Sheet", priceCents: 4000, imageUrl: "https://images.example.test/sheet.jpg" });
    const order = await paidOrder(t.db, [[sheet, 2]], { userId: shopper.id });
    const cookie = await sessionCookie(t.db, shopper.id);

    const page = await open(`/profile/orders/${order.orderNumber}`, cookie);
    expect(page.status).toBe(200);
    const o = page.data.order;
    expect(o).toMatchObject({ orderNumber: order.orderNumber, status: "processing", statusText: "Paid: being prepared" });
    expect(o.lines).toEqual([
      expect.objectContaining({ name: "Linen Sheet", quantity: 2, unitPriceCents: 4000, lineTotalCents: 8000, imageUrl: "https://images.example.test/sheet.jpg", productId: sheet.id }),
    ]);
    expect(o).toMatchObject({ subtotalCents: 8000, totalAmountCents: order.totalAmountCents, shippingName: order.shippingName });
    expect(o.address).toEqual({ name: "Casey Buyer", phone: "", address: "1 Linen Lane", city: "Springfield", state: "IL", zipCode: "62701", country: "US" });
    expect(o.timeline.map((s: { key: string; done: boolean }) => [s.key, s.done])).toEqual([
      ["placed", true],
      ["paid", true],
      ["shipped", false],
      ["delivered", false],
    ]);
    expect(o.shipment).toBeNull();
    // Nothing but the order: no email, no ids of the account, no payment references.
    expect(JSON.stringify(page.data)).not.toContain(order.email);
    expect(JSON.stringify(page.data)).not.toContain("test_pi_page");

    const profile = await run(profileLoader, get("/profile?tab=orders", { cookie }));
    expect(profile.data.orders.map((r: { orderNumber: string }) => r.orderNumber)).toEqual([order.orderNumber]);
  });

  it("opens for a guest through the signed link of the confirmation mail, and only for that order", async () => {
    const product = await makeProduct(t.db);
    const order = await paidOrder(t.db, [[product, 1]]);
    const other = await paidOrder(t.db, [[product, 1]]);
    const link = orderPageUrl(order);
    expect(link).toMatch(new RegExp(`^/profile/orders/${order.orderNumber}\\?t=[A-Za-z0-9_-]{43}$`));

    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.data.order.orderNumber).toBe(order.orderNumber);
    expect(page.data.signedIn).toBe(false);

    // The same token on another order's number opens nothing.
    const moved = await open(`/profile/orders/${other.orderNumber}?t=${orderLinkToken(order)}`);
    expect(moved.status).toBe(404);
  });

  it("answers every refusal with the same 404: a tampered token, a guessed number, someone else's order signed in", async () => {
    const owner = await makeCustomer(t.db);
    const stranger = await makeCustomer(t.db);
    const product = await makeProduct(t.db);
    const order = await paidOrder(t.db, [[product, 1]], { userId: owner.id });
    const token = orderLinkToken(order);
    const flipped = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    const strangerCookie = await sessionCookie(t.db, stranger.id);
    const missing = "ORD-20990101-ZZZZ";

    const refusals = [
      await open(`/profile/orders/${order.orderNumber}?t=${flipped}`),
      await open(`/profile/orders/${order.orderNumber}?t=${token.slice(0, 20)}`),
      await open(`/profile/orders/${order.orderNumber}?t=${token}x`),
      await open(`/profile/orders/${order.orderNumber}?t=`, strangerCookie),
      await open(`/profile/orders/${order.orderNumber}`, strangerCookie),
      await open(`/profile/orders/${missing}`, strangerCookie),
      await open(`/profile/orders/${missing}?t=${token}`),
      await open(`/profile/orders/${encodeURIComponent("'; drop table orders; --")}?t=${token}`),
    ];
    const shape = (r: { status: number; data: unknown; location: string | null }) => ({ status: r.status, data: r.data, location: r.location });
    for (const r of refusals) expect(shape(r)).toEqual(shape(refusals[5]!));
    expect(refusals[5]!.status).toBe(404);

    // Buy again on someone else's order is refused the same way.
    expect((await buyAgainAt(`/profile/orders/${order.orderNumber}`, strangerCookie)).status).toBe(404);
    expect((await buyAgainAt(`/profile/orders/${order.orderNumber}?t=${flipped}`)).status).toBe(404);
  });

  it("asks a signed-out visitor without a link to sign in, for a real order and a made-up one alike", async () => {
    const product = await makeProduct(t.db);
    const order = await paidOrder(t.db, [[product, 1]]);
    const real = await open(`/profile/orders/${order.orderNumber}`);
    const fake = await open(`/profile/orders/ORD-20990101-ZZZZ`);
    expect(real.status).toBe(302);
    expect(real.location).toBe(`/auth?redirectTo=${encodeURIComponent(`/profile/orders/${order.orderNumber}`)}`);
    expect(fake.status).toBe(302);
    expect(fake.location).toBe(`/auth?redirectTo=${encodeURIComponent("/profile/orders/ORD-20990101-ZZZZ")}`);
  });

  it("shows the shipment: carrier, tracking number and the carrier's link, on the timeline's Shipped step", async () => {
    const admin = await makeAdmin(t.db);
    const product = await makeProduct(t.db);
    const order = await paidOrder(t.db, [[product, 1]]);
    const res = await ship(t.db, admin, order.id, { carrier: "ups", trackingNumber: "1z 999 aa1 0123456784" });
    expect(res.status).toBe(200);
    const row = await orderRow(t.db, order.id);
    expect(row).toMatchObject({ status: "shipped", carrier: "ups", trackingNumber: "1Z999AA10123456784", trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784" });

    const page = await open(orderPageUrl(order));
    expect(page.data.order.statusText).toBe("Shipped");
    expect(page.data.order.shipment).toEqual({ carrierName: "UPS", trackingNumber: "1Z999AA10123456784", trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784" });
    expect(page.data.order.timeline.find((s: { key: string }) => s.key === "shipped")).toMatchObject({ done: true, at: expect.any(String) });

    await moveNow(t.db, admin, order.id, "completed");
    const done = await open(orderPageUrl(order));
    expect(done.data.order.statusText).toBe("Delivered");
    expect(done.data.order.timeline.map((s: { key: string; done: boolean }) => [s.key, s.done])).toEqual([
      ["placed", true],
      ["paid", true],
      ["shipped", true],
      ["delivered", true],
    ]);
  });

  it("shows a cancelled and refunded order as such", async () => {
    const admin = await makeAdmin(t.db);
    const owner = await makeCustomer(t.db);
    const product = await makeProduct(t.db);
    const order = await paidOrder(t.db, [[product, 1]], { userId: owner.id });
    await moveNow(t.db, admin, order.id, "cancelled", { refund: "yes" });
    const page = await open(`/profile/orders/${order.orderNumber}`, await sessionCookie(t.db, owner.id));
    expect(page.data.order.statusText).toBe("Cancelled and refunded");
    expect(page.data.order.timeline.map((s: { key: string }) => s.key)).toEqual(["placed", "paid", "cancelled", "refunded"]);
  });
});

describe("marking shipped with a carrier", () => {
  const shipForm = async (fields: Record<string, string>) => {
    const admin = await makeAdmin(t.db);
    const product = await makeProduct(t.db);
    const order = await paidOrder(t.db, [[product, 1]]);
    const res = await ship(t.db, admin, order.id, fields);
    return { res, row: await orderRow(t.db, order.id) };
  };

  it("builds each named carrier's link from the number, and takes 'Other' with its own https link", async () => {
    for (const [carrier, url] of [
      ["usps", "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000"],
      ["fedex", "https://www.fedex.com/fedextrack/?trknbr=9400100000000000000000"],
      ["dhl", "https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=9400100000000000000000"],
    ] as const) {
      const { res, row } = await shipForm({ carrier, trackingNumber: "9400 1000 0000 0000 0000 00" });
      expect(res.status).toBe(200);
      expect(row).toMatchObject({ carrier, trackingUrl: url });
    }
    const other = await shipForm({ carrier: "other", trackingNumber: "", trackingUrl: "https://track.parcel.example/abc?x=1" });
    expect(other.res.status).toBe(200);
    expect(other.row).toMatchObject({ carrier: "other", trackingNumber: null, trackingUrl: "https://track.parcel.example/abc?x=1" });
  });

  it("refuses what cannot make a working link, with a message, and leaves the order as it was", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ carrier: "ups", trackingNumber: "" }, "Enter the tracking number: UPS's tracking link is made from it."],
      [{ carrier: "ups", trackingNumber: "1Z<script>" }, "A tracking number has only letters, digits and hyphens."],
      [{ carrier: "ups", trackingNumber: "1Z" }, "The tracking number is too short (4 characters at least)."],
      [{ carrier: "other", trackingNumber: "ABC123" }, "Enter the address of the carrier's tracking page (https://…)."],
      [{ carrier: "other", trackingUrl: "javascript:alert(1)" }, "The tracking address must start with https:// or http://."],
      [{ carrier: "other", trackingUrl: "ftp://files.example/track" }, "The tracking address must start with https:// or http://."],
      [{ carrier: "pigeon", trackingNumber: "ABC123" }, "Choose UPS, USPS, FedEx, DHL or Other."],
    ];
    for (const [fields, message] of cases) {
      const { res, row } = await shipForm(fields);
      expect(res).toMatchObject({ status: 400, body: { ok: false, message } });
      expect(row).toMatchObject({ status: "processing", carrier: null, trackingNumber: null, trackingUrl: null });
    }
  });
});

describe("Buy again", () => {
  it("adds the lines still for sale at today's price, capped by the stock, and names the others with the reason", async () => {
    const owner = await makeCustomer(t.db);
    const same = await makeProduct(t.db, { name: "Same Pillow", priceCents: 2000 });
    const pricier = await makeProduct(t.db, { name: "Pricier Throw", priceCents: 3000 });
    const scarce = await makeProduct(t.db, { name: "Scarce Quilt", stockQuantity: 10 });
    const gone = await makeProduct(t.db, { name: "Gone Towel" });
    const empty = await makeProduct(t.db, { name: "Empty Robe" });
    const deleted = await makeProduct(t.db, { name: "Deleted Mat" });
    const order = await paidOrder(t.db, [[same, 1], [pricier, 2], [scarce, 5], [gone, 1], [empty, 1], [deleted, 1]], { userId: owner.id });

    await t.db.update(products).set({ priceCents: 3500 }).where(eq(products.id, pricier.id));
    await t.db.update(products).set({ stockQuantity: 3 }).where(eq(products.id, scarce.id));
    await t.db.update(products).set({ active: false }).where(eq(products.id, gone.id));
    await t.db.update(products).set({ stockQuantity: 0 }).where(eq(products.id, empty.id));
    await t.db.update(orderItems).set({ productId: null }).where(eq(orderItems.productId, deleted.id));
    await t.db.delete(products).where(eq(products.id, deleted.id));

    const res = await buyAgainAt(`/profile/orders/${order.orderNumber}`, await sessionCookie(t.db, owner.id));
    expect(res.status).toBe(200);
    const { added, skipped } = res.data.buyAgain;
    const byName = Object.fromEntries(added.map((l: { name: string }) => [l.name, l]));
    expect(Object.keys(byName).sort()).toEqual(["Pricier Throw", "Same Pillow", "Scarce Quilt"]);
    expect(byName["Same Pillow"]).toMatchObject({ id: same.id, quantity: 1, priceCents: 2000, notes: [] });
    expect(byName["Pricier Throw"]).toMatchObject({ quantity: 2, priceCents: 3500, notes: ["Now $35.00 (you paid $30.00)."] });
    expect(byName["Scarce Quilt"]).toMatchObject({ quantity: 3, maxQuantity: 3, notes: ["Only 3 left in stock (you ordered 5)."] });
    expect(skipped.map((s: { reason: string }) => s.reason).sort()).toEqual([
      '"Deleted Mat" is no longer sold.',
      '"Empty Robe" is out of stock.',
      '"Gone Towel" is no longer available.',
    ]);
  });

  it("works for a guest through the signed link, and refuses an unknown request", async () => {
    const product = await makeProduct(t.db, { name: "Guest Blanket" });
    const order = await paidOrder(t.db, [[product, 2]]);
    const res = await buyAgainAt(orderPageUrl(order));
    expect(res.data.buyAgain.added).toEqual([expect.objectContaining({ name: "Guest Blanket", quantity: 2 })]);
    const odd = await run(orderPageAction, post(orderPageUrl(order), { intent: "refund-me" }), { orderNumber: order.orderNumber });
    expect(odd.status).toBe(400);
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.status).toBe("processing");
  });
});
