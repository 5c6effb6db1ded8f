DROP INDEX "orders_unshipped_idx";--> statement-breakpoint
DROP INDEX "orders_discounted_idx";--> statement-breakpoint
CREATE INDEX "orders_unshipped_idx" ON "orders" USING btree ("paid_at") WHERE "orders"."payment_status" in ('paid', 'partially_refunded') and "orders"."status" in ('pending', 'processing');--> statement-breakpoint
CREATE INDEX "orders_discounted_idx" ON "orders" USING btree ("paid_at") WHERE "orders"."discount_code" is not null and "orders"."payment_status" in ('paid', 'partially_refunded') and "orders"."status" <> 'cancelled';