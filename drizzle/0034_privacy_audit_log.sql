CREATE TABLE "privacy_audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"subject_ref" text NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_audit_log_admin_has_id" CHECK (("privacy_audit_log"."actor_kind" = 'admin') = ("privacy_audit_log"."actor_id" is not null))
);
--> statement-breakpoint
CREATE INDEX "privacy_audit_log_created_idx" ON "privacy_audit_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);