CREATE TABLE "discount_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"percent_basis_points" integer,
	"amount_cents" integer,
	"min_subtotal_cents" integer,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"usage_limit" integer,
	"uses_count" integer DEFAULT 0 NOT NULL,
	"once_per_email" boolean DEFAULT false NOT NULL,
	"product_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"category_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_codes_uses" CHECK ("discount_codes"."uses_count" >= 0 and ("discount_codes"."usage_limit" is null or "discount_codes"."uses_count" <= "discount_codes"."usage_limit")),
	CONSTRAINT "discount_codes_values" CHECK (("discount_codes"."percent_basis_points" is null or "discount_codes"."percent_basis_points" between 1 and 10000) and ("discount_codes"."amount_cents" is null or "discount_codes"."amount_cents" > 0) and ("discount_codes"."min_subtotal_cents" is null or "discount_codes"."min_subtotal_cents" >= 0)),
	CONSTRAINT "discount_codes_window" CHECK ("discount_codes"."starts_at" is null or "discount_codes"."ends_at" is null or "discount_codes"."starts_at" < "discount_codes"."ends_at")
);
--> statement-breakpoint
CREATE TABLE "discount_uses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"email_key" text,
	"state" text DEFAULT 'held' NOT NULL,
	"amount_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "discount_uses_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "shipping_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"zone_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"free_over_cents" integer,
	"weight_bands" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"estimate" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipping_rates_price_nonnegative" CHECK ("shipping_rates"."price_cents" >= 0 and ("shipping_rates"."free_over_cents" is null or "shipping_rates"."free_over_cents" >= 0))
);
--> statement-breakpoint
CREATE TABLE "shipping_zones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"countries" text[] DEFAULT '{}'::text[] NOT NULL,
	"regions" text[] DEFAULT '{}'::text[] NOT NULL,
	"postcode_prefixes" text[] DEFAULT '{}'::text[] NOT NULL,
	"rest_of_world" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"country" text NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"rate_basis_points" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_rates_rate_range" CHECK ("tax_rates"."rate_basis_points" >= 0 and "tax_rates"."rate_basis_points" <= 10000)
);
--> statement-breakpoint
CREATE TABLE "tax_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"tax_name" text DEFAULT 'Tax' NOT NULL,
	"prices_include_tax" boolean DEFAULT false NOT NULL,
	"shipping_taxable" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_settings_one_row" CHECK ("tax_settings"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "weight_grams" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_rate_id" uuid;--> statement-breakpoint
ALTER TABLE "discount_uses" ADD CONSTRAINT "discount_uses_code_id_discount_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."discount_codes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_uses" ADD CONSTRAINT "discount_uses_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_rates" ADD CONSTRAINT "shipping_rates_zone_id_shipping_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."shipping_zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_code_unique" ON "discount_codes" USING btree (lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "discount_uses_once_per_email" ON "discount_uses" USING btree ("code_id","email_key") WHERE "discount_uses"."email_key" is not null and "discount_uses"."state" <> 'released';--> statement-breakpoint
CREATE INDEX "discount_uses_code_idx" ON "discount_uses" USING btree ("code_id","created_at");--> statement-breakpoint
CREATE INDEX "discount_uses_created_idx" ON "discount_uses" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "shipping_rates_zone_idx" ON "shipping_rates" USING btree ("zone_id","position");--> statement-breakpoint
CREATE INDEX "shipping_zones_countries_idx" ON "shipping_zones" USING gin ("countries");--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_zones_one_rest_of_world" ON "shipping_zones" USING btree ("rest_of_world") WHERE "shipping_zones"."rest_of_world";--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_place_unique" ON "tax_rates" USING btree ("country","region");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_weight_nonnegative" CHECK ("products"."weight_grams" is null or "products"."weight_grams" >= 0);--> statement-breakpoint
-- A fresh shop ships everywhere for free and charges no tax, as before these settings existed.
INSERT INTO "shipping_zones" ("name", "rest_of_world", "position") VALUES ('Everywhere', true, 0);
--> statement-breakpoint
INSERT INTO "shipping_rates" ("zone_id", "name", "kind", "price_cents", "position")
  SELECT "id", 'Standard', 'flat', 0, 0 FROM "shipping_zones" WHERE "rest_of_world";
--> statement-breakpoint
INSERT INTO "tax_settings" ("id") VALUES (1);
--> statement-breakpoint
-- The benefits strip shows the free-shipping threshold: a rate change is a storefront change.
CREATE TRIGGER "shipping_zones_storefront" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "shipping_zones"
  FOR EACH STATEMENT EXECUTE FUNCTION "storefront_changed"();
--> statement-breakpoint
CREATE TRIGGER "shipping_rates_storefront" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "shipping_rates"
  FOR EACH STATEMENT EXECUTE FUNCTION "storefront_changed"();
