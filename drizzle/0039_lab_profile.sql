ALTER TABLE "production_settings" ADD COLUMN "lab_profile_key" text;--> statement-breakpoint
ALTER TABLE "production_settings" ADD COLUMN "lab_profile_description" text;--> statement-breakpoint
ALTER TABLE "production_settings" ADD COLUMN "lab_profile_bytes" integer;--> statement-breakpoint
ALTER TABLE "production_settings" ADD COLUMN "lab_profile_uploaded_at" timestamp (3) with time zone;