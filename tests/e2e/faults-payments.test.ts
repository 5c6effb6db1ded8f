import { describe, expect, it } from "vitest";
import { PAYING_CARD, useFaultBed, waitFor } from "./faults-harness";

/**
 * kill -9 while 150 shoppers at a time press Pay on the test payment page. After the restart,
 * every session the provider took money for has a paid order, within a minute, and stock equals
 * its start minus what paid orders took. The kill comes once 30 payments went through, with 150
 * more in flight (each shopper who is answered, the next presses Pay), so it always cuts some off.
 */
const SESSIONS = 400;
const AT_ONCE = 150;
const START_STOCK = 10_000;
const bed = useFaultBed({ products: { count: 3, stock: START_STOCK } });
const { rows } = bed;

async function openSession(base: string, n: number) {
  const res = await fetch(`${base}/api/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      cartItems: [{ id: bed.productIds[n % 3], quantity: 1 + (n % 2) }],
      formData: { firstName: "Pay", lastName: "Crash", email: `pay-crash-${n}@example.test`, address: "1 Test St", city: "Springfield", state: "IL", zipCode: "62701", country: "US" },
    }),
  });
  if (res.status !== 200) throw new Error(`checkout ${n} answered ${res.status}`);
  return decodeURIComponent(/\/pay\/test\/([^/?#]+)/.exec(((await res.json()) as { url: string }).url)![1]!);
}

describe("kill -9 while test payments are being made", () => {
  it("leaves no paid session beside an unpaid order once the shop is back", async () => {
    let shop = await bed.start();
    const base = shop.baseUrl;
    const sessions: string[] = [];
    for (let n = 0; n < SESSIONS; n++) sessions.push(await openSession(base, n));

    let answered = 0;
    let cutOff = 0;
    let killed = false;
    const queue = [...sessions];
    const shopper = async () => {
      for (let id = queue.shift(); id && !killed; id = queue.shift()) {
        const res = await fetch(`${base}/pay/test/${encodeURIComponent(id)}`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(PAYING_CARD),
        }).catch(() => null);
        if (res?.status === 302) answered++;
        else cutOff++;
      }
    };
    const shoppers = Array.from({ length: AT_ONCE }, shopper);
    await waitFor("30 payments to go through", async () => answered >= 30, 60_000);
    await shop.kill9();
    killed = true;
    await Promise.all(shoppers);
    expect(cutOff, "payments cut off by the kill").toBeGreaterThan(0);

    shop = await bed.start();
    await waitFor("every paid session's order to be paid", async () => (await bed.paidSessionsOfUnpaidOrders()).length === 0, 60_000);
    const paid = await rows<{ n: string }>("select count(*) as n from test_payment_sessions where status = 'paid'");
    expect(Number(paid[0]!.n)).toBeGreaterThanOrEqual(answered);

    const stock = await bed.stockAndSold();
    for (const p of stock) expect(p.stock, `stock of ${p.id}`).toBe(START_STOCK - Number(p.sold));
  }, 180_000);
});
