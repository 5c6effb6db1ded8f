CREATE TABLE "price_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"product_id" uuid NOT NULL,
	"variation_id" uuid,
	"price_cents" integer NOT NULL,
	"original_price_cents" integer,
	"from_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "price_history" ADD CONSTRAINT "price_history_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_history" ADD CONSTRAINT "price_history_variation_id_product_variations_id_fk" FOREIGN KEY ("variation_id") REFERENCES "public"."product_variations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_history_product_idx" ON "price_history" USING btree ("product_id","variation_id","from_at","id");--> statement-breakpoint
-- The prices in force now start every product's and active variation's history.
INSERT INTO "price_history" ("product_id", "variation_id", "price_cents", "original_price_cents")
SELECT "id", NULL, "price_cents", "original_price_cents" FROM "products";--> statement-breakpoint
INSERT INTO "price_history" ("product_id", "variation_id", "price_cents", "original_price_cents")
SELECT v."product_id", v."id", p."price_cents" + v."price_adjustment_cents", p."original_price_cents" + v."price_adjustment_cents"
FROM "product_variations" v JOIN "products" p ON p."id" = v."product_id"
WHERE v."active";
