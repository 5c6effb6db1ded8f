import { bigint, bigserial, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * A log of writes that change what anonymous storefront pages show, one row per statement,
 * written by triggers on products, categories, site_settings and blog_posts (migration 0008).
 * The page cache (app/server/platform/http/storefront-changes.server.ts) reads the rows committed since
 * its last look, so a page is kept only while nothing it shows has changed. `productId` set: only that product's stock count
 * changed (its page is stale, listings are not); null: anything else.
 */
export const storefrontChanges = pgTable(
  "storefront_changes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    // The writing transaction's id (xid8), compared with a render's pg_snapshot.
    xid: bigint("xid", { mode: "bigint" }).notNull(),
    productId: uuid("product_id"),
    // What the change touches, as the CDN's surrogate keys name it (`listing`, `product:<id>`…;
    // app/server/platform/cdn/keys.server.ts, docs/decisions/0037). Null: its product's page, or
    // everything (rows written before migration 0035).
    tags: text("tags").array(),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    // Each check reads the rows of the transactions that committed since the previous check.
    index("storefront_changes_xid_idx").on(t.xid),
    index("storefront_changes_created_idx").on(t.createdAt),
  ],
);
