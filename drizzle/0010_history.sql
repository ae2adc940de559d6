ALTER TABLE "projects" ADD COLUMN "preflight_overrides" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "job_files" ADD COLUMN "sha256" text;--> statement-breakpoint
CREATE INDEX "job_files_job_sha256_idx" ON "job_files" USING btree ("job_id","sha256");