CREATE TABLE "first_orders_daily" (
	"day" date PRIMARY KEY NOT NULL,
	"customers" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "repeat_orders_daily" (
	"day" date NOT NULL,
	"previous_day" date NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "repeat_orders_daily_day_previous_day_pk" PRIMARY KEY("day","previous_day")
);
--> statement-breakpoint
CREATE TABLE "sales_counted_orders" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"email_key" text NOT NULL,
	"previous_day" date,
	"revenue_cents" bigint NOT NULL,
	"units" integer NOT NULL,
	"subtotal_cents" bigint NOT NULL,
	"discount_cents" bigint NOT NULL,
	"shipping_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"discounted" boolean NOT NULL,
	"product_ids" uuid[] NOT NULL,
	"categories" text[] NOT NULL,
	"product_units" integer[] NOT NULL,
	"product_revenue_cents" bigint[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_daily_categories" (
	"day" date NOT NULL,
	"category" text NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sales_daily_categories_day_category_pk" PRIMARY KEY("day","category")
);
--> statement-breakpoint
CREATE TABLE "sales_monthly_products" (
	"month" date NOT NULL,
	"product_id" uuid NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sales_monthly_products_month_product_id_pk" PRIMARY KEY("month","product_id")
);
--> statement-breakpoint
CREATE INDEX "sales_counted_orders_customer_idx" ON "sales_counted_orders" USING btree ("email_key","paid_at","order_id");