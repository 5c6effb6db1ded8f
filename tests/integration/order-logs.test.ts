import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "~/server/platform/env.server";
import { requestScope } from "~/server/platform/logger.server";
import { queueOrderMail } from "~/server/commerce/orders/mails.server";
import type { PaymentProvider } from "~/server/commerce/payments/provider.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { openCheckout } from "../factories/orders";
import { runShopJobs } from "../factories/jobs";
import { makeProduct } from "../factories/products";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

/**
 * Runs `fn` with a pino logger of its own in the request scope (what `logger` writes to inside a
 * request), and returns the JSON lines it wrote.
 */
async function captureLogs(fn: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n")) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const log = pino({ level: "trace", base: undefined }, sink);
  await requestScope.run({ requestId: "test", log }, fn);
  log.flush();
  return lines;
}

/** A provider that answers every session look-up with a session opened for another order. */
function providerAnsweringForAnotherOrder(): PaymentProvider {
  const refuse = () => Promise.reject(new Error("not used in this test"));
  return {
    name: "test",
    createSession: refuse,
    retrieveSession: async (id) => ({
      id,
      state: "paid",
      url: null,
      orderId: "00000000-0000-4000-8000-000000000000",
      amountTotalCents: 100,
      currency: "usd",
      paymentReference: null,
    }),
    parseWebhook: refuse,
    refund: refuse,
    expireSession: refuse,
    paidSessionsSince: refuse,
  };
}

afterEach(() => {
  delete process.env.SMTP_URL;
  resetEnvCache();
});

describe("log lines about an order carry its number", () => {
  it("settlement: a payment session that belongs to another order is logged with the order's number", async () => {
    const product = await makeProduct(t.db);
    const { orderId, sessionId, orderNumber } = await openCheckout(t.db, [[product, 1]]);
    const lines = await captureLogs(async () => {
      expect(await confirmPayment(t.db, sessionId, { providers: onlyProvider(providerAnsweringForAnotherOrder()) })).toEqual({ state: "error" });
    });
    const line = lines.find((l) => l.msg === "payment session belongs to another order");
    expect(line).toMatchObject({ orderId, orderNumber, level: 50 });
    expect(orderNumber).toMatch(/\S/);
  });

  it("orders: a confirmation mail that cannot be sent is tied to the order's number by its mail id", async () => {
    // An SMTP relay nobody listens on: the send fails at once, and the send log will retry it.
    process.env.SMTP_URL = "smtp://127.0.0.1:9";
    resetEnvCache();
    const order = { id: "5f0c2a4e-0000-4000-8000-000000000001", orderNumber: "LL-TEST-1", email: "ada@example.test" };
    const draft = async () => ({ subject: "Order LL-TEST-1 confirmed", text: "Thanks", html: "<p>Thanks</p>" });
    const lines = await captureLogs(async () => {
      await t.db.transaction((tx) => queueOrderMail(tx, order, draft, "order-confirmation"));
      // The mail's job tries it after the commit, as a running shop's worker does.
      await runShopJobs(t.db);
    });
    const recorded = lines.find((l) => l.msg === "order mail recorded");
    expect(recorded).toMatchObject({ orderId: order.id, orderNumber: "LL-TEST-1", kind: "order-confirmation" });
    expect(recorded!.mailId).toMatch(/\S/);
    expect(lines.find((l) => l.msg === "mail delivery failed; it will be retried")).toMatchObject({ mailId: recorded!.mailId, kind: "order-confirmation" });
  });
});
