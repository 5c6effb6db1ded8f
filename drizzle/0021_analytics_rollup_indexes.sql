CREATE TABLE "search_terms_monthly" (
	"month" date NOT NULL,
	"term" text NOT NULL,
	"searches" integer DEFAULT 0 NOT NULL,
	"empty_searches" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "search_terms_monthly_month_term_pk" PRIMARY KEY("month","term")
);
--> statement-breakpoint
CREATE INDEX "sales_daily_products_product_idx" ON "sales_daily_products" USING btree ("product_id","day","units","revenue_cents");--> statement-breakpoint
CREATE INDEX "sales_monthly_products_revenue_idx" ON "sales_monthly_products" USING btree ("month","revenue_cents" DESC NULLS LAST,"product_id");--> statement-breakpoint
CREATE INDEX "sales_monthly_products_units_idx" ON "sales_monthly_products" USING btree ("month","units" DESC NULLS LAST,"product_id");--> statement-breakpoint
CREATE INDEX "sales_monthly_products_product_idx" ON "sales_monthly_products" USING btree ("product_id","month","units","revenue_cents");