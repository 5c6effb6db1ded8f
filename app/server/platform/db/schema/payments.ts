import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { orders } from "./orders";

export const TEST_PAYMENT_SESSION_STATUSES = ["open", "paid", "declined", "expired", "refunded"] as const;

/**
 * Sessions of the built-in test payment provider: the shop plays the hosted payment page, so it
 * keeps what Stripe would keep (amount, status, where to send the shopper back). Stripe's own
 * sessions live at Stripe; only their id is stored, on the order.
 */
export const testPaymentSessions = pgTable(
  "test_payment_sessions",
  {
    id: text("id").primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    status: text("status", { enum: TEST_PAYMENT_SESSION_STATUSES }).notNull().default("open"),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull().default("usd"),
    customerEmail: text("customer_email").notNull(),
    successUrl: text("success_url").notNull(),
    cancelUrl: text("cancel_url").notNull(),
    // Like a payment intent id: what a refund refers to.
    paymentReference: text("payment_reference"),
    cardLast4: text("card_last4"),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    check("test_payment_sessions_amount_nonnegative", sql`${t.amountCents} >= 0`),
    index("test_payment_sessions_order_idx").on(t.orderId),
  ],
);

/** refund: the whole payment back; refund_difference: `amountCents` of it back (paid more than the order's total). */
export const PAYMENT_TASK_KINDS = ["refund", "expire_session", "refund_difference"] as const;
/** awaiting_owner: recorded, made only once the owner confirms it on the order page. */
export const PAYMENT_TASK_STATES = ["pending", "done", "awaiting_owner"] as const;

/**
 * Payment-provider calls that a transaction decided (refund this order, close that payment page).
 * Written in the same transaction as the decision and carried out afterwards, retried with
 * backoff until the provider answers, so a crash between the two loses nothing. The idempotency
 * key is one per order and kind, so the provider acts once however often the call is repeated.
 */
export const paymentTasks = pgTable(
  "payment_tasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: PAYMENT_TASK_KINDS }).notNull(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    state: text("state", { enum: PAYMENT_TASK_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).defaultNow().notNull(),
    lastError: text("last_error"),
    /** A refund of part of the payment (refund_difference); null: the whole payment. */
    amountCents: bigint("amount_cents", { mode: "number" }),
    /** The timeline note written when the call succeeds (a refund's reason). */
    note: text("note").notNull().default(""),
    actorUserId: text("actor_user_id"),
    actorLabel: text("actor_label").notNull().default("system"),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    doneAt: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [index("payment_tasks_due_idx").on(t.nextAttemptAt).where(sql`${t.state} = 'pending'`), index("payment_tasks_order_idx").on(t.orderId)],
);
