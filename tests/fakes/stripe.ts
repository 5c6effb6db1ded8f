import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll } from "vitest";
import { resetEnvCache } from "~/server/platform/env.server";

/**
 * A small fake of Stripe's HTTP API on 127.0.0.1, for the official SDK pointed at it with
 * host/port/protocol: Checkout Sessions (create with line items, a shipping option and a coupon;
 * retrieve, expire), Coupons (create), PaymentIntents (retrieve), Refunds (create: all that is left
 * of the payment, or `amount` of it, never more than is left), bearer-key checks and
 * Idempotency-Key replays like Stripe's: the same key answers the same refund, never a second one,
 * and is refused with other parameters. Helpers play the shopper (`complete`) and build signed
 * webhook deliveries with the SDK's own test-header helper.
 */
export type FakeSession = {
  id: string;
  object: "checkout.session";
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  mode: string;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string | null;
  payment_intent: string | null;
  line_items: { quantity: number; price_data: { currency: string; unit_amount: number; product_data: { name: string } } }[];
  created: number;
};

export type FakeRequest = { method: string; path: string; body: Record<string, unknown>; idempotencyKey: string | undefined };

export type FakeStripe = {
  host: "127.0.0.1";
  port: number;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, FakeSession>;
  /** Refunds made, each once however often its Idempotency-Key is sent again, with the key it was made under. */
  refunds: { id: string; payment_intent: string; amount: number; idempotencyKey: string | undefined }[];
  requests: FakeRequest[];
  /** The shopper paid on Stripe's page. */
  complete(id: string): FakeSession;
  /** The shopper chose a delayed method (a bank debit): the session completes, still unpaid. */
  completeAsync(id: string): FakeSession;
  /** That delayed payment failed later (Stripe then sends checkout.session.async_payment_failed). */
  failAsync(id: string): FakeSession;
  expire(id: string): FakeSession;
  /** The next n API calls answer 500. */
  failNext(n: number): void;
  /**
   * Refund requests get no answer until the caller gives up: `before` makes no refund (the call
   * never happened, as far as money goes), `after` makes it and loses the answer. null: normal.
   */
  stallRefunds(mode: "before" | "after" | null): void;
  /** A webhook delivery: the JSON body and a Stripe-Signature header signed with `secret`. */
  webhook(type: string, object: unknown, secret?: string): { payload: string; signature: string };
  close(): Promise<void>;
};

/** Stripe's form encoding (`line_items[0][price_data][unit_amount]=2500`) back into objects. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const container = node as Record<string, unknown>;
      if (last) container[part] = value;
      else {
        container[part] ??= /^\d+$/.test(parts[i + 1]!) ? [] : {};
        node = container[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

const stripeError = (status: number, message: string, code?: string) => ({
  status,
  body: { error: { type: status === 401 ? "invalid_request_error" : "invalid_request_error", message, ...(code ? { code } : {}) } },
});

export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = `sk_test_fake_${randomBytes(8).toString("hex")}`;
  const webhookSecret = `whsec_fake_${randomBytes(8).toString("hex")}`;
  const sessions = new Map<string, FakeSession>();
  const refunds: FakeStripe["refunds"] = [];
  const requests: FakeRequest[] = [];
  const replays = new Map<string, { status: number; body: unknown; params?: string }>();
  const paymentIntents = new Map<string, { id: string; object: "payment_intent"; status: string }>();
  const newIntent = (status: string) => {
    const intent = { id: `pi_${randomBytes(10).toString("hex")}`, object: "payment_intent" as const, status };
    paymentIntents.set(intent.id, intent);
    return intent.id;
  };
  let failures = 0;
  let stall: "before" | "after" | null = null;
  const coupons = new Map<string, { id: string; object: "coupon"; amount_off: number; currency: string; name: string | null }>();

  function handle(
    method: string,
    path: string,
    body: Record<string, unknown>,
    query = new URLSearchParams(),
    idempotencyKey?: string,
  ): { status: number; body: unknown } {
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const items = (body.line_items as FakeSession["line_items"] | undefined) ?? [];
      const lineItems = items.map((l) => ({
        quantity: Number(l.quantity),
        price_data: {
          currency: String(l.price_data.currency),
          unit_amount: Number(l.price_data.unit_amount),
          product_data: { name: String(l.price_data.product_data.name) },
        },
      }));
      if (!lineItems.length) return stripeError(400, "line_items is required");
      // Like Stripe: at most 100 line items in payment mode.
      if (lineItems.length > 100) return stripeError(400, "You may only specify up to 100 line items.");
      // Like Stripe: a coupon comes off the line items, never off shipping.
      const itemsTotal = lineItems.reduce((sum, l) => sum + l.quantity * l.price_data.unit_amount, 0);
      const shippingOptions = (body.shipping_options as { shipping_rate_data?: { fixed_amount?: { amount?: string } } }[] | undefined) ?? [];
      const shipping = Number(shippingOptions[0]?.shipping_rate_data?.fixed_amount?.amount ?? 0);
      const couponId = (body.discounts as { coupon?: string }[] | undefined)?.[0]?.coupon;
      const coupon = couponId ? coupons.get(couponId) : undefined;
      if (couponId && !coupon) return stripeError(400, `No such coupon: '${couponId}'`, "resource_missing");
      // Like Stripe: below the currency's minimum charge (50 cents in USD) the session is refused.
      const total = itemsTotal - Math.min(itemsTotal, coupon?.amount_off ?? 0) + shipping;
      if (total < 50) return stripeError(400, "The Checkout Session's total amount due must add up to at least $0.50 usd");
      const id = `cs_test_${randomBytes(12).toString("hex")}`;
      const session: FakeSession = {
        id,
        object: "checkout.session",
        status: "open",
        payment_status: "unpaid",
        mode: String(body.mode),
        amount_total: itemsTotal - Math.min(itemsTotal, coupon?.amount_off ?? 0) + shipping,
        currency: lineItems[0]!.price_data.currency,
        client_reference_id: (body.client_reference_id as string) ?? null,
        customer_email: (body.customer_email as string) ?? null,
        metadata: (body.metadata as Record<string, string>) ?? {},
        success_url: String(body.success_url),
        cancel_url: String(body.cancel_url),
        url: `https://checkout.stripe.test/c/pay/${id}`,
        created: Math.floor(Date.now() / 1000),
        payment_intent: null,
        line_items: lineItems,
      };
      sessions.set(id, session);
      return { status: 200, body: session };
    }
    if (method === "GET" && path === "/v1/checkout/sessions") {
      const status = query.get("status");
      const gte = Number(query.get("created[gte]") ?? 0);
      const data = [...sessions.values()].filter((s) => (!status || s.status === status) && s.created >= gte).reverse();
      return { status: 200, body: { object: "list", url: "/v1/checkout/sessions", has_more: false, data } };
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && retrieve) {
      const session = sessions.get(decodeURIComponent(retrieve[1]!));
      return session ? { status: 200, body: session } : stripeError(404, `No such checkout.session: '${retrieve[1]}'`, "resource_missing");
    }
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === "GET" && intent) {
      const found = paymentIntents.get(decodeURIComponent(intent[1]!));
      return found ? { status: 200, body: found } : stripeError(404, `No such payment_intent: '${intent[1]}'`, "resource_missing");
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (method === "POST" && expire) {
      const session = sessions.get(decodeURIComponent(expire[1]!));
      if (!session) return stripeError(404, `No such checkout.session: '${expire[1]}'`, "resource_missing");
      if (session.status !== "open") return stripeError(400, `Only Checkout Sessions with a status in ["open"] can be expired.`);
      Object.assign(session, { status: "expired", url: null });
      return { status: 200, body: session };
    }
    if (method === "POST" && path === "/v1/coupons") {
      const coupon = {
        id: `co_${randomBytes(8).toString("hex")}`,
        object: "coupon" as const,
        amount_off: Number(body.amount_off),
        currency: String(body.currency),
        name: (body.name as string) ?? null,
      };
      if (!Number.isInteger(coupon.amount_off) || coupon.amount_off <= 0) return stripeError(400, "amount_off must be a positive integer");
      coupons.set(coupon.id, coupon);
      return { status: 200, body: coupon };
    }
    if (method === "POST" && path === "/v1/refunds") {
      const pi = String(body.payment_intent ?? "");
      const session = [...sessions.values()].find((s) => s.payment_intent === pi);
      if (!session) return stripeError(404, `No such payment_intent: '${pi}'`, "resource_missing");
      // Like Stripe: `amount` refunds part of the payment (default: all that is left), never more than is left.
      const left = session.amount_total - refunds.filter((r) => r.payment_intent === pi).reduce((sum, r) => sum + r.amount, 0);
      if (left <= 0) return stripeError(400, `Charge for payment intent ${pi} has already been refunded.`, "charge_already_refunded");
      const amount = body.amount === undefined ? left : Number(body.amount);
      if (!Number.isInteger(amount) || amount <= 0) return stripeError(400, "Invalid positive integer", "parameter_invalid_integer");
      if (amount > left) {
        return stripeError(400, `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`, "amount_too_large");
      }
      const refund = { id: `re_${randomBytes(8).toString("hex")}`, object: "refund", payment_intent: pi, amount, status: "succeeded", idempotencyKey };
      refunds.push(refund);
      return { status: 200, body: refund };
    }
    return stripeError(404, `Unrecognized request URL (${method}: ${path})`);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const [path = "/", search = ""] = (req.url ?? "/").split("?");
      const body = parseStripeForm(Buffer.concat(chunks).toString());
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      requests.push({ method: req.method ?? "GET", path, body, idempotencyKey });
      let answer: { status: number; body: unknown };
      const replayKey = `${req.method} ${path} ${idempotencyKey}`;
      if (stall && req.method === "POST" && path === "/v1/refunds") {
        if (stall === "after" && !(idempotencyKey && replays.has(replayKey))) {
          const made = handle("POST", path, body, undefined, idempotencyKey);
          if (idempotencyKey) replays.set(replayKey, { ...made, params: JSON.stringify(body) });
        }
        return; // no answer: the response stays open until the client goes away
      }
      if (req.headers.authorization !== `Bearer ${secretKey}`) answer = stripeError(401, "Invalid API Key provided");
      else if (failures > 0) {
        failures--;
        answer = { status: 500, body: { error: { type: "api_error", message: "Something went wrong (fake)" } } };
      } else if (idempotencyKey && replays.has(replayKey)) {
        const replay = replays.get(replayKey)!;
        // Like Stripe: a key is bound to its first request's parameters.
        answer =
          replay.params === JSON.stringify(body)
            ? replay
            : stripeError(400, `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`, "idempotency_key_in_use");
      } else {
        answer = handle(req.method ?? "GET", path, body, new URLSearchParams(search), idempotencyKey);
        if (idempotencyKey && req.method === "POST") replays.set(replayKey, { ...answer, params: JSON.stringify(body) });
      }
      res.writeHead(answer.status, { "content-type": "application/json", "request-id": `req_${randomBytes(6).toString("hex")}` });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const sdk = new Stripe(secretKey);

  const get = (id: string) => {
    const s = sessions.get(id);
    if (!s) throw new Error(`fake stripe: no session ${id}`);
    return s;
  };
  return {
    host: "127.0.0.1",
    port,
    secretKey,
    webhookSecret,
    sessions,
    refunds,
    requests,
    complete(id) {
      const s = get(id);
      Object.assign(s, { status: "complete", payment_status: "paid", url: null, payment_intent: newIntent("succeeded") });
      return s;
    },
    completeAsync(id) {
      const s = get(id);
      Object.assign(s, { status: "complete", payment_status: "unpaid", url: null, payment_intent: newIntent("processing") });
      return s;
    },
    failAsync(id) {
      const s = get(id);
      paymentIntents.get(s.payment_intent!)!.status = "requires_payment_method";
      return s;
    },
    expire(id) {
      const s = get(id);
      Object.assign(s, { status: "expired", url: null });
      return s;
    },
    failNext(n) {
      failures = n;
    },
    stallRefunds(mode) {
      stall = mode;
    },
    webhook(type, object, secret = webhookSecret) {
      const payload = JSON.stringify({
        id: `evt_${randomBytes(10).toString("hex")}`,
        object: "event",
        type,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: { object },
      });
      return { payload, signature: sdk.webhooks.generateTestHeaderString({ payload, secret }) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The shop's variables that point its Stripe provider at a fake (for this process, or a shop process's env). */
export function fakeStripeEnv(stripe: FakeStripe): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_HOST: stripe.host,
    STRIPE_API_PORT: String(stripe.port),
    STRIPE_API_PROTOCOL: "http",
  };
}

/**
 * For integration tests: a fake Stripe for the enclosing describe (or the file), with this
 * process's Stripe variables pointing at it, from before its tests until after them (then the
 * variables are removed and the fake closed). The object it returns is the fake once tests run.
 */
export function useFakeStripe(): FakeStripe {
  const holder = {} as FakeStripe;
  let names: string[] = [];
  beforeAll(async () => {
    Object.assign(holder, await startFakeStripe());
    const env = fakeStripeEnv(holder);
    names = Object.keys(env);
    Object.assign(process.env, env);
    resetEnvCache();
  });
  afterAll(async () => {
    for (const name of names) delete process.env[name];
    resetEnvCache();
    await holder.close?.();
  });
  return holder;
}
