-- Triggers that name a money column in their column list or WHEN clause block a change of its type:
-- dropped here and made again, unchanged, once the columns are bigint.
DROP TRIGGER "sales_orders_update" ON "orders";--> statement-breakpoint
DROP TRIGGER "customers_orders_update" ON "orders";--> statement-breakpoint
DROP TRIGGER "sales_order_items_update" ON "order_items";--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "line_total_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "discount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "tax_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "subtotal_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "discount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "tax_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "total_amount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "test_payment_sessions" ALTER COLUMN "amount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "discount_uses" ALTER COLUMN "amount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_kind" text;--> statement-breakpoint
ALTER TABLE "payment_tasks" ADD COLUMN "amount_cents" bigint;--> statement-breakpoint
-- Existing orders take their code's kind: through the use the order held, else the code of that name.
UPDATE "orders" o SET "discount_kind" = c."kind"
FROM "discount_uses" u JOIN "discount_codes" c ON c."id" = u."code_id"
WHERE u."order_id" = o."id" AND o."discount_code" IS NOT NULL AND o."discount_kind" IS NULL;--> statement-breakpoint
UPDATE "orders" o SET "discount_kind" = c."kind"
FROM "discount_codes" c
WHERE lower(c."code") = lower(o."discount_code") AND o."discount_kind" IS NULL;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_orders_update"
  AFTER UPDATE OF "id", "payment_status", "status", "paid_at", "created_at", "email", "total_amount_cents", "subtotal_cents",
    "discount_cents", "discount_code", "shipping_cents", "tax_cents" ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."payment_status" = 'paid' AND OLD."status" <> 'cancelled') <> (NEW."payment_status" = 'paid' AND NEW."status" <> 'cancelled')
    OR (NEW."payment_status" = 'paid' AND NEW."status" <> 'cancelled' AND (
      OLD."id" <> NEW."id" OR OLD."paid_at" IS DISTINCT FROM NEW."paid_at" OR OLD."created_at" <> NEW."created_at"
      OR lower(OLD."email") <> lower(NEW."email") OR OLD."total_amount_cents" <> NEW."total_amount_cents"
      OR OLD."subtotal_cents" <> NEW."subtotal_cents" OR OLD."discount_cents" <> NEW."discount_cents"
      OR OLD."discount_code" IS DISTINCT FROM NEW."discount_code" OR OLD."shipping_cents" <> NEW."shipping_cents"
      OR OLD."tax_cents" <> NEW."tax_cents")))
  EXECUTE FUNCTION "sales_orders_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_order_items_update"
  AFTER UPDATE OF "order_id", "product_id", "quantity", "line_total_cents", "discount_cents" ON "order_items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."order_id" <> NEW."order_id" OR OLD."quantity" <> NEW."quantity"
    OR OLD."line_total_cents" <> NEW."line_total_cents" OR OLD."discount_cents" <> NEW."discount_cents"
    OR (NEW."product_id" IS NOT NULL AND OLD."product_id" IS DISTINCT FROM NEW."product_id"))
  EXECUTE FUNCTION "sales_order_items_changed"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "customers_orders_update"
  AFTER UPDATE OF "payment_status", "status", "total_amount_cents", "paid_at", "email", "first_name", "last_name", "created_at" ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."payment_status" IS DISTINCT FROM NEW."payment_status" OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."total_amount_cents" IS DISTINCT FROM NEW."total_amount_cents" OR OLD."paid_at" IS DISTINCT FROM NEW."paid_at"
    OR OLD."email" IS DISTINCT FROM NEW."email" OR OLD."first_name" IS DISTINCT FROM NEW."first_name"
    OR OLD."last_name" IS DISTINCT FROM NEW."last_name" OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "customers_orders_changed"();
