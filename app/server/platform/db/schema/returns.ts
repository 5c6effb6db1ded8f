import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { orders } from "./orders";

// Returns and the EU right of withdrawal (docs/rules/returns.md): the shopper asks, the owner walks
// the return through its states; a withdrawal is a return opened by the shopper's declaration.

export const RETURN_STATES = ["requested", "approved", "rejected", "received", "refunded", "closed"] as const;
export const RETURN_REASONS = ["damaged", "wrong_item", "not_as_described", "changed_mind", "other"] as const;
export const RETURN_KINDS = ["return", "withdrawal"] as const;

/** A line of a return: which order line, how many units; `restock` is decided when it is received. */
export type ReturnedLine = { orderItemId: string; quantity: number; restock?: boolean | null };

export const orderReturns = pgTable(
  "order_returns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** The order's n-th return, 1 up; the return number is R-<order number>-<n>. */
    sequence: integer("sequence").notNull(),
    returnNumber: text("return_number").notNull().unique(),
    kind: text("kind", { enum: RETURN_KINDS }).notNull().default("return"),
    state: text("state", { enum: RETURN_STATES }).notNull().default("requested"),
    reason: text("reason", { enum: RETURN_REASONS }).notNull(),
    reasonText: text("reason_text").notNull().default(""),
    lines: jsonb("lines").$type<ReturnedLine[]>().notNull(),
    /** What the owner last told the shopper (a rejection's reason, a note with the approval). */
    shopperMessage: text("shopper_message").notNull().default(""),
    /** The form's key: a second submission of the same form finds this return instead of making another. */
    requestKey: text("request_key").notNull(),
    requestedByUserId: text("requested_by_user_id").references(() => user.id, { onDelete: "set null" }),
    /** A withdrawal: when the shopper declared it (the acknowledgement quotes it). */
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    check("order_returns_sequence_positive", sql`${t.sequence} > 0`),
    uniqueIndex("order_returns_order_sequence_idx").on(t.orderId, t.sequence),
    uniqueIndex("order_returns_request_key_idx").on(t.orderId, t.requestKey),
    index("order_returns_state_idx").on(t.state, t.createdAt.desc()),
  ],
);
