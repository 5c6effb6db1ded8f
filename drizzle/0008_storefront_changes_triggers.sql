-- Every write that changes what an anonymous storefront page shows leaves a row in
-- storefront_changes (app/server/http/page-cache.server.ts reads them). Statement-level
-- triggers only insert: no shared row is locked, so writers never wait on one another here.
CREATE OR REPLACE FUNCTION "storefront_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "storefront_changes" ("xid") VALUES (pg_current_xact_id()::text::bigint);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A checkout takes stock without changing any listing (a card only shows whether a product can
-- be bought): such an update marks just the product pages whose count changed. Any other change,
-- or stock reaching or leaving zero, marks everything.
CREATE OR REPLACE FUNCTION "storefront_products_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stock_changes integer;
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_rows o JOIN new_rows n ON n."id" = o."id"
    WHERE (to_jsonb(o) - 'stock_quantity' - 'updated_at') IS DISTINCT FROM (to_jsonb(n) - 'stock_quantity' - 'updated_at')
       OR (o."stock_quantity" > 0) <> (n."stock_quantity" > 0)
  ) THEN
    INSERT INTO "storefront_changes" ("xid") VALUES (pg_current_xact_id()::text::bigint);
    RETURN NULL;
  END IF;
  SELECT count(*) INTO stock_changes
    FROM old_rows o JOIN new_rows n ON n."id" = o."id"
   WHERE o."stock_quantity" <> n."stock_quantity";
  IF stock_changes > 100 THEN
    INSERT INTO "storefront_changes" ("xid") VALUES (pg_current_xact_id()::text::bigint);
  ELSIF stock_changes > 0 THEN
    INSERT INTO "storefront_changes" ("xid", "product_id")
      SELECT pg_current_xact_id()::text::bigint, n."id"
        FROM old_rows o JOIN new_rows n ON n."id" = o."id"
       WHERE o."stock_quantity" <> n."stock_quantity";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "products_storefront_rows" AFTER INSERT OR DELETE OR TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "storefront_changed"();
--> statement-breakpoint
CREATE TRIGGER "products_storefront_update" AFTER UPDATE ON "products"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "storefront_products_updated"();
--> statement-breakpoint
CREATE TRIGGER "categories_storefront" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories"
  FOR EACH STATEMENT EXECUTE FUNCTION "storefront_changed"();
--> statement-breakpoint
CREATE TRIGGER "site_settings_storefront" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "site_settings"
  FOR EACH STATEMENT EXECUTE FUNCTION "storefront_changed"();
--> statement-breakpoint
CREATE TRIGGER "blog_posts_storefront" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "blog_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION "storefront_changed"();
