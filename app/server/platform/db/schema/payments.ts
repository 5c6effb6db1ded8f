import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { orderItems, orders } from "./orders";

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
/**
 * awaiting_owner: recorded, made only once the owner confirms it on the order page. closed: a
 * refused refund the owner gave up (commerce/settlement/refunds.server.ts `closeFailedRefund`).
 */
export const PAYMENT_TASK_STATES = ["pending", "done", "awaiting_owner", "closed"] as const;

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
    /**
     * The ledger row this call makes (a partial refund: one call per refund, its key
     * `refund-<movement id>`); null for the whole-order calls keyed per order and kind.
     */
    movementId: uuid("movement_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    doneAt: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [index("payment_tasks_due_idx").on(t.nextAttemptAt).where(sql`${t.state} = 'pending'`), index("payment_tasks_order_idx").on(t.orderId)],
);

export const MONEY_MOVEMENT_KINDS = ["charge", "refund"] as const;
export const MONEY_MOVEMENT_STATES = ["pending", "succeeded", "failed"] as const;

/**
 * A line given back by a refund: which order line, how many, how much of the refund it is, the tax
 * in that amount, and whether its units went back to stock (rows from before partial refunds have
 * neither of the last two).
 */
export type RefundedLine = { orderItemId: string; quantity: number; amountCents: number; taxCents?: number; restock?: boolean };

/**
 * The order's ledger: every movement of money on an order is a row (the charge, each refund), so
 * what was paid, given back and still held is summed from it (commerce/settlement/ledger.server.ts),
 * not kept as a flag. A refund made by a recorded provider call carries that call's id and follows
 * its outcome: pending when decided, succeeded or failed once the provider has answered.
 */
export const orderMoneyMovements = pgTable(
  "order_money_movements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: MONEY_MOVEMENT_KINDS }).notNull(),
    /** Always positive or zero; the kind says which way the money went. */
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull().default("usd"),
    state: text("state", { enum: MONEY_MOVEMENT_STATES }).notNull().default("pending"),
    /** The provider's id for it: a charge's payment intent (or session), a refund's payment it refers to. */
    providerReference: text("provider_reference"),
    /** The recorded provider call that makes this refund (payment_tasks); one movement per call. */
    paymentTaskId: uuid("payment_task_id")
      .unique()
      .references(() => paymentTasks.id, { onDelete: "set null" }),
    /** Of a refund: how much of it is shipping, how much a free adjustment (with its reason), which lines. */
    shippingCents: bigint("shipping_cents", { mode: "number" }).notNull().default(0),
    adjustmentCents: bigint("adjustment_cents", { mode: "number" }).notNull().default(0),
    adjustmentReason: text("adjustment_reason"),
    lines: jsonb("lines").$type<RefundedLine[]>().notNull().default([]),
    /** Of a refund: the tax in its amount (its lines' tax shares and shipping's). */
    taxCents: bigint("tax_cents", { mode: "number" }).notNull().default(0),
    /** A refund made for a return (order_returns.id): its stock was settled when the return was received. */
    returnId: uuid("return_id"),
    /** A failed refund the owner gave up ('Close'): it no longer counts as refunded or owed. */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** Who asked: a user's id, or none with the label 'shop' (the shop's own rule) or 'system'. */
    actorUserId: text("actor_user_id"),
    actorLabel: text("actor_label").notNull().default("system"),
    reason: text("reason").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    check("order_money_movements_amounts_nonnegative", sql`${t.amountCents} >= 0 and ${t.shippingCents} >= 0 and ${t.adjustmentCents} >= 0`),
    index("order_money_movements_order_idx").on(t.orderId, t.createdAt),
    // The reports' refunds, each on the day it succeeded.
    index("order_money_movements_refunds_idx").on(t.settledAt).where(sql`${t.kind} = 'refund' and ${t.state} = 'succeeded'`),
  ],
);

export const STOCK_MOVE_KINDS = ["restocked", "written_off"] as const;
export const STOCK_MOVE_SOURCES = ["refund", "return"] as const;

/**
 * Units of an order line that came back after the sale: put back in stock or written off, by a
 * refund (its ledger row) or a received return. One row per line, kind and source, so each
 * happens exactly once however often it is asked (commerce/settlement/refunds.server.ts).
 */
export const orderStockMoves = pgTable(
  "order_stock_moves",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    orderItemId: uuid("order_item_id")
      .notNull()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    kind: text("kind", { enum: STOCK_MOVE_KINDS }).notNull(),
    source: text("source", { enum: STOCK_MOVE_SOURCES }).notNull(),
    /** The refund's ledger row (source refund) or the return (source return). */
    sourceId: uuid("source_id").notNull(),
    actorUserId: text("actor_user_id"),
    actorLabel: text("actor_label").notNull().default("system"),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    check("order_stock_moves_quantity_positive", sql`${t.quantity} > 0`),
    uniqueIndex("order_stock_moves_once_idx").on(t.source, t.sourceId, t.orderItemId, t.kind),
    index("order_stock_moves_order_idx").on(t.orderId, t.createdAt),
  ],
);

/**
 * Refunds the built-in test provider was asked for: one row per idempotency key (a repeated call
 * is answered, not made twice), so tests can read what was given back.
 */
export const testPaymentRefunds = pgTable(
  "test_payment_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: text("session_id")
      .notNull()
      .references(() => testPaymentSessions.id, { onDelete: "cascade" }),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [check("test_payment_refunds_amount_nonnegative", sql`${t.amountCents} >= 0`), index("test_payment_refunds_session_idx").on(t.sessionId)],
);
