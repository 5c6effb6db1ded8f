import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";

// The owner's figures (docs/rules/analytics.md). Every table here is a roll-up: a count or sum
// per UTC day kept up to date as the shop works, so a year's figures are read from a few hundred
// rows, never from the orders themselves. Days are UTC dates.

/**
 * One row per customer: every account, and every guest email that placed an order. Keyed by the
 * lower-cased email, so an account and the guest orders placed with its address are one customer.
 * Kept by triggers on users, orders and newsletter_subscriptions (migration 0013).
 */
export const customers = pgTable(
  "customers",
  {
    emailKey: text("email_key").primaryKey(),
    /** The customer's address in the admin (/admin/customers/:id). */
    id: uuid("id").notNull().unique().defaultRandom(),
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    hasAccount: boolean("has_account").notNull().default(false),
    /** Orders that count (paid, not cancelled or refunded) and their totals. */
    ordersCount: integer("orders_count").notNull().default(0),
    spentCents: bigint("spent_cents", { mode: "number" }).notNull().default(0),
    firstOrderAt: timestamp("first_order_at", { withTimezone: true }),
    lastOrderAt: timestamp("last_order_at", { withTimezone: true }),
    subscribed: boolean("subscribed").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index("customers_search_trgm_idx").using("gin", sql`lower(${t.name} || ' ' || ${t.email}) gin_trgm_ops`),
    // Each sortable column pages through its own index (the key breaks ties).
    index("customers_name_idx").on(t.name, t.emailKey),
    index("customers_orders_idx").on(t.ordersCount, t.emailKey),
    index("customers_spent_idx").on(t.spentCents, t.emailKey),
    index("customers_last_order_idx").on(t.lastOrderAt, t.emailKey),
    index("customers_first_order_idx").on(t.firstOrderAt),
    index("customers_created_idx").on(t.createdAt, t.emailKey),
    index("customers_user_idx").on(t.userId),
  ],
);

/**
 * Gross sales per UTC day of payment: every order that was paid, added when paid and kept there
 * when it is refunded or cancelled later (refunds count on their own day: salesRefundsDaily).
 */
export const salesDaily = pgTable("sales_daily", {
  day: date("day").primaryKey(),
  orders: integer("orders").notNull().default(0),
  revenueCents: bigint("revenue_cents", { mode: "number" }).notNull().default(0),
  units: integer("units").notNull().default(0),
  subtotalCents: bigint("subtotal_cents", { mode: "number" }).notNull().default(0),
  discountCents: bigint("discount_cents", { mode: "number" }).notNull().default(0),
  shippingCents: bigint("shipping_cents", { mode: "number" }).notNull().default(0),
  taxCents: bigint("tax_cents", { mode: "number" }).notNull().default(0),
  /** Orders that used a discount code. */
  discountedOrders: integer("discounted_orders").notNull().default(0),
});

/**
 * Sales per UTC day and product, from the order lines of orders that count. A line whose product
 * was deleted is kept under the nil UUID. Name and category are the product's at the time of sale.
 */
export const salesDailyProducts = pgTable(
  "sales_daily_products",
  {
    day: date("day").notNull(),
    productId: uuid("product_id").notNull(),
    name: text("name").notNull(),
    category: text("category").notNull(),
    units: integer("units").notNull().default(0),
    revenueCents: bigint("revenue_cents", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.productId] }),
    // One product's days, read index-only (app/server/insight/analytics/sales.server.ts, productTotals).
    index("sales_daily_products_product_idx").on(t.productId, t.day, t.units, t.revenueCents),
  ],
);

/**
 * Visits per UTC day, counted on the server without cookies (app/server/insight/analytics/visits). The
 * "…_visitors" columns are estimated unique visitors that reached each step of the funnel.
 */
export const visitsDaily = pgTable("visits_daily", {
  day: date("day").primaryKey(),
  pageViews: integer("page_views").notNull().default(0),
  visitors: integer("visitors").notNull().default(0),
  productViewers: integer("product_viewers").notNull().default(0),
  cartAdders: integer("cart_adders").notNull().default(0),
  checkoutStarters: integer("checkout_starters").notNull().default(0),
  cartAdds: integer("cart_adds").notNull().default(0),
});

/** Page views per UTC day and path (query string dropped, length capped). */
export const pageViewsDaily = pgTable(
  "page_views_daily",
  {
    day: date("day").notNull(),
    path: text("path").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.path] })],
);

/**
 * Today's (and yesterday's) visitor hashes: a hash of the day's salt, the address and the user
 * agent, and the funnel steps (a bit each) that visitor reached. Older days are deleted; only
 * the counts in visits_daily remain.
 */
export const visitorDays = pgTable(
  "visitor_days",
  {
    day: date("day").notNull(),
    hash: text("hash").notNull(),
    steps: smallint("steps").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.hash] })],
);

/** The salt of each day's visitor hashes, shared by the app servers; deleted when its day is over. */
export const visitSalts = pgTable("visit_salts", {
  day: date("day").primaryKey(),
  salt: text("salt").notNull(),
});

/** Storefront searches per UTC day and normalised term, and how many of them found nothing. */
export const searchTermsDaily = pgTable(
  "search_terms_daily",
  {
    day: date("day").notNull(),
    term: text("term").notNull(),
    searches: integer("searches").notNull().default(0),
    emptySearches: integer("empty_searches").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.term] }), index("search_terms_daily_term_idx").on(t.term)],
);

/**
 * The sales roll-ups' ledger: one row per order that counts, holding exactly what it added to
 * the roll-ups (its UTC day, its money, and per product the units, revenue and category it was
 * counted under), so taking it back subtracts the same figures even when the product was renamed,
 * moved to another category or deleted since. `previous_day` is the day of the same customer's
 * previous counted order (null for their first), which keeps new vs returning customers exact.
 * Kept by the triggers of migrations 0014 and its companion; rebuilt by sales_rollups_rebuild().
 */
export const salesCountedOrders = pgTable(
  "sales_counted_orders",
  {
    orderId: uuid("order_id").primaryKey(),
    day: date("day").notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }).notNull(),
    /** lower(email): one customer per address, as in `customers`. */
    emailKey: text("email_key").notNull(),
    previousDay: date("previous_day"),
    revenueCents: bigint("revenue_cents", { mode: "number" }).notNull(),
    units: integer("units").notNull(),
    subtotalCents: bigint("subtotal_cents", { mode: "number" }).notNull(),
    discountCents: bigint("discount_cents", { mode: "number" }).notNull(),
    shippingCents: bigint("shipping_cents", { mode: "number" }).notNull(),
    taxCents: bigint("tax_cents", { mode: "number" }).notNull(),
    discounted: boolean("discounted").notNull(),
    /** Parallel arrays, one entry per product of the order (lines of one product summed). */
    productIds: uuid("product_ids").array().notNull(),
    categories: text("categories").array().notNull(),
    productUnits: integer("product_units").array().notNull(),
    productRevenueCents: bigint("product_revenue_cents", { mode: "number" }).array().notNull(),
  },
  (t) => [index("sales_counted_orders_customer_idx").on(t.emailKey, t.paidAt, t.orderId)],
);

/**
 * Refunds of sales per UTC day they succeeded (docs/rules/analytics.md, What counts as a sale):
 * the order ledger's succeeded refunds of paid orders, and a paid order's cancellation as a refund
 * of whatever was left, on the day it was cancelled. Net sales of a day is its gross less these.
 */
export const salesRefundsDaily = pgTable("sales_refunds_daily", {
  day: date("day").primaryKey(),
  refunds: integer("refunds").notNull().default(0),
  refundedCents: bigint("refunded_cents", { mode: "number" }).notNull().default(0),
});

/**
 * What each order subtracted from `sales_refunds_daily`, per day: the refunds roll-up's ledger, so
 * a change of the order takes back exactly what it had added. Kept by sales_refunds_sync().
 */
export const salesCountedRefunds = pgTable(
  "sales_counted_refunds",
  {
    orderId: uuid("order_id").notNull(),
    day: date("day").notNull(),
    refunds: integer("refunds").notNull(),
    refundedCents: bigint("refunded_cents", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.day] })],
);

/** Sales per calendar month (its first day) and product: a year's top products read ~12 rows per product. */
export const salesMonthlyProducts = pgTable(
  "sales_monthly_products",
  {
    month: date("month").notNull(),
    productId: uuid("product_id").notNull(),
    name: text("name").notNull(),
    category: text("category").notNull(),
    units: integer("units").notNull().default(0),
    revenueCents: bigint("revenue_cents", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.month, t.productId] }),
    // A month's best sellers by revenue and by units (the top products' candidates), index-only.
    index("sales_monthly_products_revenue_idx").on(t.month, t.revenueCents.desc(), t.productId),
    index("sales_monthly_products_units_idx").on(t.month, t.units.desc(), t.productId),
    // One product's months, index-only.
    index("sales_monthly_products_product_idx").on(t.productId, t.month, t.units, t.revenueCents),
  ],
);

/** Sales per UTC day and category (the product's category when the order was counted). */
export const salesDailyCategories = pgTable(
  "sales_daily_categories",
  {
    day: date("day").notNull(),
    category: text("category").notNull(),
    units: integer("units").notNull().default(0),
    revenueCents: bigint("revenue_cents", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.category] })],
);

/** Customers whose first counted order was on this UTC day. */
export const firstOrdersDaily = pgTable("first_orders_daily", {
  day: date("day").primaryKey(),
  customers: integer("customers").notNull().default(0),
});

/**
 * Counted orders on `day` whose customer's previous counted order was on `previous_day`. The
 * returning customers of a range [start, end] are the orders with day in the range and
 * previous_day before start: each such customer's first order in the range, once.
 */
export const repeatOrdersDaily = pgTable(
  "repeat_orders_daily",
  {
    day: date("day").notNull(),
    previousDay: date("previous_day").notNull(),
    orders: integer("orders").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.previousDay] })],
);

/**
 * Storefront searches per calendar month (its first day) and term: search_terms_daily summed,
 * kept by a trigger on it (migration 0018's companion), so a year's top terms read ~12 rows per
 * term instead of 365.
 */
export const searchTermsMonthly = pgTable(
  "search_terms_monthly",
  {
    month: date("month").notNull(),
    term: text("term").notNull(),
    searches: integer("searches").notNull().default(0),
    emptySearches: integer("empty_searches").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.term] })],
);
