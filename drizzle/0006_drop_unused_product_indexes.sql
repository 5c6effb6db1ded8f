DROP INDEX "products_price_idx";--> statement-breakpoint
DROP INDEX "products_rating_idx";