import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import { products } from "./catalog";
import { orders } from "./orders";

// After the sale (docs/rules/after-sale.md): saved addresses, the signed-in shopper's cart,
// reviews from verified buyers.

/** A signed-in shopper's addresses: kept from their orders, edited on the profile's Addresses tab. */
export const savedAddresses = pgTable(
  "saved_addresses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    phone: text("phone").notNull().default(""),
    address: text("address").notNull(),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zipCode: text("zip_code").notNull(),
    country: text("country").notNull().default("US"),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index("saved_addresses_user_idx").on(t.userId, t.createdAt),
    // At most one default per shopper.
    uniqueIndex("saved_addresses_one_default").on(t.userId).where(sql`${t.isDefault}`),
  ],
);

/** The cart of a signed-in shopper, saved on the server as it changes (a line per product). */
export const cartLines = pgTable(
  "cart_lines",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] }), check("cart_lines_quantity_positive", sql`${t.quantity} > 0`)],
);

export const REVIEW_STATUSES = ["pending", "approved", "hidden"] as const;

/** One review per shopper and product, only from a shopper with a paid order for it; shown once approved. */
export const reviews = pgTable(
  "reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    /** The paid order that makes it a verified purchase. */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    rating: smallint("rating").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: REVIEW_STATUSES }).notNull().default("pending"),
    reply: text("reply"),
    repliedAt: timestamp("replied_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    check("reviews_rating_range", sql`${t.rating} between 1 and 5`),
    uniqueIndex("reviews_one_per_user").on(t.productId, t.userId),
    index("reviews_product_approved_idx").on(t.productId, t.createdAt.desc()).where(sql`${t.status} = 'approved'`),
    index("reviews_status_idx").on(t.status, t.createdAt.desc()),
  ],
);

/** Addresses that asked for no more reminder mails (the link in each reminder; no sign-in needed). */
export const mailOptOuts = pgTable("mail_opt_outs", {
  emailKey: text("email_key").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
});
