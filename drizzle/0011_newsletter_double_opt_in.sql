ALTER TABLE "newsletter_subscriptions" ADD COLUMN "confirmed_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "newsletter_subscriptions" ADD COLUMN "confirmation_sent_at" timestamp with time zone;--> statement-breakpoint
-- Subscriptions from before double opt-in were already listed: they count as confirmed when made.
UPDATE "newsletter_subscriptions" SET "confirmed_at" = "created_at";
