-- A search compares this stored text instead of lower(name || ' ' || category || ' ' || description)
-- built again for every row it looks at (docs/decisions/0043). Adding it rewrites the table once.
DROP INDEX "products_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(name || ' ' || category || ' ' || description)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "products_search_trgm_idx" ON "products" USING gin ("search_text" gin_trgm_ops);