ALTER TABLE "gallery_access_codes" ADD COLUMN "mail_sends" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gallery_access_codes" ADD COLUMN "mailed_to" text;--> statement-breakpoint
ALTER TABLE "gallery_access_codes" ADD COLUMN "mailed_at" timestamp with time zone;