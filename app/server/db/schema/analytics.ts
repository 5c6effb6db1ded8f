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

/** Sales per UTC day of payment: orders that count, added when paid, taken back when refunded or cancelled. */
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
  (t) => [primaryKey({ columns: [t.day, t.productId] })],
);

/**
 * Visits per UTC day, counted on the server without cookies (app/server/analytics/visits). The
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
