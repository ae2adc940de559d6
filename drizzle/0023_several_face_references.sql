CREATE TABLE "subject_portraits" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"agency_id" integer NOT NULL,
	"subject_id" text NOT NULL,
	"filename" text NOT NULL,
	"storage_key" text NOT NULL,
	"thumbnail_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- face_references: one row per subject becomes several; existing rows (each a subject's reference_photo_url) keep an id derived from the subject.
ALTER TABLE "face_references" DROP CONSTRAINT "face_references_pkey";--> statement-breakpoint
ALTER TABLE "agencies" ADD COLUMN "learn_from_confirmed_matches" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "face_references" ADD COLUMN "id" text;--> statement-breakpoint
UPDATE "face_references" SET "id" = 'fref_' || "subject_id";--> statement-breakpoint
ALTER TABLE "face_references" ALTER COLUMN "id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "face_references" ADD PRIMARY KEY ("id");--> statement-breakpoint
ALTER TABLE "face_references" ADD COLUMN "source" text DEFAULT 'portrait' NOT NULL;--> statement-breakpoint
ALTER TABLE "face_references" ADD COLUMN "portrait_id" text;--> statement-breakpoint
ALTER TABLE "face_references" ADD COLUMN "match_face_id" text;--> statement-breakpoint
ALTER TABLE "subject_portraits" ADD CONSTRAINT "subject_portraits_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_portraits" ADD CONSTRAINT "subject_portraits_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_portraits" ADD CONSTRAINT "subject_portraits_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subject_portraits_subject_idx" ON "subject_portraits" USING btree ("subject_id","created_at");--> statement-breakpoint
CREATE INDEX "subject_portraits_agency_idx" ON "subject_portraits" USING btree ("agency_id");--> statement-breakpoint
ALTER TABLE "face_references" ADD CONSTRAINT "face_references_portrait_id_subject_portraits_id_fk" FOREIGN KEY ("portrait_id") REFERENCES "public"."subject_portraits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_references" ADD CONSTRAINT "face_references_match_face_id_match_faces_id_fk" FOREIGN KEY ("match_face_id") REFERENCES "public"."match_faces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "face_references_subject_idx" ON "face_references" USING btree ("subject_id","source","created_at");