CREATE TABLE "gallery_reminder_emails" (
	"job_id" integer NOT NULL,
	"subject_id" text NOT NULL,
	"email" text NOT NULL,
	"account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gallery_reminder_emails_job_id_subject_id_email_pk" PRIMARY KEY("job_id","subject_id","email")
);
--> statement-breakpoint
ALTER TABLE "gallery_reminder_emails" ADD CONSTRAINT "gallery_reminder_emails_job_id_agency_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."agency_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_reminder_emails" ADD CONSTRAINT "gallery_reminder_emails_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_reminder_emails" ADD CONSTRAINT "gallery_reminder_emails_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;