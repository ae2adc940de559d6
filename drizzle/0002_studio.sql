CREATE TYPE "public"."agency_job_status" AS ENUM('draft', 'active', 'completed', 'archived');--> statement-breakpoint
CREATE TYPE "public"."agency_type" AS ENUM('school', 'sports', 'corporate', 'yearbook', 'childcare', 'designer');--> statement-breakpoint
CREATE TYPE "public"."icp_type" AS ENUM('school', 'corporate', 'sports', 'childcare');--> statement-breakpoint
CREATE TYPE "public"."qr_generation_status" AS ENUM('processing', 'completed', 'failed');--> statement-breakpoint
CREATE TYPE "public"."qr_layout" AS ENUM('single', '4up', '9up');--> statement-breakpoint
CREATE TABLE "agencies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "agencies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"agency_type" "agency_type" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agency_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "agency_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" text NOT NULL,
	"agency_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" "agency_job_status" DEFAULT 'draft' NOT NULL,
	"icp_type" "icp_type" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "job_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" text NOT NULL,
	"job_id" integer NOT NULL,
	"filename" text NOT NULL,
	"storage_key" text NOT NULL,
	"thumbnail_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"source_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qr_generations" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"job_ref" text NOT NULL,
	"layout" "qr_layout" NOT NULL,
	"page_size" text NOT NULL,
	"total_subjects" integer NOT NULL,
	"pages" integer,
	"status" "qr_generation_status" DEFAULT 'processing' NOT NULL,
	"storage_key" text,
	"bytes" integer,
	"wallet_transaction_id" text NOT NULL,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subjects" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"agency_id" integer NOT NULL,
	"student_id" text NOT NULL,
	"name" text NOT NULL,
	"class_name" text,
	"reference_photo_url" text,
	"reference_photo_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agencies" ADD CONSTRAINT "agencies_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agency_jobs" ADD CONSTRAINT "agency_jobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agency_jobs" ADD CONSTRAINT "agency_jobs_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_files" ADD CONSTRAINT "job_files_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_files" ADD CONSTRAINT "job_files_job_id_agency_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."agency_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_generations" ADD CONSTRAINT "qr_generations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subjects" ADD CONSTRAINT "subjects_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subjects" ADD CONSTRAINT "subjects_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agencies_account_idx" ON "agencies" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "agency_jobs_agency_idx" ON "agency_jobs" USING btree ("agency_id","id");--> statement-breakpoint
CREATE INDEX "agency_jobs_account_idx" ON "agency_jobs" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "job_files_job_idx" ON "job_files" USING btree ("job_id","id");--> statement-breakpoint
CREATE INDEX "job_files_account_idx" ON "job_files" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "qr_generations_account_idx" ON "qr_generations" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subjects_agency_student_key" ON "subjects" USING btree ("agency_id","student_id");--> statement-breakpoint
CREATE INDEX "subjects_account_idx" ON "subjects" USING btree ("account_id");