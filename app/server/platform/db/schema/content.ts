import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";

export const blogPosts = pgTable(
  "blog_posts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    slug: text("slug").notNull().unique(),
    excerpt: text("excerpt").notNull().default(""),
    content: text("content").notNull(),
    featuredImageUrl: text("featured_image_url"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    featured: boolean("featured").notNull().default(false),
    published: boolean("published").notNull().default(false),
    metaTitle: text("meta_title").notNull().default(""),
    metaDescription: text("meta_description").notNull().default(""),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index("blog_posts_listing_idx").on(t.published, t.featured.desc(), t.createdAt.desc()),
    index("blog_posts_created_idx").on(t.createdAt.desc()),
  ],
);

/** Site settings: five keys, each an object; missing fields fall back to defaults (docs/rules/catalogue-data.md). */
export const siteSettings = pgTable("site_settings", {
  settingKey: text("setting_key").primaryKey(),
  settingValue: jsonb("setting_value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
});

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    handled: boolean("handled").notNull().default(false),
    handledAt: timestamp("handled_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index("contact_messages_created_idx").on(t.createdAt.desc()),
    // The dashboard's count of messages nobody has answered yet.
    index("contact_messages_open_idx").on(t.createdAt.desc()).where(sql`not ${t.handled}`),
    // A customer's messages on their admin page, newest first (customers/detail.server.ts).
    // Nulls first: the order `desc()` gives in a query, so the page's newest 50 are read in order, unsorted.
    index("contact_messages_email_idx").on(sql`lower(${t.email})`, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/**
 * The footer box's subscriptions, with double opt-in: the box stores the address with
 * `confirmed_at` null and mails a link; only a followed link sets it, and only then is the
 * address listed (docs/rules/storefront.md). Rows written without it (subscriptions from before
 * double opt-in, which were listed already) count as confirmed.
 */
export const newsletterSubscriptions = pgTable(
  "newsletter_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }).defaultNow(),
    /** When the confirmation mail last went out, so a repeated subscribe re-sends it at most so often. */
    confirmationSentAt: timestamp("confirmation_sent_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("newsletter_email_unique").on(sql`lower(${t.email})`)],
);

/** Every mail the shop sends. Without SMTP this is the outbox admins read; with SMTP, a log. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    from: text("from").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    kind: text("kind").notNull().default("general"),
    transport: text("transport", { enum: ["outbox", "smtp"] }).notNull().default("outbox"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    error: text("error"),
    /** The send log: queued → sent, or failed and retried with backoff until 'given_up'. */
    status: text("status", { enum: ["queued", "sent", "retrying", "given_up"] }).notNull().default("sent"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index("mail_outbox_created_idx").on(t.createdAt.desc()),
    index("mail_outbox_to_idx").on(t.to),
    index("mail_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.status} in ('queued', 'retrying')`),
    // Failed mails: counted on every admin page (the Outbox badge), and listed under 'Failed' in this order.
    index("mail_outbox_failed_idx")
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} in ('retrying', 'given_up')`),
  ],
);

/** A CSV import or image migration running on the server; its progress survives a closed page. */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["import", "image-migration"] }).notNull(),
    status: text("status", { enum: ["pending", "running", "done", "failed"] }).notNull().default("pending"),
    detail: jsonb("detail").notNull().default(sql`'{}'::jsonb`),
    total: integer("total").notNull().default(0),
    processed: integer("processed").notNull().default(0),
    succeeded: integer("succeeded").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    errors: jsonb("errors").notNull().default(sql`'[]'::jsonb`),
    result: jsonb("result"),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("jobs_kind_created_idx").on(t.kind, t.createdAt.desc()),
    // One import (or migration) at a time: at most one unfinished job of each kind.
    uniqueIndex("jobs_one_running_per_kind").on(t.kind).where(sql`${t.status} in ('pending', 'running')`),
  ],
);

/** Facts about this installation (schema-level markers such as "the demo seed ran"). */
export const shopMeta = pgTable("shop_meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
});

/**
 * The shop's owner-edited pages, /privacy and /accessibility (docs/rules/visitor-storage.md). A
 * row exists only once the owner saved the page; until then the page shows its template, built
 * from the code (the privacy template lists the shop's cookies and storage keys as they are now).
 * `content` is stored sanitized, as a blog post's body is.
 */
export const shopPages = pgTable("shop_pages", {
  slug: text("slug", { enum: ["privacy", "accessibility"] }).primaryKey(),
  content: text("content").notNull(),
  updatedBy: text("updated_by").references(() => user.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).defaultNow().notNull(),
});
