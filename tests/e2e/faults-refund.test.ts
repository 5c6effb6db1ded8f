import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeStripeEnv, startFakeStripe, type FakeStripe } from "../fakes/stripe";
import { makeProduct } from "../factories/products";
import { useFaultBed, waitFor, type ShopProcess } from "./faults-harness";

/**
 * A refund decided in a transaction survives a crash: the shop is killed with SIGKILL after it
 * committed the decision (an order sold out while its shopper paid) and while the refund call is
 * out at Stripe, unanswered. After a restart the refund is made, exactly once: whether the first
 * call never reached the money (`before`) or did and its answer was lost (`after`).
 */
let stripe: FakeStripe;
let shop: ShopProcess | undefined;

beforeAll(async () => {
  stripe = await startFakeStripe();
});

afterAll(async () => {
  await stripe?.close();
});

// Registered after the fake's hooks, so its shop stops before the fake closes (after-hooks run in reverse).
const bed = useFaultBed();
const { rows } = bed;
const start = () => bed.start(fakeStripeEnv(stripe));

async function checkout(base: string, productId: string, email: string) {
  const res = await fetch(`${base}/api/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      cartItems: [{ id: productId, quantity: 1 }],
      formData: { firstName: "Crash", lastName: "Refund", email, address: "1 Test Street", city: "Springfield", state: "IL", zipCode: "62701", country: "US" },
    }),
  });
  expect(res.status).toBe(200);
  const { url } = (await res.json()) as { url: string };
  return url.split("/").pop()!;
}

const verify = (base: string, sessionId: string) =>
  fetch(`${base}/api/verify-payment`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session_id: sessionId }),
  });

describe("kill -9 between a refund's decision and its call", () => {
  for (const stall of ["before", "after"] as const) {
    it(`makes the refund exactly once after a restart (the lost call ${stall === "before" ? "never reached the money" : "was made, its answer lost"})`, async () => {
      shop ??= await start();
      const product = await makeProduct(bed.test.db, { name: `Last Quilt ${stall}`, priceCents: 12_000, stockQuantity: 1 });
      // Two shoppers pay for the last unit; the second payment is confirmed after the first took it.
      const first = await checkout(shop.baseUrl, product.id, `first-${stall}@example.test`);
      const second = await checkout(shop.baseUrl, product.id, `second-${stall}@example.test`);
      stripe.complete(first);
      const intent = stripe.complete(second).payment_intent!;
      expect((await verify(shop.baseUrl, first)).status).toBe(200);

      stripe.stallRefunds(stall);
      const refundCalls = () => stripe.requests.filter((r) => r.path === "/v1/refunds" && r.body.payment_intent === intent).length;
      void verify(shop.baseUrl, second).catch(() => {});
      await waitFor("the refund call to reach Stripe", async () => refundCalls() === 1);
      await shop.kill9();

      const [order] = await rows<{ id: string; status: string; payment_status: string }>(
        "select id, status, payment_status from orders where payment_session_id = $1",
        [second],
      );
      // The decision was committed with its call: the order is closed and its refund is owed.
      expect(order).toMatchObject({ status: "cancelled", payment_status: "paid" });
      expect(await rows("select kind, state from payment_tasks where order_id = $1", [order!.id])).toEqual([{ kind: "refund", state: "pending" }]);

      stripe.stallRefunds(null);
      shop = await start();
      await waitFor(
        "the refund after the restart",
        async () => (await rows<{ payment_status: string }>("select payment_status from orders where id = $1", [order!.id]))[0]?.payment_status === "refunded",
        60_000,
      );
      expect(stripe.refunds.filter((r) => r.payment_intent === intent)).toHaveLength(1);
      const keys = stripe.requests.filter((r) => r.path === "/v1/refunds" && r.body.payment_intent === intent).map((r) => r.idempotencyKey);
      expect(new Set(keys)).toEqual(new Set([`refund-${order!.id}`]));
      expect(await rows("select kind, state from payment_tasks where order_id = $1", [order!.id])).toEqual([{ kind: "refund", state: "done" }]);
      const events = await rows<{ note: string }>("select note from order_events where order_id = $1 and kind = 'refund'", [order!.id]);
      expect(events.map((e) => e.note)).toEqual(["Payment refunded in full: the order sold out."]);
      // The shopper's result page now says so.
      const answer = (await (await verify(shop.baseUrl, second)).json()) as { status: string; message?: string };
      expect(answer).toMatchObject({ status: "sold_out" });
      expect(answer.message).toContain("Your payment has been refunded.");
    }, 120_000);
  }
});
