ALTER TABLE "fix_jobs" ADD COLUMN "before_preview_pages" integer;--> statement-breakpoint
ALTER TABLE "fix_jobs" ADD COLUMN "after_preview_pages" integer;