CREATE TABLE "face_references" (
	"subject_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"agency_id" integer NOT NULL,
	"embedding" real[] NOT NULL,
	"model" text NOT NULL,
	"photo_source" text NOT NULL,
	"face_box" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "match_faces" (
	"id" text PRIMARY KEY NOT NULL,
	"match_file_id" integer NOT NULL,
	"match_job_id" integer NOT NULL,
	"account_id" text NOT NULL,
	"face_index" integer NOT NULL,
	"face_box" jsonb NOT NULL,
	"subject_id" text,
	"score" real,
	"runner_up_subject_id" text,
	"runner_up_score" real,
	"engine_decision" text NOT NULL,
	"review" text,
	"reviewed_at" timestamp with time zone,
	"decision" text NOT NULL,
	"final_subject_id" text
);
--> statement-breakpoint
CREATE TABLE "match_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "match_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"match_job_id" integer NOT NULL,
	"account_id" text NOT NULL,
	"file_id" integer,
	"filename" text NOT NULL,
	"position" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error_code" text,
	"error_message" text,
	"width" integer,
	"height" integer,
	"decision" text,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "match_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "match_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"task_id" text NOT NULL,
	"account_id" text NOT NULL,
	"agency_id" integer NOT NULL,
	"job_id" integer,
	"threshold" real NOT NULL,
	"status" text NOT NULL,
	"total_files" integer NOT NULL,
	"processed_files" integer DEFAULT 0 NOT NULL,
	"price_per_file" integer NOT NULL,
	"tokens_debited" integer NOT NULL,
	"wallet_transaction_id" text NOT NULL,
	"tokens_refunded" integer DEFAULT 0 NOT NULL,
	"refund_transaction_id" text,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reference_builds" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"agency_id" integer NOT NULL,
	"status" text NOT NULL,
	"subjects_total" integer NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"embeddings_created" integer DEFAULT 0 NOT NULL,
	"report" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "agencies" ADD COLUMN "face_matching_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "agencies" ADD COLUMN "matching_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subjects" ADD COLUMN "exclude_from_matching" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "face_references" ADD CONSTRAINT "face_references_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_references" ADD CONSTRAINT "face_references_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_references" ADD CONSTRAINT "face_references_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_faces" ADD CONSTRAINT "match_faces_match_file_id_match_files_id_fk" FOREIGN KEY ("match_file_id") REFERENCES "public"."match_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_faces" ADD CONSTRAINT "match_faces_match_job_id_match_jobs_id_fk" FOREIGN KEY ("match_job_id") REFERENCES "public"."match_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_faces" ADD CONSTRAINT "match_faces_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_faces" ADD CONSTRAINT "match_faces_runner_up_subject_id_subjects_id_fk" FOREIGN KEY ("runner_up_subject_id") REFERENCES "public"."subjects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_faces" ADD CONSTRAINT "match_faces_final_subject_id_subjects_id_fk" FOREIGN KEY ("final_subject_id") REFERENCES "public"."subjects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_files" ADD CONSTRAINT "match_files_match_job_id_match_jobs_id_fk" FOREIGN KEY ("match_job_id") REFERENCES "public"."match_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_files" ADD CONSTRAINT "match_files_file_id_job_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."job_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_jobs" ADD CONSTRAINT "match_jobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_jobs" ADD CONSTRAINT "match_jobs_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_jobs" ADD CONSTRAINT "match_jobs_job_id_agency_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."agency_jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reference_builds" ADD CONSTRAINT "reference_builds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reference_builds" ADD CONSTRAINT "reference_builds_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "face_references_agency_idx" ON "face_references" USING btree ("agency_id");--> statement-breakpoint
CREATE INDEX "match_faces_file_idx" ON "match_faces" USING btree ("match_file_id","face_index");--> statement-breakpoint
CREATE INDEX "match_faces_job_idx" ON "match_faces" USING btree ("match_job_id","decision");--> statement-breakpoint
CREATE INDEX "match_faces_subject_idx" ON "match_faces" USING btree ("final_subject_id");--> statement-breakpoint
CREATE INDEX "match_files_job_idx" ON "match_files" USING btree ("match_job_id","position");--> statement-breakpoint
CREATE INDEX "match_files_decision_idx" ON "match_files" USING btree ("match_job_id","decision");--> statement-breakpoint
CREATE INDEX "match_files_file_idx" ON "match_files" USING btree ("file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "match_jobs_task_key" ON "match_jobs" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "match_jobs_account_idx" ON "match_jobs" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "match_jobs_status_idx" ON "match_jobs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "reference_builds_account_idx" ON "reference_builds" USING btree ("account_id","created_at");