import { and, eq, inArray, sql } from "drizzle-orm";
import { type Db, enqueue, logger, orderEvents, orders, PAYMENT_TASK_KINDS, paymentTasks } from "../../platform/index.server";
import { releaseDiscountUse } from "../discounts/uses.server";
import { addOrderEvent } from "../orders/events.server";
import { recordPendingRefund, settleRefund } from "./ledger.server";
import { recordRefundSucceeded } from "./refund-settled.server";
import { shopProviders, type Providers } from "./providers.server";

/**
 * Provider calls decided inside a transaction (docs/money-path.md, "Calls that must happen"):
 * `recordProviderCall` writes the call, and its job on the job queue, in the deciding
 * transaction; `runProviderCall` carries it out (the request that decided it, at once; the job,
 * as its guarantee: jobs.server.ts). The task's row stays locked while the provider is called, so
 * two servers never call at once, and a server that dies mid-call releases it for the next try.
 * The idempotency key is one per order and kind, so a call repeated after a crash is answered,
 * not made twice.
 */

export type ProviderCallKind = (typeof PAYMENT_TASK_KINDS)[number];

export type Actor = { actorUserId?: string | null; actorLabel?: string };

export const REFUND_FAILED_NOTE = "Automatic refund failed: refund this payment by hand.";

const KEY_PREFIX: Record<ProviderCallKind, string> = { refund: "refund", expire_session: "expire", refund_difference: "refund-difference" };
export const providerCallKey = (kind: ProviderCallKind, orderId: string) => `${KEY_PREFIX[kind]}-${orderId}`;

/** Seconds before the next try after `attempts` failures: 30 s doubling, at most an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

/** The job that makes one recorded call; one waits per call (its key). */
export const PROVIDER_CALL_TASK = "settlement:provider-call";
const callJobKey = (taskId: string) => `provider-call:${taskId}`;
/**
 * The decision's request makes its call itself right after the commit (an admin waits for the
 * refund's answer); the job is due this much later, so it only acts when that did not happen.
 */
const CALL_JOB_GRACE_MS = 30_000;

/** Gives a recorded call its job: due at `runAt` (after the grace), replacing one still waiting. */
export async function scheduleCallJob(db: Db, taskId: string, runAt = new Date(Date.now() + CALL_JOB_GRACE_MS)): Promise<void> {
  await enqueue(db, PROVIDER_CALL_TASK, { taskId }, { jobKey: callJobKey(taskId), runAt });
}

/**
 * Records that `kind` must be done for an order, with its job, in the caller's transaction.
 * Recording the same call again changes nothing (the first decision's note and actor stand).
 * Returns the task's id.
 */
export async function recordProviderCall(
  tx: Db,
  call: { orderId: string; kind: ProviderCallKind; note?: string; actor?: Actor },
): Promise<string> {
  const key = providerCallKey(call.kind, call.orderId);
  await tx
    .insert(paymentTasks)
    .values({
      orderId: call.orderId,
      kind: call.kind,
      idempotencyKey: key,
      note: call.note ?? "",
      actorUserId: call.actor?.actorUserId ?? null,
      actorLabel: call.actor?.actorLabel ?? "system",
    })
    .onConflictDoNothing({ target: paymentTasks.idempotencyKey });
  const [task] = await tx.select({ id: paymentTasks.id, state: paymentTasks.state }).from(paymentTasks).where(eq(paymentTasks.idempotencyKey, key));
  if (task!.state !== "done") await scheduleCallJob(tx, task!.id);
  // A refund is on the order's ledger from its decision, pending until the provider answers.
  if (call.kind === "refund") await recordPendingRefund(tx, { orderId: call.orderId, paymentTaskId: task!.id, amountCents: null, reason: call.note ?? "", actor: call.actor });
  return task!.id;
}

/** `awaiting_owner`: a refund recorded for the owner to confirm (refund-difference.server.ts); nothing is made until then. */
export type CallOutcome = "done" | "failed" | "busy" | "missing" | "awaiting_owner";

type RunOptions = {
  providers?: Providers;
  /** Who is waiting on the call (an admin cancelling); a failure is put on the timeline in their name. */
  actor?: Actor;
  /** A path that may run again (a reload, the worker) flags a failed refund once, not on every try. */
  flagOnce?: boolean;
  /** The background worker skips a call another server is making; a person waiting for it waits. */
  skipBusy?: boolean;
};

/** Carries out one recorded call now. `busy`: another server is making it at this moment (with `skipBusy`). */
export async function runProviderCall(db: Db, taskId: string, opts: RunOptions = {}): Promise<CallOutcome> {
  const providers = opts.providers ?? shopProviders(db);
  return db.transaction(async (tx): Promise<CallOutcome> => {
    const locked = tx.select().from(paymentTasks).where(eq(paymentTasks.id, taskId));
    const [task] = await (opts.skipBusy ? locked.for("update", { skipLocked: true }) : locked.for("update"));
    if (!task) {
      const [exists] = await db.select({ state: paymentTasks.state }).from(paymentTasks).where(eq(paymentTasks.id, taskId));
      return exists ? (exists.state === "done" ? "done" : "busy") : "missing";
    }
    // A refund the owner closed is given up: never made after that.
    if (task.state === "done" || task.state === "closed") return "done";
    if (task.state === "awaiting_owner") return "awaiting_owner";
    const [order] = await tx.select().from(orders).where(eq(orders.id, task.orderId));
    if (!order) return "missing";
    try {
      const provider = providers.forOrder(order);
      if (task.kind === "refund" || task.kind === "refund_difference") {
        await provider.refund(
          { id: order.paymentSessionId ?? "", paymentReference: order.paymentReference },
          { idempotencyKey: task.idempotencyKey, amountCents: task.amountCents },
        );
      } else if (order.paymentSessionId) {
        await provider.expireSession(order.paymentSessionId);
      }
    } catch (err) {
      const message = (err as Error).message ?? String(err);
      logger.error({ err: message, orderId: order.id, orderNumber: order.orderNumber, call: task.kind }, "payment provider call failed; it will be retried");
      await tx
        .update(paymentTasks)
        .set({
          attempts: sql`${paymentTasks.attempts} + 1`,
          lastError: message.slice(0, 1000),
          nextAttemptAt: sql`now() + make_interval(secs => ${retryDelaySeconds(task.attempts + 1)})`,
        })
        .where(eq(paymentTasks.id, task.id));
      if (task.kind !== "expire_session") await settleRefund(tx, task.id, "failed");
      if (task.kind !== "expire_session" && (!opts.flagOnce || !(await hasRefundFailure(tx, order.id)))) {
        await addOrderEvent(tx, { orderId: order.id, kind: "attention", note: REFUND_FAILED_NOTE, ...opts.actor });
      }
      return "failed";
    }
    await tx
      .update(paymentTasks)
      .set({ state: "done", attempts: sql`${paymentTasks.attempts} + 1`, lastError: null, doneAt: sql`now()` })
      .where(eq(paymentTasks.id, task.id));
    if (task.movementId) {
      // One refund of a part of the order (refunds.server.ts): its own row, its own timeline line and mail.
      await recordRefundSucceeded(tx, task);
      logger.info({ orderId: order.id, orderNumber: order.orderNumber, amountCents: task.amountCents }, "refund made");
    } else if (task.kind === "refund") {
      const refunded = await tx
        .update(orders)
        .set({ paymentStatus: "refunded", updatedAt: new Date(), version: sql`${orders.version} + 1` })
        .where(and(eq(orders.id, order.id), inArray(orders.paymentStatus, ["paid", "partially_refunded"])))
        .returning({ id: orders.id });
      if (refunded.length) {
        await addOrderEvent(tx, {
          orderId: order.id,
          kind: "refund",
          note: task.note,
          actorUserId: task.actorUserId,
          actorLabel: task.actorLabel,
        });
      }
      logger.info({ orderId: order.id, orderNumber: order.orderNumber }, "payment refunded");
    } else if (task.kind === "refund_difference") {
      // Part of a taken order's payment back: it keeps its payment status. A payment the order was
      // not taken for (too little) is all given back, which closes the order and frees its code's use.
      await addOrderEvent(tx, { orderId: order.id, kind: "refund", note: task.note, actorUserId: task.actorUserId, actorLabel: task.actorLabel });
      const closed = await tx
        .update(orders)
        .set({ paymentStatus: "refunded", status: "cancelled", updatedAt: new Date(), version: sql`${orders.version} + 1` })
        .where(and(eq(orders.id, order.id), eq(orders.paymentStatus, "unpaid")))
        .returning({ id: orders.id });
      if (closed.length) {
        await releaseDiscountUse(tx, order.id);
        await addOrderEvent(tx, { orderId: order.id, kind: "status", fromStatus: order.status, toStatus: "cancelled", actorUserId: task.actorUserId, actorLabel: task.actorLabel });
      }
      logger.info({ orderId: order.id, orderNumber: order.orderNumber, amountCents: task.amountCents }, "payment partly refunded");
    }
    // Last, so the order's payment status ends as its ledger says (ledger.server.ts keepPaymentStatus).
    if (task.kind !== "expire_session") await settleRefund(tx, task.id, "succeeded");
    return "done";
  });
}

async function hasRefundFailure(db: Db, orderId: string): Promise<boolean> {
  const [flagged] = await db
    .select({ id: orderEvents.id })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, "attention")))
    .limit(1);
  return flagged !== undefined;
}

/** Runs an order's recorded call of `kind` now, if there is one still to make. */
export async function runOrderCall(db: Db, orderId: string, kind: ProviderCallKind, opts: RunOptions = {}): Promise<CallOutcome> {
  const [task] = await db
    .select({ id: paymentTasks.id })
    .from(paymentTasks)
    .where(eq(paymentTasks.idempotencyKey, providerCallKey(kind, orderId)));
  return task ? runProviderCall(db, task.id, opts) : "missing";
}
