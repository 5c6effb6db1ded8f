CREATE TABLE "order_stock_moves" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"order_item_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"source_id" uuid NOT NULL,
	"actor_user_id" text,
	"actor_label" text DEFAULT 'system' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_stock_moves_quantity_positive" CHECK ("order_stock_moves"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "test_payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_payment_refunds_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "test_payment_refunds_amount_nonnegative" CHECK ("test_payment_refunds"."amount_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "order_money_movements" ADD COLUMN "tax_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_money_movements" ADD COLUMN "return_id" uuid;--> statement-breakpoint
ALTER TABLE "order_money_movements" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_tasks" ADD COLUMN "movement_id" uuid;--> statement-breakpoint
ALTER TABLE "order_stock_moves" ADD CONSTRAINT "order_stock_moves_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_stock_moves" ADD CONSTRAINT "order_stock_moves_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_payment_refunds" ADD CONSTRAINT "test_payment_refunds_session_id_test_payment_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."test_payment_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_stock_moves_once_idx" ON "order_stock_moves" USING btree ("source","source_id","order_item_id","kind");--> statement-breakpoint
CREATE INDEX "order_stock_moves_order_idx" ON "order_stock_moves" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "test_payment_refunds_session_idx" ON "test_payment_refunds" USING btree ("session_id");