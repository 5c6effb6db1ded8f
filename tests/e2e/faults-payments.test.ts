import { describe, expect, it } from "vitest";
import { PAYING_CARD, useFaultBed, waitFor } from "./faults-harness";

/**
 * kill -9 while 150 shoppers press Pay on the test payment page at once. After the restart,
 * every session the provider took money for has a paid order, within a minute, and stock equals
 * its start minus what paid orders took.
 */
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
    for (let n = 0; n < 150; n++) sessions.push(await openSession(base, n));

    const payments = sessions.map((id) =>
      fetch(`${base}/pay/test/${encodeURIComponent(id)}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(PAYING_CARD),
      }).catch(() => null),
    );
    await new Promise((r) => setTimeout(r, 1500));
    await shop.kill9();
    const answered = (await Promise.all(payments)).filter((r) => r?.status === 302).length;
    expect(answered, "payments cut off by the kill").toBeLessThan(150);

    shop = await bed.start();
    await waitFor("every paid session's order to be paid", async () => (await bed.paidSessionsOfUnpaidOrders()).length === 0, 60_000);
    const paid = await rows<{ n: string }>("select count(*) as n from test_payment_sessions where status = 'paid'");
    expect(Number(paid[0]!.n)).toBeGreaterThanOrEqual(answered);

    const stock = await bed.stockAndSold();
    for (const p of stock) expect(p.stock, `stock of ${p.id}`).toBe(START_STOCK - Number(p.sold));
  }, 180_000);
});
