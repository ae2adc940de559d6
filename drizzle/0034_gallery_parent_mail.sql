ALTER TABLE "galleries" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gallery_access_codes" ADD COLUMN "mail_sends" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gallery_access_codes" ADD COLUMN "mailed_to" text;--> statement-breakpoint
ALTER TABLE "gallery_access_codes" ADD COLUMN "mailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gallery_settings" ADD COLUMN "reminder_days" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "gallery_settings" ADD COLUMN "order_photo_retention_days" integer DEFAULT 365 NOT NULL;--> statement-breakpoint
ALTER TABLE "subjects" ADD COLUMN "parent_email" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "photos_removed_at" timestamp (3) with time zone;