CREATE TABLE "galleries" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"job_id" integer NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"expires_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gallery_access_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"job_id" integer NOT NULL,
	"subject_id" text NOT NULL,
	"lookup" text NOT NULL,
	"sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gallery_favourites" (
	"subject_id" text NOT NULL,
	"photo_id" text NOT NULL,
	"account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gallery_favourites_subject_id_photo_id_pk" PRIMARY KEY("subject_id","photo_id")
);
--> statement-breakpoint
CREATE TABLE "gallery_photos" (
	"id" text PRIMARY KEY NOT NULL,
	"gallery_id" text NOT NULL,
	"account_id" text NOT NULL,
	"job_file_id" integer NOT NULL,
	"source" text NOT NULL,
	"position" integer NOT NULL,
	"preview_key" text,
	"preview_width" integer,
	"preview_height" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gallery_settings" (
	"account_id" text PRIMARY KEY NOT NULL,
	"expiry_days" integer DEFAULT 30 NOT NULL,
	"watermark_text" text,
	"watermark_logo_key" text,
	"group_gallery" boolean DEFAULT true NOT NULL,
	"downloads_enabled" boolean DEFAULT false NOT NULL,
	"watermark_version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "galleries" ADD CONSTRAINT "galleries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "galleries" ADD CONSTRAINT "galleries_job_id_agency_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."agency_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "galleries" ADD CONSTRAINT "galleries_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_access_codes" ADD CONSTRAINT "gallery_access_codes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_access_codes" ADD CONSTRAINT "gallery_access_codes_job_id_agency_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."agency_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_access_codes" ADD CONSTRAINT "gallery_access_codes_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_favourites" ADD CONSTRAINT "gallery_favourites_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_favourites" ADD CONSTRAINT "gallery_favourites_photo_id_gallery_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."gallery_photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_favourites" ADD CONSTRAINT "gallery_favourites_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_photos" ADD CONSTRAINT "gallery_photos_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_photos" ADD CONSTRAINT "gallery_photos_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_photos" ADD CONSTRAINT "gallery_photos_job_file_id_job_files_id_fk" FOREIGN KEY ("job_file_id") REFERENCES "public"."job_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_settings" ADD CONSTRAINT "gallery_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "galleries_job_subject_key" ON "galleries" USING btree ("job_id","subject_id");--> statement-breakpoint
CREATE UNIQUE INDEX "galleries_job_group_key" ON "galleries" USING btree ("job_id") WHERE "galleries"."kind" = 'group';--> statement-breakpoint
CREATE INDEX "galleries_account_idx" ON "galleries" USING btree ("account_id","job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "gallery_access_codes_lookup_key" ON "gallery_access_codes" USING btree ("lookup");--> statement-breakpoint
CREATE UNIQUE INDEX "gallery_access_codes_job_subject_key" ON "gallery_access_codes" USING btree ("job_id","subject_id");--> statement-breakpoint
CREATE INDEX "gallery_favourites_photo_idx" ON "gallery_favourites" USING btree ("photo_id");--> statement-breakpoint
CREATE UNIQUE INDEX "gallery_photos_gallery_file_key" ON "gallery_photos" USING btree ("gallery_id","job_file_id");--> statement-breakpoint
CREATE INDEX "gallery_photos_gallery_idx" ON "gallery_photos" USING btree ("gallery_id","position");--> statement-breakpoint
CREATE INDEX "gallery_photos_file_idx" ON "gallery_photos" USING btree ("job_file_id");