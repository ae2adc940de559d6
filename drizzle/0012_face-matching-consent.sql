ALTER TABLE "agencies" ALTER COLUMN "face_matching_enabled" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "agencies" ADD COLUMN "face_matching_consent_by" text;--> statement-breakpoint
ALTER TABLE "agencies" ADD COLUMN "face_matching_consent_at" timestamp with time zone;-- Agencies created before this migration keep their switch; their consent stays unrecorded (null) until a person turns matching off and on again.
