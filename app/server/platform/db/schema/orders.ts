import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { products } from "./catalog";

export const ORDER_STATUSES = ["pending", "processing", "shipped", "completed", "cancelled"] as const;
// paid, partially_refunded and refunded are the order ledger's state, kept by settlement/ledger.server.ts.
export const PAYMENT_STATUSES = ["unpaid", "paid", "failed", "expired", "refunded", "partially_refunded"] as const;

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Orders outlive accounts: a deleted user leaves the order with no owner.
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    orderNumber: text("order_number").notNull().unique(),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("pending"),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull().default("unpaid"),
    // Money that adds up over lines is bigint (a JS number below 2^53): 99 of a $1,000,000.00
    // product pass integer's 2^31-1 cents before any limit is checked (docs/money-path.md).
    subtotalCents: bigint("subtotal_cents", { mode: "number" }).notNull(),
    // The quote the order was placed at (app/server/commerce/pricing): every money line, as charged.
    discountCents: bigint("discount_cents", { mode: "number" }).notNull().default(0),
    discountCode: text("discount_code"),
    /** What kind of code it was when the order was placed (percent, fixed, free_shipping): the pages print what it did. */
    discountKind: text("discount_kind", { enum: ["percent", "fixed", "free_shipping"] }),
    shippingRateId: uuid("shipping_rate_id"),
    shippingCents: integer("shipping_cents").notNull().default(0),
    shippingName: text("shipping_name").notNull().default("Standard"),
    taxCents: bigint("tax_cents", { mode: "number" }).notNull().default(0),
    taxName: text("tax_name").notNull().default("Tax"),
    taxRateBasisPoints: integer("tax_rate_basis_points").notNull().default(0),
    pricesIncludeTax: boolean("prices_include_tax").notNull().default(false),
    totalAmountCents: bigint("total_amount_cents", { mode: "number" }).notNull(),
    /** What the ledger gave back of the total (0..total), kept with payment_status by the ledger's writer. */
    refundedCents: bigint("refunded_cents", { mode: "number" }).notNull().default(0),
    currency: text("currency").notNull().default("usd"),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    phone: text("phone").notNull().default(""),
    address: text("address").notNull(),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zipCode: text("zip_code").notNull(),
    country: text("country").notNull().default("US"),
    paymentProvider: text("payment_provider").notNull().default("test"),
    paymentSessionId: text("payment_session_id").unique(),
    paymentReference: text("payment_reference"),
    // One order per checkout submission, even when the button is pressed twice.
    checkoutKey: text("checkout_key").unique(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** Shipping: the carrier picked when marked shipped (ups, usps, fedex, dhl, other) and its tracking. */
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    trackingUrl: text("tracking_url"),
    /** The shopper ticked 'Email me about my order' at checkout (the abandoned-checkout reminder may write). */
    emailAboutOrder: boolean("email_about_order").notNull().default(false),
    reminderSentAt: timestamp("reminder_sent_at", { withTimezone: true }),
    // Set when stock taken by a paid order was put back (cancellation), so it happens once.
    stockReleasedAt: timestamp("stock_released_at", { withTimezone: true }),
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    check("orders_totals_nonnegative", sql`${t.subtotalCents} >= 0 and ${t.totalAmountCents} >= 0`),
    check("orders_parts_nonnegative", sql`${t.discountCents} >= 0 and ${t.shippingCents} >= 0 and ${t.taxCents} >= 0`),
    index("orders_user_idx").on(t.userId, t.createdAt.desc()),
    index("orders_created_idx").on(t.createdAt.desc()),
    index("orders_status_idx").on(t.status, t.createdAt.desc()),
    index("orders_email_idx").on(sql`lower(${t.email})`),
    // The dashboard: the latest payments, and paid orders (partly refunded ones too) still waiting to ship (few at any time).
    index("orders_paid_idx").on(t.paidAt.desc()).where(sql`${t.paidAt} is not null`),
    index("orders_unshipped_idx").on(t.paidAt).where(sql`${t.paymentStatus} in ('paid', 'partially_refunded') and ${t.status} in ('pending', 'processing')`),
    // The Discount codes report: orders that count and used a code, by the day they were paid.
    index("orders_discounted_idx")
      .on(t.paidAt)
      .where(sql`${t.discountCode} is not null and ${t.paymentStatus} in ('paid', 'partially_refunded') and ${t.status} <> 'cancelled'`),
  ],
);

/** A snapshot of each line at the time of purchase; later product edits never change it. */
export const orderItems = pgTable(
  "order_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: uuid("product_id").references(() => products.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    imageUrl: text("image_url").notNull().default(""),
    unitPriceCents: integer("unit_price_cents").notNull(),
    quantity: integer("quantity").notNull(),
    lineTotalCents: bigint("line_total_cents", { mode: "number" }).notNull(),
    discountCents: bigint("discount_cents", { mode: "number" }).notNull().default(0),
    taxCents: bigint("tax_cents", { mode: "number" }).notNull().default(0),
    // Whether this line took stock (false for unlimited-stock products), so a cancel returns exactly that.
    stockTracked: boolean("stock_tracked").notNull().default(true),
  },
  (t) => [
    check("order_items_quantity_positive", sql`${t.quantity} > 0`),
    index("order_items_order_idx").on(t.orderId),
    index("order_items_product_idx").on(t.productId),
  ],
);

/** The timeline of an order: every status or payment change, who made it and when. */
export const orderEvents = pgTable(
  "order_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind").notNull().default("status"),
    fromStatus: text("from_status"),
    toStatus: text("to_status"),
    note: text("note").notNull().default(""),
    actorUserId: text("actor_user_id").references(() => user.id, { onDelete: "set null" }),
    actorLabel: text("actor_label").notNull().default("system"),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [index("order_events_order_idx").on(t.orderId, t.createdAt)],
);
