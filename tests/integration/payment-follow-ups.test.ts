import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "~/server/platform/env.server";
import { cartLines, mailOutbox, orders, paymentTasks, savedAddresses, testPaymentSessions } from "~/server/platform/db/schema";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import { getPaymentProvider, type PaymentProvider } from "~/server/commerce/payments/index.server";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { takePayment } from "~/server/commerce/settlement/take-payment.server";
import { runCallJob } from "~/server/commerce/settlement/worker.server";
import { runShopJobs } from "../factories/jobs";
import { openCheckout } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { makeAdmin, makeCustomer } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { orderRow, paidOrder } from "./admin-orders-helpers";
import { startSmtpFake } from "./smtp-fake";

/**
 * Paying and cancelling decide in one transaction and record what follows as jobs in it: the
 * mails, a signed-in shopper's address book and saved cart, the refund. Nothing follows a decision
 * that rolled back, everything follows one that committed (whoever's worker runs it), and
 * running a job again does not do its work twice.
 */

const t = useTestDatabase();
let smtp: Awaited<ReturnType<typeof startSmtpFake>>;

beforeAll(async () => {
  smtp = await startSmtpFake();
});
afterAll(async () => {
  await smtp.stop();
});
beforeEach(async () => {
  await t.db.execute(sql`delete from graphile_worker._private_jobs`);
});
afterEach(() => {
  delete process.env.SMTP_URL;
  resetEnvCache();
});

const useSmtp = () => {
  process.env.SMTP_URL = smtp.url;
  resetEnvCache();
};

/** The queue's waiting jobs, by task: what the decision left for the workers. */
async function waitingJobs() {
  const r = await t.db.execute<{ task: string; payload: Record<string, string>; run_at: string }>(sql`
    select t.identifier as task, j.payload, j.run_at::text from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id order by t.identifier`);
  return r.rows.map((row) => ({ task: row.task, payload: row.payload, runAt: new Date(row.run_at) }));
}

const cartOf = (userId: string) => t.db.select({ productId: cartLines.productId }).from(cartLines).where(eq(cartLines.userId, userId));
const addressesOf = (userId: string) => t.db.select({ address: savedAddresses.address }).from(savedAddresses).where(eq(savedAddresses.userId, userId));
const mailsTo = (to: string) => t.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));

/** A signed-in shopper's checkout whose product is also in their saved cart, paid at the provider. */
async function paidAtProvider() {
  const shopper = await makeCustomer(t.db);
  const product = await makeProduct(t.db, { name: "Follow-up Flax Sheet", stockQuantity: 50 });
  await t.db.insert(cartLines).values({ userId: shopper.id, productId: product.id, quantity: 1 });
  const checkout = await openCheckout(t.db, [[product, 1]], { userId: shopper.id, form: { address: "7 Follow Road" } });
  await t.db.update(testPaymentSessions).set({ status: "paid", paymentReference: "test_pi_follow" }).where(eq(testPaymentSessions.id, checkout.sessionId));
  return { shopper, checkout };
}

describe("a payment decides; its mail, address and saved cart follow as jobs", () => {
  it("commits the payment with its jobs, does nothing of them before a worker runs them, and each once after", async () => {
    useSmtp();
    smtp.received.length = 0;
    const { shopper, checkout } = await paidAtProvider();
    const { email } = await orderRow(t.db, checkout.orderId);

    expect((await confirmPayment(t.db, checkout.sessionId)).state).toBe("paid");
    // Decided: paid, and the work recorded with it, none of it done yet.
    expect((await orderRow(t.db, checkout.orderId)).paymentStatus).toBe("paid");
    const [confirmation] = await mailsTo(email);
    expect(confirmation).toMatchObject({ kind: "order-confirmation", status: "queued", attempts: 0 });
    expect((await waitingJobs()).map((j) => j.task)).toEqual(["commerce:order-paid", "mail:deliver"]);
    expect(smtp.received).toHaveLength(0);
    expect(await addressesOf(shopper.id)).toEqual([]);
    expect(await cartOf(shopper.id)).toHaveLength(1);

    // Another process's worker (nothing of the request that paid is needed) does the work.
    await runShopJobs(t.db);
    expect(smtp.received.map((m) => m.subject)).toEqual([expect.stringMatching(/^Order \S+ confirmed$/)]);
    expect((await mailsTo(email))[0]).toMatchObject({ status: "sent", attempts: 1 });
    expect(await addressesOf(shopper.id)).toEqual([{ address: "7 Follow Road" }]);
    expect(await cartOf(shopper.id)).toEqual([]);
    expect(await waitingJobs()).toEqual([]);

    // The result page and the webhook asking again change nothing and add nothing.
    expect((await confirmPayment(t.db, checkout.sessionId)).state).toBe("paid");
    await runShopJobs(t.db);
    expect(smtp.received).toHaveLength(1);
    expect(await addressesOf(shopper.id)).toHaveLength(1);
  });

  it("a payment whose transaction rolls back leaves no job, no mail and no follow-up", async () => {
    const { shopper, checkout } = await paidAtProvider();
    const session = (await getPaymentProvider(t.db, "test").retrieveSession(checkout.sessionId))!;
    await expect(
      t.db.transaction(async (tx) => {
        expect(await takePayment(tx, checkout.orderId, session, "test")).toBe("paid");
        throw new Error("the server died before the commit");
      }),
    ).rejects.toThrow("the server died before the commit");
    expect((await orderRow(t.db, checkout.orderId)).paymentStatus).toBe("unpaid");
    expect(await waitingJobs()).toEqual([]);
    expect(await mailsTo((await orderRow(t.db, checkout.orderId)).email)).toEqual([]);
    await runShopJobs(t.db);
    expect(await addressesOf(shopper.id)).toEqual([]);
    expect(await cartOf(shopper.id)).toHaveLength(1);
  });
});

describe("a refund decided with a cancel follows as its job", () => {
  it("when the cancel's own call fails, the job makes it when the row says, once", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId } = await paidOrder(t.db);
    await runShopJobs(t.db);
    const calls: string[] = [];
    const test = getPaymentProvider(t.db, "test");
    let up = false;
    const provider: PaymentProvider = Object.assign(Object.create(test) as PaymentProvider, {
      async refund(...args: Parameters<PaymentProvider["refund"]>) {
        calls.push(args[1].idempotencyKey);
        if (!up) throw new Error("card network unreachable");
        return test.refund(...args);
      },
    });
    const providers = onlyProvider(provider);
    const order = await orderRow(t.db, orderId);
    const changed = await changeOrderStatus(
      t.db,
      { orderId, to: "cancelled", expectedVersion: order.version, refund: true, actor: { id: admin.id, name: "Ada Admin", email: admin.email } },
      { providers },
    );
    expect(changed.refund).toBe("failed");
    expect(calls).toHaveLength(1);

    // The refund's job waits behind the request's own try (30 s), for the row's id.
    const [task] = await t.db.select().from(paymentTasks).where(eq(paymentTasks.orderId, orderId));
    const [job] = (await waitingJobs()).filter((j) => j.task === "settlement:provider-call");
    expect(job!.payload).toEqual({ taskId: task!.id });
    // Measured from the decision's own time, so a slow machine cannot make it look early.
    expect(job!.runAt.getTime() - task!.createdAt.getTime()).toBeGreaterThan(25_000);

    // Its run while the provider is still down: tried, and its next job is due when the row says.
    await runCallJob(t.db, task!.id, { providers });
    expect(calls).toHaveLength(2);
    const [after] = await t.db.select().from(paymentTasks).where(eq(paymentTasks.id, task!.id));
    const [next] = (await waitingJobs()).filter((j) => j.task === "settlement:provider-call");
    expect(next!.runAt.toISOString()).toBe(after!.nextAttemptAt.toISOString());

    // The provider is back and the time has come: the queue runs the job, which refunds.
    up = true;
    await t.db.execute(sql`update graphile_worker._private_jobs set run_at = now()`);
    await runShopJobs(t.db, { providers });
    expect(calls).toEqual([`refund-${orderId}`, `refund-${orderId}`, `refund-${orderId}`]);
    const [refunded] = await t.db.select({ paymentStatus: orders.paymentStatus }).from(orders).where(eq(orders.id, orderId));
    expect(refunded!.paymentStatus).toBe("refunded");
    expect(await waitingJobs()).toEqual([]);
    // Run again (a job freed from a killed worker): nobody is called.
    await runCallJob(t.db, task!.id, { providers });
    expect(calls).toHaveLength(3);
  });
});
