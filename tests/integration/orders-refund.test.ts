import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentTasks, testPaymentSessions } from "~/server/platform/db/schema";
import { changeOrderStatus } from "~/server/commerce/orders/status.server";
import type { PaymentProvider } from "~/server/commerce/payments/index.server";
import { getPaymentProvider } from "~/server/commerce/payments/index.server";
import { recordProviderCall, retryDelaySeconds, runOrderCall, type Actor } from "~/server/commerce/settlement/provider-calls.server";
import { onlyProvider } from "~/server/commerce/settlement/providers.server";
import { runDueProviderCalls } from "~/server/commerce/settlement/worker.server";
import { orderTimeline } from "../factories/orders";
import { makeAdmin } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { orderRow, paidOrder } from "./admin-orders-helpers";

const t = useTestDatabase();

/** A provider whose refunds are refused, counting the attempts and the keys they carried. */
function refusingProvider() {
  const keys: string[] = [];
  const provider = {
    name: "test",
    async refund(_session: unknown, opts: { idempotencyKey: string }) {
      keys.push(opts.idempotencyKey);
      throw new Error("card network unreachable");
    },
  } as unknown as PaymentProvider;
  return { provider, keys };
}

/** The test provider, counting the refunds it is asked for. */
function countingProvider() {
  const test = getPaymentProvider(t.db, "test");
  const keys: string[] = [];
  const provider: PaymentProvider = Object.assign(Object.create(test) as PaymentProvider, {
    async refund(...args: Parameters<PaymentProvider["refund"]>) {
      keys.push(args[1].idempotencyKey);
      return test.refund(...args);
    },
  });
  return { provider, keys };
}

/** Decides a refund (recorded in a transaction of its own) and makes the call at once. */
async function refund(orderId: string, opts: { note: string; actor?: Actor; flagOnce?: boolean; provider?: PaymentProvider }) {
  await t.db.transaction((tx) => recordProviderCall(tx, { orderId, kind: "refund", note: opts.note, actor: opts.actor }));
  const providers = opts.provider ? onlyProvider(opts.provider) : undefined;
  return (await runOrderCall(t.db, orderId, "refund", { providers, actor: opts.actor, flagOnce: opts.flagOnce })) === "done";
}

const attention = async (orderId: string) =>
  (await orderTimeline(t.db, orderId)).filter((e) => e.kind === "attention").map((e) => [e.note, e.actorLabel]);

const tasksOf = (orderId: string) => t.db.select().from(paymentTasks).where(eq(paymentTasks.orderId, orderId));

describe("refunds decided by settlement", () => {
  it("refunds once through the order's provider, marks the order refunded and notes who asked", async () => {
    const { orderId } = await paidOrder(t.db);
    const order = await orderRow(t.db, orderId);
    const opts = { note: "Payment refunded in full: the order was cancelled.", actor: { actorUserId: null, actorLabel: "Ada Admin" } };
    expect(await refund(orderId, opts)).toBe(true);
    expect(await refund(orderId, opts)).toBe(true);
    const after = await orderRow(t.db, orderId);
    expect(after).toMatchObject({ paymentStatus: "refunded", version: order.version + 1 });
    const refunds = (await orderTimeline(t.db, orderId)).filter((e) => e.kind === "refund");
    expect(refunds.map((e) => [e.note, e.actorLabel])).toEqual([["Payment refunded in full: the order was cancelled.", "Ada Admin"]]);
  });

  it("asks a person to refund by hand when the provider refuses, once per order on a retried path", async () => {
    const { orderId } = await paidOrder(t.db);
    const { provider, keys } = refusingProvider();
    const soldOut = { note: "r", flagOnce: true, provider };
    expect(await refund(orderId, soldOut)).toBe(false);
    expect(await refund(orderId, soldOut)).toBe(false);
    expect(keys).toEqual([`refund-${orderId}`, `refund-${orderId}`]);
    expect(await attention(orderId)).toEqual([["Automatic refund failed: refund this payment by hand.", "system"]]);
    expect((await orderRow(t.db, orderId)).paymentStatus).toBe("paid");

    const cancel = { note: "r", actor: { actorUserId: null, actorLabel: "Bob Admin" }, provider };
    expect(await refund(orderId, cancel)).toBe(false);
    expect(await attention(orderId)).toEqual([
      ["Automatic refund failed: refund this payment by hand.", "system"],
      ["Automatic refund failed: refund this payment by hand.", "Bob Admin"],
    ]);
  });

  it("keeps a refused refund and retries it with growing waits until the provider answers, then refunds once", async () => {
    const { orderId } = await paidOrder(t.db);
    const { provider: down } = refusingProvider();
    expect(await refund(orderId, { note: "Refund it", provider: down })).toBe(false);
    const [task] = await tasksOf(orderId);
    expect(task).toMatchObject({ state: "pending", attempts: 1, lastError: "card network unreachable" });
    // Not due yet: the worker leaves it alone until its wait is over.
    const counting = countingProvider();
    expect(await runDueProviderCalls(t.db, { providers: onlyProvider(counting.provider) })).toBe(0);
    expect(counting.keys).toEqual([]);

    await t.db.update(paymentTasks).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(paymentTasks.orderId, orderId));
    expect(await runDueProviderCalls(t.db, { providers: onlyProvider(counting.provider) })).toBe(1);
    expect(counting.keys).toEqual([`refund-${orderId}`]);
    expect(await orderRow(t.db, orderId)).toMatchObject({ paymentStatus: "refunded" });
    expect((await tasksOf(orderId))[0]).toMatchObject({ state: "done", attempts: 2, lastError: null });
    // Done is done: later runs never call the provider again.
    expect(await runDueProviderCalls(t.db, { providers: onlyProvider(counting.provider) })).toBe(0);
    expect(counting.keys).toHaveLength(1);
    expect(retryDelaySeconds(1)).toBe(30);
    expect(retryDelaySeconds(3)).toBe(120);
    expect(retryDelaySeconds(20)).toBe(3600);
  });

  it("records an admin's cancel-with-refund in the cancel's transaction: a process that dies before the call leaves it for the worker", async () => {
    const admin = await makeAdmin(t.db);
    const { orderId, sessionId } = await paidOrder(t.db);
    // The provider never gets the call: the process 'dies' between the commit and the call.
    const dying = {
      name: "test",
      async refund() {
        throw new Error("process killed before the call went out");
      },
    } as unknown as PaymentProvider;
    const result = await changeOrderStatus(
      t.db,
      { orderId, to: "cancelled", expectedVersion: (await orderRow(t.db, orderId)).version, actor: { id: admin.id, name: "Ada", email: admin.email }, refund: true },
      { providers: onlyProvider(dying) },
    );
    expect(result).toMatchObject({ to: "cancelled", stockReturned: true, refund: "failed" });
    expect(await tasksOf(orderId)).toMatchObject([{ kind: "refund", state: "pending", idempotencyKey: `refund-${orderId}` }]);

    await t.db.update(paymentTasks).set({ nextAttemptAt: sql`now()` }).where(eq(paymentTasks.orderId, orderId));
    const counting = countingProvider();
    expect(await runDueProviderCalls(t.db, { providers: onlyProvider(counting.provider) })).toBe(1);
    expect(counting.keys).toEqual([`refund-${orderId}`]);
    expect(await orderRow(t.db, orderId)).toMatchObject({ status: "cancelled", paymentStatus: "refunded" });
    const [session] = await t.db.select().from(testPaymentSessions).where(eq(testPaymentSessions.id, sessionId));
    expect(session?.status).toBe("refunded");
    const refunds = (await orderTimeline(t.db, orderId)).filter((e) => e.kind === "refund");
    expect(refunds.map((e) => [e.note, e.actorLabel])).toEqual([["Payment refunded in full: the order was cancelled.", "Ada"]]);
  });

  it("records nothing when the deciding transaction rolls back", async () => {
    const { orderId } = await paidOrder(t.db);
    await expect(
      t.db.transaction(async (tx) => {
        await recordProviderCall(tx, { orderId, kind: "refund", note: "x" });
        throw new Error("the decision failed");
      }),
    ).rejects.toThrow("the decision failed");
    expect(await tasksOf(orderId)).toEqual([]);
  });
});
