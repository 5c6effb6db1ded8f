import { describe, expect, it } from "vitest";
import { payOnTestPage, testSessionOf, useFaultBed } from "./faults-harness";

/**
 * A fault the shop survives: kill -9 of the server in the middle of checkouts. Shoppers keep buying
 * until the process dies mid-request; after a restart (and the result page's verify call a
 * returning shopper makes) no order lacks its lines, every payment reported to a shopper is a paid
 * order, and every product's stock equals its start minus its paid order lines.
 */
const START_STOCK = 1000;
const bed = useFaultBed({ products: { count: 3, stock: START_STOCK } });
const { rows } = bed;

const form = (n: number) => ({
  firstName: "Crash",
  lastName: "Test",
  email: `crash-${n}@example.test`,
  address: "1 Test Street",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
});

/** One shopper's checkout: create it, pay with 4242 4242 4242 4242, verify as the result page does. */
async function buy(base: string, n: number): Promise<{ orderNumber: string; paid: boolean }> {
  const lines = bed.productIds.slice(0, 1 + (n % 3)).map((id, i) => ({ id, quantity: 1 + ((n + i) % 2) }));
  const created = await fetch(`${base}/api/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ cartItems: lines, formData: form(n), idempotencyKey: `crash-test-${n}` }),
  });
  if (created.status !== 200) throw new Error(`checkout answered ${created.status}`);
  const { url, orderNumber } = (await created.json()) as { url: string; orderNumber: string };
  const sessionId = testSessionOf(url);
  const paid = await payOnTestPage(base, sessionId);
  if (paid.status !== 302) throw new Error(`payment answered ${paid.status}`);
  const verified = await fetch(`${base}/api/verify-payment`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session_id: sessionId }),
  });
  const answer = (await verified.json()) as { payment_successful?: boolean };
  return { orderNumber, paid: verified.status === 200 && answer.payment_successful === true };
}

describe("kill -9 in the middle of checkouts", () => {
  it("leaves no order without lines, loses no payment a shopper was told about, and keeps stock consistent", async () => {
    let shop = await bed.start();
    const reportedPaid = new Set<string>();
    let serial = 0;
    let killing = false;
    let killed = false;
    let cutOff = 0;
    const failedBeforeKill: string[] = [];
    const shopper = async () => {
      while (!killed) {
        try {
          const r = await buy(shop.baseUrl, ++serial);
          if (r.paid) reportedPaid.add(r.orderNumber);
        } catch (err) {
          // Requests cut off by the kill fail here; that is the point. Before it, nothing may fail.
          if (killing) cutOff++;
          else failedBeforeKill.push((err as Error).message);
        }
      }
    };
    const shoppers = Array.from({ length: 8 }, shopper);
    const deadline = Date.now() + 45_000;
    while (reportedPaid.size < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(reportedPaid.size, "checkouts completed before the kill").toBeGreaterThanOrEqual(10);
    killing = true;
    await shop.kill9();
    killed = true;
    await Promise.all(shoppers);
    expect(failedBeforeKill, "checkouts that failed before the kill").toEqual([]);
    expect(cutOff, "checkouts cut off in flight by the kill").toBeGreaterThan(0);

    // Restart on the same database; returning shoppers' result pages verify their sessions.
    shop = await bed.start();
    const sessions = await rows<{ id: string }>("select payment_session_id as id from orders where payment_session_id is not null");
    for (const { id } of sessions) {
      const res = await fetch(`${shop.baseUrl}/api/verify-payment`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ session_id: id }),
      });
      expect(res.status, `verify ${id} after the restart`).toBe(200);
    }

    const orders = await rows<{ order_number: string; payment_status: string; lines: string }>(
      "select order_number, payment_status, (select count(*) from order_items i where i.order_id = o.id) as lines from orders o",
    );
    expect(orders.length).toBeGreaterThanOrEqual(reportedPaid.size);
    expect(orders.filter((o) => Number(o.lines) === 0).map((o) => o.order_number), "orders without lines").toEqual([]);
    const paid = new Set(orders.filter((o) => o.payment_status === "paid").map((o) => o.order_number));
    expect([...reportedPaid].filter((n) => !paid.has(n)), "payments reported to shoppers but not paid orders").toEqual([]);
    const paidSessionsUnpaidOrders = await bed.paidSessionsOfUnpaidOrders();
    expect(paidSessionsUnpaidOrders, "sessions paid on the payment page whose order is not paid").toEqual([]);

    const stock = await bed.stockAndSold();
    for (const p of stock) expect(p.stock, `stock of ${p.id}`).toBe(START_STOCK - Number(p.sold));
  }, 150_000);
});
