import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ORDER_LINK_SENT } from "~/lib/returns";
import { action as returnAction, loader as returnLoader } from "~/routes/account/order-return";
import { action as withdrawAction, loader as withdrawLoader } from "~/routes/account/order-withdraw";
import { loader as orderLoader } from "~/routes/account/order";
import { action as footerAction } from "~/routes/store/withdraw";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { orderLinkToken } from "~/server/commerce/orders/order-link.server";
import { saveReturnsSetting } from "~/server/commerce/returns/returns-setting.server";
import { mailOutbox, orderItems, orderReturns } from "~/server/platform/db/schema";
import { makeAdmin, makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { args, settle } from "./admin-catalog-helpers";
import { orderRow, paidOrder } from "./admin-orders-helpers";

const t = useTestDatabase();

async function shippedOrder(userId: string | null = null) {
  const admin = await makeAdmin(t.db);
  const { orderId } = await paidOrder(t.db, { quantity: 2, userId });
  const before = await orderRow(t.db, orderId);
  await changeOrderStatus(t.db, { orderId, to: "shipped", expectedVersion: before.version, actor: { id: admin.id, name: "Ada", email: admin.email }, trackingNumber: "1Z999AA10123456784" });
  const order = await orderRow(t.db, orderId);
  const [item] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  return { order, item: item!, token: orderLinkToken(order) };
}

const form = (fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  return body;
};

describe("the shopper's return and withdrawal pages", () => {
  it("a guest with the signed link asks for a return and is sent back to the order page, which lists it; a double click makes one", async () => {
    const { order, item, token } = await shippedOrder();
    const path = `/profile/orders/${order.orderNumber}/return?t=${token}`;
    const page = await settle(async () => returnLoader(args(await requestAs(t.db, null, path), { orderNumber: order.orderNumber })));
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ windowOpen: true, lines: [{ orderItemId: item.id, returnable: 2 }] });
    const body = form({ key: page.body.formKey, t: token, [`qty.${item.id}`]: "1", reason: "wrong_item" });
    const post = () => settle(async () => returnAction(args(await requestAs(t.db, null, path, { method: "POST", body }), { orderNumber: order.orderNumber })));
    const [a, b] = await Promise.all([post(), post()]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(a.location).toBe(`/profile/orders/${order.orderNumber}?t=${encodeURIComponent(token)}`);
    expect(await t.db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id))).toHaveLength(1);
    const orderPage = await settle(async () => orderLoader(args(await requestAs(t.db, null, `/profile/orders/${order.orderNumber}?t=${token}`), { orderNumber: order.orderNumber })));
    expect(orderPage.body.returns.returns).toMatchObject([{ returnNumber: `R-${order.orderNumber}-1`, state: "requested", reason: "Wrong item" }]);
  });

  it("someone else's order, or a tampered link, answers the same 404 as the order page; a forged line is refused", async () => {
    const owner = await makeCustomer(t.db);
    const stranger = await makeCustomer(t.db);
    const { order, item, token } = await shippedOrder(owner.id);
    const other = await shippedOrder();
    for (const [as, q] of [
      [stranger, ""],
      [null, `?t=${token.slice(0, -2)}xx`],
    ] as const) {
      for (const loader of [returnLoader, withdrawLoader]) {
        const r = await settle(async () => loader(args(await requestAs(t.db, as, `/profile/orders/${order.orderNumber}/return${q}`), { orderNumber: order.orderNumber })));
        expect(r.status).toBe(404);
      }
      const body = form({ key: "k1", [`qty.${item.id}`]: "1", reason: "damaged" });
      const r = await settle(async () => returnAction(args(await requestAs(t.db, as, `/profile/orders/${order.orderNumber}/return${q}`, { method: "POST", body }), { orderNumber: order.orderNumber })));
      expect(r.status).toBe(404);
    }
    const forged = form({ key: "k2", [`qty.${other.item.id}`]: "1", reason: "damaged" });
    const r = await settle(async () => returnAction(args(await requestAs(t.db, owner, `/profile/orders/${order.orderNumber}/return`, { method: "POST", body: forged }), { orderNumber: order.orderNumber })));
    expect(r).toMatchObject({ status: 400, body: { ok: false, message: "Choose the items to return from this order." } });
    expect(await t.db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id))).toHaveLength(0);
  });

  it("the withdrawal page confirms the ticked items and queues the acknowledgement; the order page shows the button only when the setting is on", async () => {
    const { order, item, token } = await shippedOrder();
    const pagePath = `/profile/orders/${order.orderNumber}?t=${token}`;
    const openPage = async () => (await settle(async () => orderLoader(args(await requestAs(t.db, null, pagePath), { orderNumber: order.orderNumber })))).body;
    expect((await openPage()).returns.withdrawalOpen).toBe(false);
    await saveReturnsSetting(t.db, { returnWindowDays: 30, withdrawalEnabled: true, withdrawalDays: 14 });
    expect((await openPage()).returns.withdrawalOpen).toBe(true);
    const path = `/profile/orders/${order.orderNumber}/withdraw?t=${token}`;
    const page = await settle(async () => withdrawLoader(args(await requestAs(t.db, null, path), { orderNumber: order.orderNumber })));
    expect(page.body).toMatchObject({ open: true, lines: [{ orderItemId: item.id, returnable: 2 }] });
    const body = form({ key: page.body.formKey, t: token, line: item.id, reasonText: "Found it cheaper" });
    const r = await settle(async () => withdrawAction(args(await requestAs(t.db, null, path, { method: "POST", body }), { orderNumber: order.orderNumber })));
    expect(r.status).toBe(303);
    const [ret] = await t.db.select().from(orderReturns).where(eq(orderReturns.orderId, order.id));
    expect(ret).toMatchObject({ kind: "withdrawal", reasonText: "Found it cheaper", lines: [{ orderItemId: item.id, quantity: 2 }] });
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "withdrawal-received"))).toHaveLength(1);
  });
});

describe("the footer's 'Withdraw from contract' page", () => {
  it("is there only while the setting is on, and answers a known and an unknown pair with the same words; only the known one is mailed", async () => {
    const { order } = await shippedOrder();
    const post = (fields: Record<string, string>, ip: string) =>
      settle(async () =>
        footerAction(args(await requestAs(t.db, null, "/withdraw", { method: "POST", body: form(fields), headers: { "x-forwarded-for": ip } }))),
      );
    await saveReturnsSetting(t.db, { returnWindowDays: 30, withdrawalEnabled: false, withdrawalDays: 14 });
    expect((await post({ orderNumber: order.orderNumber, email: order.email }, "198.51.100.1")).status).toBe(404);
    await saveReturnsSetting(t.db, { returnWindowDays: 30, withdrawalEnabled: true, withdrawalDays: 14 });
    const known = await post({ orderNumber: order.orderNumber, email: order.email }, "198.51.100.1");
    const unknown = await post({ orderNumber: order.orderNumber, email: "nobody@example.com" }, "198.51.100.1");
    expect(known).toEqual({ status: 200, body: { ok: true, message: ORDER_LINK_SENT } });
    expect(unknown).toEqual(known);
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "order-link"));
    expect(mails.map((m) => m.to)).toEqual([order.email]);
  });
});
