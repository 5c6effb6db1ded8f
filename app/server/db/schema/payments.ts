import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
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
    amountCents: integer("amount_cents").notNull(),
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
