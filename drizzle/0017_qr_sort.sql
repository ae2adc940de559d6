CREATE TABLE "qr_sort_frames" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "qr_sort_frames_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"task_id" text NOT NULL,
	"account_id" text NOT NULL,
	"file_id" integer,
	"filename" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"captured_at" timestamp with time zone,
	"sequence" integer,
	"role" text,
	"subject_id" text,
	"student_id" text,
	"card_payload" text,
	"review" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"face_subject_id" text,
	"manual" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qr_sort_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"agency_id" integer NOT NULL,
	"job_id" integer NOT NULL,
	"status" text NOT NULL,
	"files_total" integer NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "subjects" ADD COLUMN "grade" text;--> statement-breakpoint
ALTER TABLE "subjects" ADD COLUMN "homeroom" text;--> statement-breakpoint
ALTER TABLE "subjects" ADD COLUMN "teacher" text;--> statement-breakpoint
ALTER TABLE "subjects" ADD COLUMN "period" text;--> statement-breakpoint
ALTER TABLE "subjects" ADD COLUMN "track" text;--> statement-breakpoint
ALTER TABLE "subjects" ADD COLUMN "department" text;--> statement-breakpoint
ALTER TABLE "subjects" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "qr_sort_frames" ADD CONSTRAINT "qr_sort_frames_task_id_qr_sort_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."qr_sort_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_sort_frames" ADD CONSTRAINT "qr_sort_frames_file_id_job_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."job_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_sort_frames" ADD CONSTRAINT "qr_sort_frames_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_sort_frames" ADD CONSTRAINT "qr_sort_frames_face_subject_id_subjects_id_fk" FOREIGN KEY ("face_subject_id") REFERENCES "public"."subjects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_sort_tasks" ADD CONSTRAINT "qr_sort_tasks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_sort_tasks" ADD CONSTRAINT "qr_sort_tasks_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_sort_tasks" ADD CONSTRAINT "qr_sort_tasks_job_id_agency_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."agency_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "qr_sort_frames_task_file_idx" ON "qr_sort_frames" USING btree ("task_id","file_id");--> statement-breakpoint
CREATE INDEX "qr_sort_frames_task_seq_idx" ON "qr_sort_frames" USING btree ("task_id","sequence");--> statement-breakpoint
CREATE INDEX "qr_sort_frames_subject_idx" ON "qr_sort_frames" USING btree ("subject_id");--> statement-breakpoint
CREATE INDEX "qr_sort_tasks_account_idx" ON "qr_sort_tasks" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "qr_sort_tasks_job_idx" ON "qr_sort_tasks" USING btree ("job_id");