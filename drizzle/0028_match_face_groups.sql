ALTER TABLE "match_faces" ADD COLUMN "embedding" real[];--> statement-breakpoint
ALTER TABLE "match_faces" ADD COLUMN "face_group" text;--> statement-breakpoint
CREATE INDEX "match_faces_group_idx" ON "match_faces" USING btree ("match_job_id","face_group");