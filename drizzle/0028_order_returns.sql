CREATE TABLE "order_returns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"return_number" text NOT NULL,
	"kind" text DEFAULT 'return' NOT NULL,
	"state" text DEFAULT 'requested' NOT NULL,
	"reason" text NOT NULL,
	"reason_text" text DEFAULT '' NOT NULL,
	"lines" jsonb NOT NULL,
	"shopper_message" text DEFAULT '' NOT NULL,
	"request_key" text NOT NULL,
	"requested_by_user_id" text,
	"withdrawn_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_returns_return_number_unique" UNIQUE("return_number"),
	CONSTRAINT "order_returns_sequence_positive" CHECK ("order_returns"."sequence" > 0)
);
--> statement-breakpoint
ALTER TABLE "order_returns" ADD CONSTRAINT "order_returns_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_returns" ADD CONSTRAINT "order_returns_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_returns_order_sequence_idx" ON "order_returns" USING btree ("order_id","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "order_returns_request_key_idx" ON "order_returns" USING btree ("order_id","request_key");--> statement-breakpoint
CREATE INDEX "order_returns_state_idx" ON "order_returns" USING btree ("state","created_at" DESC NULLS LAST);