CREATE TABLE "yearbook_poses" (
	"job_id" integer NOT NULL,
	"subject_id" text NOT NULL,
	"account_id" text NOT NULL,
	"photo_id" text NOT NULL,
	"job_file_id" integer NOT NULL,
	"chosen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "yearbook_poses_job_id_subject_id_pk" PRIMARY KEY("job_id","subject_id")
);
--> statement-breakpoint
ALTER TABLE "galleries" ADD COLUMN "yearbook_deadline" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "status_before" text;--> statement-breakpoint
ALTER TABLE "yearbook_poses" ADD CONSTRAINT "yearbook_poses_job_id_agency_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."agency_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "yearbook_poses" ADD CONSTRAINT "yearbook_poses_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "yearbook_poses" ADD CONSTRAINT "yearbook_poses_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "yearbook_poses" ADD CONSTRAINT "yearbook_poses_photo_id_gallery_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."gallery_photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "yearbook_poses" ADD CONSTRAINT "yearbook_poses_job_file_id_job_files_id_fk" FOREIGN KEY ("job_file_id") REFERENCES "public"."job_files"("id") ON DELETE cascade ON UPDATE no action;