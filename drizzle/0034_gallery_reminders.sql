ALTER TABLE "galleries" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gallery_settings" ADD COLUMN "reminder_days" integer DEFAULT 3 NOT NULL;