ALTER TABLE "storefront_changes" ADD COLUMN "tags" text[];--> statement-breakpoint
-- The change log names what each change touches, as tags (docs/decisions/0037): the CDN purge
-- job sends them to the CDN, whose cached pages carry the same names in Surrogate-Key and
-- Cache-Tag (app/server/platform/cdn/keys.server.ts). The page cache still reads product_id
-- (null: everything), so these functions write the rows they wrote before, with tags added.
CREATE OR REPLACE FUNCTION "storefront_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "storefront_changes" ("xid", "tags") VALUES (pg_current_xact_id()::text::bigint,
    CASE
      WHEN TG_OP = 'TRUNCATE' THEN ARRAY['shop']
      -- A new product shows in listings; a deleted one's page is gone too.
      WHEN TG_TABLE_NAME = 'products' AND TG_OP = 'INSERT' THEN ARRAY['listing']
      WHEN TG_TABLE_NAME = 'products' THEN ARRAY['listing', 'products']
      -- A category's name shows on its products' pages and in every listing's filter.
      WHEN TG_TABLE_NAME = 'categories' THEN ARRAY['listing', 'products']
      -- A post's insert or delete: the blog's list, and the deleted post's page.
      WHEN TG_TABLE_NAME = 'blog_posts' AND TG_OP = 'INSERT' THEN ARRAY['blog']
      WHEN TG_TABLE_NAME = 'blog_posts' THEN ARRAY['blog', 'posts']
      -- site_settings, shipping zones and rates: the layout every page shows.
      ELSE ARRAY['settings']
    END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- As in 0019, with tags: a change a product card shows names the listings and each changed
-- product's page; a stock count alone, that product's page (its product_id row, as before).
CREATE OR REPLACE FUNCTION "storefront_products_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stock_changes integer;
  changed text[];
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_rows o JOIN new_rows n ON n."id" = o."id"
    WHERE (to_jsonb(o) - 'stock_quantity' - 'updated_at' - 'cost_cents' - 'low_stock_threshold' - 'low_stock_alerted_at')
          IS DISTINCT FROM (to_jsonb(n) - 'stock_quantity' - 'updated_at' - 'cost_cents' - 'low_stock_threshold' - 'low_stock_alerted_at')
       OR (o."stock_quantity" > 0) <> (n."stock_quantity" > 0)
  ) THEN
    SELECT array_agg(DISTINCT 'product:' || n."id"::text) INTO changed
      FROM old_rows o JOIN new_rows n ON n."id" = o."id"
     WHERE (to_jsonb(o) - 'updated_at' - 'cost_cents' - 'low_stock_threshold' - 'low_stock_alerted_at')
           IS DISTINCT FROM (to_jsonb(n) - 'updated_at' - 'cost_cents' - 'low_stock_threshold' - 'low_stock_alerted_at');
    INSERT INTO "storefront_changes" ("xid", "tags") VALUES (pg_current_xact_id()::text::bigint,
      CASE WHEN cardinality(changed) > 100 THEN ARRAY['listing', 'products'] ELSE ARRAY['listing'] || coalesce(changed, '{}') END);
    RETURN NULL;
  END IF;
  SELECT count(*) INTO stock_changes
    FROM old_rows o JOIN new_rows n ON n."id" = o."id"
   WHERE o."stock_quantity" <> n."stock_quantity";
  IF stock_changes > 100 THEN
    INSERT INTO "storefront_changes" ("xid", "tags") VALUES (pg_current_xact_id()::text::bigint, ARRAY['products']);
  ELSIF stock_changes > 0 THEN
    INSERT INTO "storefront_changes" ("xid", "product_id", "tags")
      SELECT pg_current_xact_id()::text::bigint, n."id", ARRAY['product:' || n."id"::text]
        FROM old_rows o JOIN new_rows n ON n."id" = o."id"
       WHERE o."stock_quantity" <> n."stock_quantity";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A post's edit: the blog's list and that post's page, under its old and its new slug.
CREATE OR REPLACE FUNCTION "storefront_posts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text[];
BEGIN
  SELECT array_agg(DISTINCT 'post:' || s) INTO changed
    FROM (SELECT o."slug" AS s FROM old_rows o UNION SELECT n."slug" FROM new_rows n) slugs;
  INSERT INTO "storefront_changes" ("xid", "tags") VALUES (pg_current_xact_id()::text::bigint,
    CASE WHEN cardinality(changed) > 100 THEN ARRAY['blog', 'posts'] ELSE ARRAY['blog'] || coalesce(changed, '{}') END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "blog_posts_storefront" ON "blog_posts";
--> statement-breakpoint
CREATE TRIGGER "blog_posts_storefront" AFTER INSERT OR DELETE OR TRUNCATE ON "blog_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION "storefront_changed"();
--> statement-breakpoint
CREATE TRIGGER "blog_posts_storefront_update" AFTER UPDATE ON "blog_posts"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "storefront_posts_updated"();
