CREATE TABLE "product_counts" (
	"category" text PRIMARY KEY NOT NULL,
	"active_count" integer DEFAULT 0 NOT NULL
);
