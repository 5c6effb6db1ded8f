CREATE TABLE "storefront_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"xid" bigint NOT NULL,
	"product_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "storefront_changes_xid_idx" ON "storefront_changes" USING btree ("xid");--> statement-breakpoint
CREATE INDEX "storefront_changes_created_idx" ON "storefront_changes" USING btree ("created_at");