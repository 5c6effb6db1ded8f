CREATE INDEX "products_low_stock_default_idx" ON "products" USING btree ("stock_quantity") WHERE "products"."active" and not "products"."unlimited_stock" and "products"."low_stock_threshold" is null;--> statement-breakpoint
CREATE INDEX "products_low_stock_own_idx" ON "products" USING btree ("stock_quantity") WHERE "products"."active" and not "products"."unlimited_stock" and "products"."low_stock_threshold" is not null and "products"."stock_quantity" <= "products"."low_stock_threshold";--> statement-breakpoint
CREATE INDEX "products_low_stock_alerted_idx" ON "products" USING btree ("low_stock_alerted_at" DESC NULLS LAST) WHERE "products"."low_stock_alerted_at" is not null;--> statement-breakpoint
CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("paid_at" DESC NULLS LAST) WHERE "orders"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "orders_unshipped_idx" ON "orders" USING btree ("paid_at") WHERE "orders"."payment_status" = 'paid' and "orders"."status" in ('pending', 'processing');--> statement-breakpoint
CREATE INDEX "contact_messages_open_idx" ON "contact_messages" USING btree ("created_at" DESC NULLS LAST) WHERE not "contact_messages"."handled";--> statement-breakpoint
-- The shop's default low-stock threshold (docs/rules/analytics.md, Low stock): the 'inventory'
-- site setting, or 5 when it is missing or not a whole number (app/lib/low-stock.ts says the same).
CREATE OR REPLACE FUNCTION "shop_low_stock_threshold"() RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT CASE WHEN ("setting_value"->>'low_stock_threshold') ~ '^[0-9]{1,7}$'
                 THEN ("setting_value"->>'low_stock_threshold')::integer END
       FROM "site_settings" WHERE "setting_key" = 'inventory'),
    5)
$$;
--> statement-breakpoint
-- A low-stock crossing ends when the stock rises above the threshold again, whoever raised it (an
-- admin's edit or bulk edit, a cancelled order's stock given back, an import, a restock) or when
-- the product stops counting stock: the next fall then mails again. A sale marks the crossing
-- (app/server/settlement/stock.server.ts); this clears it.
CREATE OR REPLACE FUNCTION "products_low_stock_cleared"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."unlimited_stock" OR NEW."stock_quantity" > coalesce(NEW."low_stock_threshold", shop_low_stock_threshold()) THEN
    NEW."low_stock_alerted_at" := NULL;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "products_low_stock_cleared" BEFORE UPDATE OF "stock_quantity", "low_stock_threshold", "unlimited_stock" ON "products"
  FOR EACH ROW WHEN (NEW."low_stock_alerted_at" IS NOT NULL) EXECUTE FUNCTION "products_low_stock_cleared"();
--> statement-breakpoint
-- As in 0008, and the admin-only columns (cost, low-stock threshold and crossing) left out too: a
-- change to them alone shows on no storefront page, so it must not empty the page cache.
CREATE OR REPLACE FUNCTION "storefront_products_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stock_changes integer;
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_rows o JOIN new_rows n ON n."id" = o."id"
    WHERE (to_jsonb(o) - 'stock_quantity' - 'updated_at' - 'cost_cents' - 'low_stock_threshold' - 'low_stock_alerted_at')
          IS DISTINCT FROM (to_jsonb(n) - 'stock_quantity' - 'updated_at' - 'cost_cents' - 'low_stock_threshold' - 'low_stock_alerted_at')
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
