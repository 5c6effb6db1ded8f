import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeStripeEnv, startFakeStripe, type FakeStripe } from "../fakes/stripe";
import { makeProduct } from "../factories/products";
import { createSession, makeAdmin, SESSION_COOKIE, type TestUser } from "../factories/users";
import { useFaultBed, waitFor, type ShopProcess } from "./faults-harness";
import { E2E_AUTH_SECRET } from "./harness";

/**
 * kill -9 once a refund is decided and before the provider has answered it: after a restart the
 * refund is made exactly once, each ledger row's refund one refund at Stripe (the fake makes one
 * per Idempotency-Key), of that row's amount, and the row succeeded.
 *
 * - In flight: an admin cancels a paid Stripe order in the shop; the fake holds the refund call
 *   (`before`: the money did not move; `after`: it moved and the answer is lost); the shop is killed.
 * - Before the call: the decision is made by the shop's own code in a process of its own, which is
 *   killed at the provider call after the decision committed (the shop is down meanwhile).
 */
let stripe: FakeStripe;
let shop: ShopProcess | undefined;
let admin: TestUser;
const children: ChildProcess[] = [];

beforeAll(async () => {
  stripe = await startFakeStripe();
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await stripe?.close();
});

// Registered after the fake's hooks, so its shop stops before the fake closes (after-hooks run in reverse).
const bed = useFaultBed();
const { rows } = bed;
const start = async () => (shop = await bed.start(fakeStripeEnv(stripe)));

beforeAll(async () => {
  admin = await makeAdmin(bed.test.db);
});

/** A paid Stripe order of these lines, through the shop's checkout and the fake's payment. */
async function paidOrder(base: string, lines: { id: string; quantity: number }[], label: string) {
  const res = await fetch(`${base}/api/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      cartItems: lines,
      formData: { firstName: "Crash", lastName: label, email: `${label}@example.test`, address: "1 Test Street", city: "Springfield", state: "IL", zipCode: "62701", country: "US" },
    }),
  });
  expect(res.status).toBe(200);
  const sessionId = ((await res.json()) as { url: string }).url.split("/").pop()!;
  const intent = stripe.complete(sessionId).payment_intent!;
  const verified = await fetch(`${base}/api/verify-payment`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session_id: sessionId }),
  });
  expect(verified.status).toBe(200);
  const [order] = await rows<{ id: string; version: number; total: string; payment_status: string }>(
    "select id, version, total_amount_cents as total, payment_status from orders where payment_session_id = $1",
    [sessionId],
  );
  expect(order!.payment_status).toBe("paid");
  return { id: order!.id, version: order!.version, totalCents: Number(order!.total), intent };
}

const refundCalls = (intent: string) => stripe.requests.filter((r) => r.path === "/v1/refunds" && r.body.payment_intent === intent);

type LedgerRefund = { id: string; amount: string; state: string; key: string | null };
const ledgerRefunds = (orderId: string) =>
  rows<LedgerRefund>(
    `select m.id, m.amount_cents as amount, m.state, t.idempotency_key as key
       from order_money_movements m left join payment_tasks t on t.id = m.payment_task_id
      where m.order_id = $1 and m.kind = 'refund' order by m.created_at`,
    [orderId],
  );

/** After the restart: every ledger refund succeeded, each made once at Stripe under its own key, of its amount. */
async function expectEachRefundMadeOnce(orderId: string, intent: string, expected: { count: number; totalCents: number }) {
  await waitFor(
    "every refund of the order to succeed after the restart",
    async () => {
      const ledger = await ledgerRefunds(orderId);
      return ledger.length === expected.count && ledger.every((r) => r.state === "succeeded");
    },
    // At the latest the call's job (due 30 s after the decision) or the every-minute sweep of due calls; a loaded machine is slow to start.
    120_000,
  );
  const ledger = await ledgerRefunds(orderId);
  const made = stripe.refunds.filter((r) => r.payment_intent === intent);
  expect(made).toHaveLength(ledger.length);
  for (const row of ledger) {
    expect(row.key, "each ledger row has its call's key").toBeTruthy();
    expect(made.filter((r) => r.idempotencyKey === row.key).map((r) => r.amount), `refunds under ${row.key}`).toEqual([Number(row.amount)]);
  }
  expect(new Set(ledger.map((r) => r.key)).size, "one key per ledger row").toBe(ledger.length);
  // Every call the shop made, before and after the kill, used one of those keys.
  expect(new Set(refundCalls(intent).map((r) => r.idempotencyKey))).toEqual(new Set(ledger.map((r) => r.key)));
  expect(made.reduce((s, r) => s + r.amount, 0)).toBe(expected.totalCents);
  return ledger;
}

/**
 * Runs refund-decider.ts and kills it with SIGKILL once it stands at the provider call (or, with
 * `untilAnswered`, once the call came back: a refund made in full, whose process then goes away).
 */
async function decideAndKill(mode: "hold" | "stripe", decision: unknown, opts: { untilAnswered?: boolean } = {}) {
  const callsBefore = stripe.requests.filter((r) => r.path === "/v1/refunds").length;
  const child = spawn("npx", ["tsx", "tests/e2e/refund-decider.ts", mode, JSON.stringify(decision)], {
    env: { ...process.env, ...fakeStripeEnv(stripe), DATABASE_URL: bed.test.url, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  await waitFor("the deciding process to reach the provider call", async () => {
    if (child.exitCode !== null) throw new Error(`the deciding process ended: ${out}`);
    return out.includes("at-the-call");
  }, 60_000).catch((err: Error) => {
    throw new Error(`${err.message}\n${out.slice(-2000)}`);
  });
  if (mode === "stripe" && !opts.untilAnswered) {
    await waitFor("the refund call to reach Stripe", async () => stripe.requests.filter((r) => r.path === "/v1/refunds").length > callsBefore);
  }
  if (opts.untilAnswered) await waitFor(`the refund's answer (output: ${out.slice(-500)})`, async () => out.includes("answered"), 30_000);
  // The whole group: npx, tsx and node.
  process.kill(-child.pid!, "SIGKILL");
  await waitFor("the deciding process to die", async () => child.exitCode !== null || child.signalCode !== null);
  if (!opts.untilAnswered) expect(out).not.toContain("answered");
}

async function cancelAsAdmin(base: string, order: { id: string; version: number }) {
  const { cookieValue } = await createSession(bed.test.db, admin.id, E2E_AUTH_SECRET);
  return fetch(`${base}/admin/orders/${order.id}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${SESSION_COOKIE}=${cookieValue}` },
    body: new URLSearchParams({ intent: "status", to: "cancelled", version: String(order.version), refund: "yes" }),
  });
}

describe("kill -9 after a whole-order refund (a cancel) is decided", () => {
  for (const stall of ["before", "after"] as const) {
    it(`while the call is at Stripe (${stall === "before" ? "the money not moved yet" : "the money moved, its answer lost"}): after a restart it is made exactly once`, async () => {
      if (!shop) await start();
      const product = await makeProduct(bed.test.db, { name: `Crash Cancel ${stall}`, priceCents: 4_250, stockQuantity: 5 });
      const order = await paidOrder(shop!.baseUrl, [{ id: product.id, quantity: 2 }], `cancel-${stall}`);

      stripe.stallRefunds(stall);
      void cancelAsAdmin(shop!.baseUrl, order).catch(() => {});
      await waitFor("the refund call to reach Stripe", async () => refundCalls(order.intent).length === 1);
      await shop!.kill9();
      shop = undefined;
      stripe.stallRefunds(null);

      // The decision committed with its call: cancelled, the refund pending on the ledger.
      expect(await rows("select status from orders where id = $1", [order.id])).toEqual([{ status: "cancelled" }]);
      expect((await ledgerRefunds(order.id)).map((r) => r.state)).toEqual(["pending"]);

      await start();
      const [row] = await expectEachRefundMadeOnce(order.id, order.intent, { count: 1, totalCents: order.totalCents });
      expect(Number(row!.amount)).toBe(order.totalCents);
      expect(await rows("select payment_status from orders where id = $1", [order.id])).toEqual([{ payment_status: "refunded" }]);
    }, 180_000);
  }

  it("before the call (the deciding process killed after the commit): after a restart it is made exactly once", async () => {
    if (!shop) await start();
    const product = await makeProduct(bed.test.db, { name: "Crash Cancel Before Call", priceCents: 3_999, stockQuantity: 5 });
    const order = await paidOrder(shop!.baseUrl, [{ id: product.id, quantity: 1 }], "cancel-before-call");
    await shop!.kill9();
    shop = undefined;

    await decideAndKill("hold", { kind: "cancel", orderId: order.id, version: order.version, admin: { id: admin.id, name: admin.name, email: admin.email } });
    expect(refundCalls(order.intent), "no call reached Stripe").toHaveLength(0);
    expect(await rows("select status from orders where id = $1", [order.id])).toEqual([{ status: "cancelled" }]);
    expect((await ledgerRefunds(order.id)).map((r) => r.state)).toEqual(["pending"]);

    await start();
    await expectEachRefundMadeOnce(order.id, order.intent, { count: 1, totalCents: order.totalCents });
    expect(refundCalls(order.intent)).toHaveLength(1);
  }, 180_000);
});

/** The order's lines (id, quantity) in the order of the products given, and its version. */
async function linesOf(orderId: string, productIds: string[]) {
  const items = await rows<{ id: string; product_id: string; quantity: number }>("select id, product_id, quantity from order_items where order_id = $1", [orderId]);
  const [order] = await rows<{ version: number }>("select version from orders where id = $1", [orderId]);
  return { version: order!.version, itemIds: productIds.map((p) => items.find((i) => i.product_id === p)!.id) };
}

const partial = (orderId: string, version: number, lines: { orderItemId: string; quantity: number }[], shippingCents = 0) => ({
  kind: "partial",
  input: {
    orderId,
    expectedVersion: version,
    lines: lines.map((l) => ({ ...l, restock: true })),
    shippingCents,
    adjustmentCents: 0,
    reason: "Crash test",
    actor: { actorUserId: admin.id, actorLabel: admin.name },
  },
});

describe("kill -9 after a partial refund (refundOrder) is decided", () => {
  for (const when of ["in flight", "before the call"] as const) {
    it(`${when === "in flight" ? "while Stripe holds the call (its answer lost)" : "before the call"}: after a restart the second partial refund is made exactly once, under its own key, beside the first`, async () => {
      if (!shop) await start();
      const [a, b] = [
        await makeProduct(bed.test.db, { name: `Partial A ${when}`, priceCents: 2_999, stockQuantity: 9 }),
        await makeProduct(bed.test.db, { name: `Partial B ${when}`, priceCents: 1_250, stockQuantity: 9 }),
      ];
      const order = await paidOrder(shop!.baseUrl, [{ id: a.id, quantity: 3 }, { id: b.id, quantity: 2 }], `partial-${when.replace(/ /g, "-")}`);
      await shop!.kill9();
      shop = undefined;

      // A first partial refund, made in full (one of A), then the second is decided and its process killed.
      let lines = await linesOf(order.id, [a.id, b.id]);
      await decideAndKill("stripe", partial(order.id, lines.version, [{ orderItemId: lines.itemIds[0]!, quantity: 1 }]), { untilAnswered: true });
      lines = await linesOf(order.id, [a.id, b.id]);
      const second = partial(order.id, lines.version, [{ orderItemId: lines.itemIds[0]!, quantity: 1 }, { orderItemId: lines.itemIds[1]!, quantity: 1 }]);
      if (when === "in flight") {
        stripe.stallRefunds("after");
        await decideAndKill("stripe", second);
        stripe.stallRefunds(null);
      } else {
        await decideAndKill("hold", second);
      }
      expect((await ledgerRefunds(order.id)).map((r) => r.state)).toEqual(["succeeded", "pending"]);

      await start();
      const ledger = await expectEachRefundMadeOnce(order.id, order.intent, { count: 2, totalCents: 2_999 + 2_999 + 1_250 });
      expect(ledger.map((r) => Number(r.amount))).toEqual([2_999, 2_999 + 1_250]);
      expect(await rows("select payment_status from orders where id = $1", [order.id])).toEqual([{ payment_status: "partially_refunded" }]);
      // Restocked exactly once: 9 − 3 + 2 of A, 9 − 2 + 1 of B.
      expect(await rows("select stock_quantity from products where id = any($1) order by name", [[a.id, b.id]])).toEqual([{ stock_quantity: 8 }, { stock_quantity: 8 }]);
    }, 240_000);
  }
});
