CREATE TABLE "photo_faces" (
	"job_file_id" integer PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"face_box" jsonb,
	"frame" jsonb,
	"detected_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "photo_faces" ADD CONSTRAINT "photo_faces_job_file_id_job_files_id_fk" FOREIGN KEY ("job_file_id") REFERENCES "public"."job_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_faces" ADD CONSTRAINT "photo_faces_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;