CREATE TABLE "order_money_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"provider_reference" text,
	"payment_task_id" uuid,
	"shipping_cents" bigint DEFAULT 0 NOT NULL,
	"adjustment_cents" bigint DEFAULT 0 NOT NULL,
	"adjustment_reason" text,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"actor_user_id" text,
	"actor_label" text DEFAULT 'system' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "order_money_movements_payment_task_id_unique" UNIQUE("payment_task_id"),
	CONSTRAINT "order_money_movements_amounts_nonnegative" CHECK ("order_money_movements"."amount_cents" >= 0 and "order_money_movements"."shipping_cents" >= 0 and "order_money_movements"."adjustment_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "order_money_movements" ADD CONSTRAINT "order_money_movements_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_money_movements" ADD CONSTRAINT "order_money_movements_payment_task_id_payment_tasks_id_fk" FOREIGN KEY ("payment_task_id") REFERENCES "public"."payment_tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_money_movements_order_idx" ON "order_money_movements" USING btree ("order_id","created_at");--> statement-breakpoint
-- Back-fill: the ledger of the orders made before it (tests/integration/order-ledger.test.ts runs these statements again).
-- Every order that was paid: one succeeded charge of its total, at its payment time ($0.00 orders too).
INSERT INTO "order_money_movements" ("order_id", "kind", "amount_cents", "currency", "state", "provider_reference", "reason", "created_at", "settled_at")
SELECT o."id", 'charge', o."total_amount_cents", o."currency", 'succeeded', coalesce(o."payment_reference", o."payment_session_id"), 'Payment received', o."paid_at", o."paid_at"
FROM "orders" o WHERE o."paid_at" IS NOT NULL;--> statement-breakpoint
-- A payment that did not match its order was not taken (no paid time) but was received: a charge of what came in.
INSERT INTO "order_money_movements" ("order_id", "kind", "amount_cents", "currency", "state", "provider_reference", "reason", "created_at", "settled_at")
SELECT o."id", 'charge', t."amount_cents", o."currency", 'succeeded', coalesce(o."payment_reference", o."payment_session_id"), 'Payment received (did not match the order)', t."created_at", t."created_at"
FROM "payment_tasks" t JOIN "orders" o ON o."id" = t."order_id"
WHERE t."kind" = 'refund_difference' AND o."paid_at" IS NULL AND t."amount_cents" IS NOT NULL;--> statement-breakpoint
-- Each refund asked of the provider: its state is the recorded call's (done: succeeded; tried and failed: failed; not tried yet: pending).
INSERT INTO "order_money_movements" ("order_id", "kind", "amount_cents", "currency", "state", "provider_reference", "payment_task_id", "actor_user_id", "actor_label", "reason", "created_at", "settled_at")
SELECT o."id", 'refund', coalesce(t."amount_cents", o."total_amount_cents"), o."currency",
  CASE WHEN t."state" = 'done' THEN 'succeeded' WHEN t."attempts" > 0 THEN 'failed' ELSE 'pending' END,
  coalesce(o."payment_reference", o."payment_session_id"), t."id", t."actor_user_id", t."actor_label", t."note", t."created_at", t."done_at"
FROM "payment_tasks" t JOIN "orders" o ON o."id" = t."order_id"
WHERE t."kind" IN ('refund', 'refund_difference') AND t."state" <> 'awaiting_owner';--> statement-breakpoint
-- Refunded with no recorded call (before calls were recorded): a succeeded refund of the whole total.
INSERT INTO "order_money_movements" ("order_id", "kind", "amount_cents", "currency", "state", "provider_reference", "reason", "created_at", "settled_at")
SELECT o."id", 'refund', o."total_amount_cents", o."currency", 'succeeded', coalesce(o."payment_reference", o."payment_session_id"), 'Payment refunded in full', o."updated_at", o."updated_at"
FROM "orders" o
WHERE o."payment_status" = 'refunded' AND o."paid_at" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "payment_tasks" t WHERE t."order_id" = o."id" AND t."kind" IN ('refund', 'refund_difference') AND t."state" <> 'awaiting_owner');
