CREATE TABLE "test_payment_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"customer_email" text NOT NULL,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"payment_reference" text,
	"card_last4" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "test_payment_sessions_amount_nonnegative" CHECK ("test_payment_sessions"."amount_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "test_payment_sessions" ADD CONSTRAINT "test_payment_sessions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "test_payment_sessions_order_idx" ON "test_payment_sessions" USING btree ("order_id");