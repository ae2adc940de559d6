ALTER TABLE "print_files" ADD COLUMN "photo_id" text;--> statement-breakpoint
ALTER TABLE "print_files" ADD COLUMN "crop" jsonb;